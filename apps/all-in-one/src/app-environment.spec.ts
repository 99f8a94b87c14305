import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownEnvironment, platformConfigVariables } from './app-environment';

describe("each app's own environment (separate processes)", () => {
  const directory = mkdtempSync(join(tmpdir(), 'app-environment-'));
  const config = join(directory, 'platform.yaml');
  writeFileSync(
    config,
    [
      'bots:',
      '  - id: b',
      '    appPassword: ${BOT_APP_PASSWORD:-x}',
      '    directLine: { secrets: [{ env: BOT_DL_SECRET }, "$${NOT_A_VARIABLE}"] }',
    ].join('\n'),
  );
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const everything: NodeJS.ProcessEnv = {
    PATH: '/usr/bin',
    LANG: 'C.UTF-8',
    NODE_OPTIONS: '--max-old-space-size=512',
    LOG_LEVEL: 'info',
    REDIS_URL: 'redis://127.0.0.1:6379',
    DATABASE_URL: 'postgres://db',
    PLATFORM_CONFIG: config,
    RELAY_GATEWAY_PORT: '8010',
    INSPECTION_JWT_SIGNING_KEY: 'the API signing key',
    INSPECTION_BOT_API_PASSWORD: "the bot's service password",
    BOT_APP_PASSWORD: 'referenced by the platform configuration',
    BOT_DL_SECRET: 'referenced too',
    UNRELATED_SECRET: 'nobody reads it',
  };

  it('reads the variables a platform configuration names, not $${…}', () => {
    expect(platformConfigVariables(config).sort()).toEqual(['BOT_APP_PASSWORD', 'BOT_DL_SECRET']);
    expect(platformConfigVariables(join(directory, 'missing.yaml'))).toEqual([]);
  });

  it("gives the relay its own, its configuration's and the system's variables, no other app's secret", () => {
    const relay = ownEnvironment('relay-gateway', everything);
    expect(relay).toMatchObject({
      PATH: '/usr/bin',
      LANG: 'C.UTF-8',
      NODE_OPTIONS: '--max-old-space-size=512',
      LOG_LEVEL: 'info',
      REDIS_URL: 'redis://127.0.0.1:6379',
      PLATFORM_CONFIG: config,
      RELAY_GATEWAY_PORT: '8010',
      BOT_APP_PASSWORD: 'referenced by the platform configuration',
      BOT_DL_SECRET: 'referenced too',
    });
    for (const name of [
      'INSPECTION_JWT_SIGNING_KEY',
      'INSPECTION_BOT_API_PASSWORD',
      'UNRELATED_SECRET',
      'DATABASE_URL',
    ])
      expect([name, relay[name]]).toEqual([name, undefined]);
  });

  it('gives inspection-api its signing key and database, and the bot neither', () => {
    const api = ownEnvironment('inspection-api', everything);
    expect(api.INSPECTION_JWT_SIGNING_KEY).toBe('the API signing key');
    expect(api.DATABASE_URL).toBe('postgres://db');
    expect(api.BOT_DL_SECRET).toBeUndefined();
    const bot = ownEnvironment('inspection-bot', everything);
    expect(bot.INSPECTION_BOT_API_PASSWORD).toBe("the bot's service password");
    expect(bot.INSPECTION_JWT_SIGNING_KEY).toBeUndefined();
    expect(bot.UNRELATED_SECRET).toBeUndefined();
  });
});
