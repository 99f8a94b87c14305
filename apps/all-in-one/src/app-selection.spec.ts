import { ConfigurationError } from '@fieldops/platform';
import { AllInOneEnvironment, checkMetricsPort } from './all-in-one.environment';
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

describe('checkMetricsPort', () => {
  const withPort = Object.assign(new AllInOneEnvironment(), { METRICS_PORT: '9464' });

  it('refuses one metrics port for several apps, naming the variable', () => {
    expect(() => checkMetricsPort(withPort, selectApps([], undefined))).toThrow(
      /METRICS_PORT: one port cannot/,
    );
  });

  it('accepts it for one app, and no METRICS_PORT for any number', () => {
    expect(() => checkMetricsPort(withPort, selectApps(['--apps', 'relay'], undefined))).not.toThrow();
    expect(() => checkMetricsPort(new AllInOneEnvironment(), selectApps([], undefined))).not.toThrow();
  });
});
