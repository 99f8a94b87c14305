import { ConfigurationError } from '@fieldops/platform';
import { PLATFORM_APPS, selectApps } from './app-selection';

describe('selectApps', () => {
  it('starts every app by default', () => {
    expect([...selectApps([], undefined)]).toEqual([...PLATFORM_APPS]);
    expect([...selectApps(['node', 'main.js'], '')]).toEqual([...PLATFORM_APPS]);
  });

  it('takes --apps (both spellings) before PLATFORM_APPS, short names too, in start order', () => {
    expect([...selectApps(['--apps', 'relay,connector'], 'api')]).toEqual([
      'connector-gateway',
      'relay-gateway',
    ]);
    expect([...selectApps(['--apps=relay-gateway'], undefined)]).toEqual(['relay-gateway']);
    expect([...selectApps([], ' API , relay ')]).toEqual(['inspection-api', 'relay-gateway']);
  });

  it('names unknown apps and a bot without the apps it needs', () => {
    expect(() => selectApps(['--apps', 'relay,chat'], undefined)).toThrow(/--apps: unknown app "chat"/);
    expect(() => selectApps([], 'bot,relay')).toThrow(
      /PLATFORM_APPS: inspection-bot runs only with inspection-api, connector-gateway beside it/,
    );
    expect(() => selectApps(['--apps'], undefined)).toThrow(ConfigurationError);
  });
});
