import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { botSettingsFromPlatformConfig } from './inspection-bot-launch';

function configWith(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'launch-')), 'platform.yaml');
  writeFileSync(
    file,
    [
      'bots:',
      '  - id: inspection-bot',
      '    appId: inspection-app',
      '    messagingEndpoint: http://127.0.0.1:3978/api/messages',
      '    appPassword: inspection-password',
      ...lines.map((line) => `    ${line}`),
    ].join('\n'),
  );
  return file;
}

describe('botSettingsFromPlatformConfig', () => {
  it('hands the bundled bot the issuer connector-gateway gives its tokens, whatever is configured', () => {
    const plain = configWith([]);
    expect(botSettingsFromPlatformConfig({ PLATFORM_CONFIG: plain })).toMatchObject({
      MicrosoftAppId: 'inspection-app',
      MicrosoftAppPassword: 'inspection-password',
      ToBotFromChannelTokenIssuer: 'https://api.botframework.com',
    });
    // A platform-wide default for botbuilder bots reaches the bot too.
    expect(
      botSettingsFromPlatformConfig({ PLATFORM_CONFIG: plain, CONNECTOR_BOT_TOKEN_ISSUER: 'urn:platform' }),
    ).toMatchObject({ ToBotFromChannelTokenIssuer: 'urn:platform' });
    expect(
      botSettingsFromPlatformConfig({
        PLATFORM_CONFIG: configWith(['channelTokenIssuer: urn:own']),
        CONNECTOR_BOT_TOKEN_ISSUER: 'urn:platform',
      }),
    ).toMatchObject({ ToBotFromChannelTokenIssuer: 'urn:own' });
    expect(
      botSettingsFromPlatformConfig({
        PLATFORM_CONFIG: configWith(['sdk: agents']),
        CONNECTOR_TOKEN_TENANTS: 'contoso, botframework.com',
      }),
    ).toMatchObject({ ToBotFromChannelTokenIssuer: 'https://sts.windows.net/contoso/' });
  });
});
