import { ConfigurationError } from '@fieldops/platform';
import { parsePlatformConfig } from '@fieldops/platform-config';
import { InMemoryBotRegistry } from './bot-registry';
import { registeredBotsFromPlatformConfig } from './platform-bots';

const context = { environment: { APP_PASSWORD: 'password-from-env' }, baseDirectory: '/nonexistent' };
const config = (bots: string[]) => parsePlatformConfig(['bots:', ...bots].join('\n'), 'test', context);

describe('registeredBotsFromPlatformConfig', () => {
  it('maps the platform configuration to registry input, secrets resolved', async () => {
    const bots = registeredBotsFromPlatformConfig(
      config([
        '  - id: b1',
        '    appId: app-1',
        '    name: Bot one',
        '    messagingEndpoint: http://127.0.0.1:3978/api/messages',
        '    appPassword: { env: APP_PASSWORD }',
        '    managedIdentity: true',
        '    sdk: agents',
        '    channelTokenIssuer: urn:b1',
        '    identityHeader: b1-identity-header-0001',
        '  - id: b2',
        '    appId: app-2',
        '    messagingEndpoint: http://127.0.0.1:3979/api/messages',
        '    anonymous: true',
      ]),
    );
    expect(bots).toEqual([
      {
        id: 'b1',
        appId: 'app-1',
        displayName: 'Bot one',
        messagingEndpoint: 'http://127.0.0.1:3978/api/messages',
        appPassword: 'password-from-env',
        managedIdentity: true,
        sdk: 'agents',
        channelTokenIssuer: 'urn:b1',
        identityHeader: 'b1-identity-header-0001',
      },
      {
        id: 'b2',
        appId: 'app-2',
        displayName: 'b2',
        messagingEndpoint: 'http://127.0.0.1:3979/api/messages',
        anonymous: true,
      },
    ]);
    const registry = new InMemoryBotRegistry(bots);
    const first = registry.findById('b1')!;
    expect(first.appId).toBe('app-1');
    expect(await registry.verifyAppPassword(first, 'password-from-env')).toBe(true);
    expect(registry.find('app-2')?.anonymous).toBe(true);
  });

  it('leaves it to the registry to refuse a bot without credentials', () => {
    const bots = registeredBotsFromPlatformConfig(
      config(['  - id: b1', '    appId: app-1', '    messagingEndpoint: http://127.0.0.1/api/messages']),
    );
    expect(() => new InMemoryBotRegistry(bots)).toThrow(ConfigurationError);
  });
});
