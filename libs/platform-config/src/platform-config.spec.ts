import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigurationError } from '@fieldops/platform';
import { findBotByDirectLineSecret, loadPlatformConfig, parsePlatformConfig } from './platform-config';

const context = { environment: {}, baseDirectory: '/nonexistent' };

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as ConfigurationError).problems;
  }
  throw new Error('expected a ConfigurationError');
}

describe('platform configuration', () => {
  it('loads the example file used by npm start, with defaults applied', () => {
    const config = loadPlatformConfig(resolve(__dirname, '../../../infra/config/platform.example.yaml'), {
      environment: {},
    });
    expect(config.bots).toHaveLength(1);
    const [bot] = config.bots;
    expect(bot).toMatchObject({ id: 'inspection-bot', name: 'Inspection bot' });
    expect(bot?.directLine).toMatchObject({
      // Issue 13: the chat page's tokens embed dl_<user id>, trusted by the bot under enhanced authentication.
      enhancedAuthentication: true,
      tokenLifetimeSeconds: 3600,
      trustedOrigins: ['http://localhost:3978', 'http://127.0.0.1:3978'],
    });
    expect(bot?.directLine?.secrets).toHaveLength(2);
    expect(config.relay.tokenSigningKeys).toEqual([]);
  });

  it("refuses the example file's published secrets outside tests, naming each key; takes its secrets from the environment", () => {
    const example = resolve(__dirname, '../../../infra/config/platform.example.yaml');
    const problems = problemsOf(() =>
      loadPlatformConfig(example, { environment: { NODE_ENV: 'production' } }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^bots\.0\.directLine\.secrets\.0: holds a published example value/),
      expect.stringMatching(/^bots\.0\.directLine\.secrets\.1: holds a published example value/),
      expect.stringMatching(/^bots\.0\.appPassword: holds a published example value/),
      expect.stringMatching(/^aiServices\.resources\.0\.keys\.0: holds a published example value/),
      expect.stringMatching(/^aiServices\.resources\.0\.keys\.1: holds a published example value/),
    ]);
    const own = {
      NODE_ENV: 'production',
      INSPECTION_BOT_APP_PASSWORD: 'an-app-password-of-its-own',
      INSPECTION_BOT_DIRECTLINE_SECRET_1: 'a-direct-line-secret-of-its-own-1',
      INSPECTION_BOT_DIRECTLINE_SECRET_2: 'a-direct-line-secret-of-its-own-2',
      DEMO_TRANSLATOR_KEY_1: 'a-translator-key-of-its-own-1',
      DEMO_TRANSLATOR_KEY_2: 'a-translator-key-of-its-own-2',
    };
    const config = loadPlatformConfig(example, { environment: own });
    expect(config.bots[0]?.directLine?.secrets).toEqual([
      own.INSPECTION_BOT_DIRECTLINE_SECRET_1,
      own.INSPECTION_BOT_DIRECTLINE_SECRET_2,
    ]);
    expect(config.bots[0]?.appPassword).toBe(own.INSPECTION_BOT_APP_PASSWORD);
    // A reference names its variable too.
    const referenced = problemsOf(() =>
      parsePlatformConfig('bots: []\nrelay: { tokenSigningKeys: [{ env: SIGNING_KEY }] }\n', 'test', {
        ...context,
        environment: { NODE_ENV: 'production', SIGNING_KEY: 'change-me-relay-token-signing-key-0123456789' },
      }),
    );
    expect(referenced).toEqual([
      expect.stringMatching(/^relay\.tokenSigningKeys\.0 \(SIGNING_KEY\): holds a published example value/),
    ]);
  });

  it("moves the example bot's messaging endpoint with INSPECTION_BOT_PORT", () => {
    const example = resolve(__dirname, '../../../infra/config/platform.example.yaml');
    expect(loadPlatformConfig(example, { environment: {} }).bots[0]?.messagingEndpoint).toBe(
      'http://127.0.0.1:3978/api/messages',
    );
    expect(
      loadPlatformConfig(example, { environment: { INSPECTION_BOT_PORT: '4100' } }).bots[0]
        ?.messagingEndpoint,
    ).toBe('http://127.0.0.1:4100/api/messages');
  });

  it('resolves secrets from environment variables and files (relative to the configuration file)', () => {
    const directory = mkdtempSync(join(tmpdir(), 'platform-config-'));
    writeFileSync(join(directory, 'second.secret'), 'secret-from-a-file-0002\n');
    writeFileSync(
      join(directory, 'platform.yaml'),
      [
        'bots:',
        '  - id: b1',
        '    appId: app-1',
        '    messagingEndpoint: http://localhost:3978/api/messages',
        '    directLine:',
        '      secrets: [{ env: FIRST_SECRET }, { file: second.secret }]',
        '      tokenLifetimeSeconds: 600',
        'relay:',
        '  tokenSigningKeys: [{ env: SIGNING_KEY }]',
      ].join('\n'),
    );
    const config = loadPlatformConfig(join(directory, 'platform.yaml'), {
      environment: { FIRST_SECRET: 'secret-from-env-0001', SIGNING_KEY: 'k'.repeat(32) },
    });
    expect(config.bots[0]?.directLine?.secrets).toEqual(['secret-from-env-0001', 'secret-from-a-file-0002']);
    expect(config.bots[0]?.name).toBe('b1');
    expect(config.relay.tokenSigningKeys).toEqual(['k'.repeat(32)]);
    expect(findBotByDirectLineSecret(config, 'secret-from-a-file-0002')?.id).toBe('b1');
    expect(findBotByDirectLineSecret(config, 'nope')).toBeUndefined();
  });

  it('names every offending key', () => {
    const problems = problemsOf(() =>
      parsePlatformConfig(
        [
          'bots:',
          '  - id: "bad id!"',
          '    appId: a',
          '    messagingEndpoint: not-a-url',
          '    directLine:',
          '      secrets: [{ env: MISSING }, 42]',
          '      enhancedAuthentication: yes please',
          '      tokenLifetimeSeconds: 5',
        ].join('\n'),
        'test',
        context,
      ),
    );
    const text = problems.join('\n');
    expect(text).toContain('bots.0.id');
    expect(text).toContain('bots.0.messagingEndpoint');
    expect(text).toContain('bots.0.directLine.secrets');
    expect(text).toContain('bots.0.directLine.enhancedAuthentication');
    expect(text).toContain('bots.0.directLine.tokenLifetimeSeconds');
  });

  it('reports unresolvable references, short or shared secrets, duplicate ids and missing trusted origins', () => {
    const problems = problemsOf(() =>
      parsePlatformConfig(
        [
          'bots:',
          '  - id: b1',
          '    appId: a',
          '    messagingEndpoint: http://localhost/api/messages',
          '    directLine:',
          '      secrets: [{ env: MISSING }, { file: missing.secret }]',
          '      enhancedAuthentication: true',
          '  - id: b1',
          '    appId: b',
          '    messagingEndpoint: http://localhost/api/messages',
          '    directLine: { secrets: [short] }',
          '  - id: b3',
          '    appId: c',
          '    messagingEndpoint: http://localhost/api/messages',
          '    directLine: { secrets: [same-secret-for-two-bots, same-secret-for-two-bots] }',
        ].join('\n'),
        'test',
        context,
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'bots.0.directLine.secrets.0: environment variable MISSING is not set',
        expect.stringMatching(/^bots\.0\.directLine\.secrets\.1: file .*missing\.secret cannot be read/),
        'bots.0.directLine.trustedOrigins: enhanced authentication needs at least one origin',
        'bots.1.id: duplicate bot id "b1"',
        'bots.1.directLine.secrets.0: must be at least 16 characters',
        'bots.2.directLine.secrets.1: the same secret is already used by bots.2.directLine.secrets.0',
      ]),
    );
  });

  it('reports shape problems and resolution problems of other keys in one pass', () => {
    const problems = problemsOf(() =>
      parsePlatformConfig(
        [
          'bots:',
          '  - id: b1',
          '    appId: a',
          '    messagingEndpoint: not-a-url',
          '    directLine: { secrets: [{ env: MISSING }] }',
          'relay:',
          '  tokenSigningKeys: [too-short]',
        ].join('\n'),
        'test',
        context,
      ),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^bots\.0\.messagingEndpoint: /),
      'bots.0.directLine.secrets.0: environment variable MISSING is not set',
      'relay.tokenSigningKeys.0: must be at least 32 characters',
    ]);
  });

  it('interpolates ${NAME} and ${NAME:-default} in string values from the environment', () => {
    const document = [
      'bots:',
      '  - id: b1',
      '    appId: a',
      '    name: "costs $${PRICE}"',
      '    messagingEndpoint: http://127.0.0.1:${BOT_PORT:-3978}/api/messages',
      '    directLine:',
      '      secrets: [directline-secret-0001]',
      '      enhancedAuthentication: true',
      '      trustedOrigins: ["http://localhost:${BOT_PORT:-3978}"]',
    ].join('\n');
    const byDefault = parsePlatformConfig(document, 'test', context);
    expect(byDefault.bots[0]?.messagingEndpoint).toBe('http://127.0.0.1:3978/api/messages');
    expect(byDefault.bots[0]?.directLine?.trustedOrigins).toEqual(['http://localhost:3978']);
    expect(byDefault.bots[0]?.name).toBe('costs ${PRICE}');
    const moved = parsePlatformConfig(document, 'test', { ...context, environment: { BOT_PORT: '4100' } });
    expect(moved.bots[0]?.messagingEndpoint).toBe('http://127.0.0.1:4100/api/messages');
    expect(moved.bots[0]?.directLine?.trustedOrigins).toEqual(['http://localhost:4100']);
    expect(
      problemsOf(() =>
        parsePlatformConfig(
          document.replace('${BOT_PORT:-3978}/api', '${BOT_HOST_PORT}/api'),
          'test',
          context,
        ),
      ),
    ).toEqual([expect.stringMatching(/^bots\.0\.messagingEndpoint: variable BOT_HOST_PORT is not set/)]);
  });

  it('lets an anonymous bot leave out its app id, and no other bot', () => {
    const config = parsePlatformConfig(
      [
        'bots:',
        '  - id: open-bot',
        '    anonymous: true',
        '    messagingEndpoint: http://localhost/api/messages',
      ].join('\n'),
      'test',
      context,
    );
    expect(config.bots[0]).toMatchObject({ id: 'open-bot', appId: '', anonymous: true });
    expect(
      problemsOf(() =>
        parsePlatformConfig(
          ['bots:', '  - id: closed-bot', '    messagingEndpoint: http://localhost/api/messages'].join('\n'),
          'test',
          context,
        ),
      ),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/^bots\.0\.appId: /)]));
  });

  it('reads the connector credentials, resolving secret references (backward compatible: all optional)', () => {
    const directory = mkdtempSync(join(tmpdir(), 'platform-config-'));
    writeFileSync(
      join(directory, 'bot.crt.pem'),
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
    );
    writeFileSync(
      join(directory, 'platform.yaml'),
      [
        'bots:',
        '  - id: b1',
        '    appId: app-1',
        '    messagingEndpoint: http://localhost:3978/api/messages',
        '    appPassword: { env: APP_PASSWORD }',
        '    appPasswordHash: $argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
        '    certificates: [{ pem: { file: bot.crt.pem }, thumbprint: ab }]',
        '    managedIdentity: true',
        '    anonymous: false',
        '  - id: b2',
        '    appId: app-2',
        '    messagingEndpoint: http://localhost:3979/api/messages',
      ].join('\n'),
    );
    const config = loadPlatformConfig(join(directory, 'platform.yaml'), {
      environment: { APP_PASSWORD: 'password-from-env' },
    });
    expect(config.bots[0]).toMatchObject({
      appPassword: 'password-from-env',
      appPasswordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA',
      certificates: [
        { pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', thumbprint: 'ab' },
      ],
      managedIdentity: true,
      anonymous: false,
    });
    expect(Object.keys(config.bots[1] ?? {}).sort()).toEqual([
      'appId',
      'directLine',
      'id',
      'messagingEndpoint',
      'name',
    ]);
    const problems = problemsOf(() =>
      parsePlatformConfig(
        [
          'bots:',
          '  - id: b1',
          '    appId: a',
          '    messagingEndpoint: http://localhost/api/messages',
          '    appPassword: { env: MISSING_PASSWORD }',
          '    managedIdentity: maybe',
          '    certificates: [{ thumbprint: ab }]',
        ].join('\n'),
        'test',
        context,
      ),
    );
    const text = problems.join('\n');
    expect(text).toContain('bots.0.managedIdentity');
    expect(text).toContain('bots.0.certificates.0.pem');
  });

  it("reads a bot's SDK, channel-token issuer and own identity header; refuses bad, short and shared ones", () => {
    const config = parsePlatformConfig(
      [
        'bots:',
        '  - id: agent',
        '    appId: agent-app',
        '    messagingEndpoint: http://localhost:3978/api/messages',
        '    sdk: agents',
        '    identityHeader: { env: AGENT_IDENTITY_HEADER }',
        '  - id: classic',
        '    appId: classic-app',
        '    messagingEndpoint: http://localhost:3979/api/messages',
        '    sdk: botbuilder',
        '    channelTokenIssuer: urn:fieldops:channel',
      ].join('\n'),
      'test',
      { ...context, environment: { AGENT_IDENTITY_HEADER: 'agent-identity-header-01' } },
    );
    expect(config.bots[0]).toMatchObject({ sdk: 'agents', identityHeader: 'agent-identity-header-01' });
    expect(config.bots[1]).toMatchObject({ sdk: 'botbuilder', channelTokenIssuer: 'urn:fieldops:channel' });
    const problems = problemsOf(() =>
      parsePlatformConfig(
        [
          'bots:',
          '  - id: b1',
          '    appId: a',
          '    messagingEndpoint: http://localhost/api/messages',
          '    sdk: bot-framework',
          '    channelTokenIssuer: has spaces in it',
          '  - id: b2',
          '    appId: b',
          '    messagingEndpoint: http://localhost/api/messages',
          '    identityHeader: too-short',
          '  - id: b3',
          '    appId: c',
          '    messagingEndpoint: http://localhost/api/messages',
          '    identityHeader: shared-identity-header-0',
          '  - id: b4',
          '    appId: d',
          '    messagingEndpoint: http://localhost/api/messages',
          '    identityHeader: shared-identity-header-0',
        ].join('\n'),
        'test',
        context,
      ),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^bots\.0\.sdk: /),
      expect.stringMatching(/^bots\.0\.channelTokenIssuer: /),
      expect.stringMatching(/^bots\.1\.identityHeader: must be at least 16 characters/),
      expect.stringMatching(
        /^bots\.3\.identityHeader: the same secret is already used by bots\.2\.identityHeader/,
      ),
    ]);
  });

  it("reads a bot's OAuth connections (secret resolved, default scopes and name); refuses bad and duplicate ones", () => {
    const config = parsePlatformConfig(
      [
        'bots:',
        '  - id: signer',
        '    appId: signer-app',
        '    messagingEndpoint: http://localhost:3978/api/messages',
        '    oauthConnections:',
        '      - name: company',
        '        issuer: https://id.example.com/realms/fieldops',
        '        clientId: fieldops-bot',
        '        clientSecret: { env: COMPANY_OIDC_SECRET }',
        '      - name: public-client',
        '        issuer: http://idp.local:8080',
        '        clientId: pkce-only',
        '        scopes: [openid, email]',
        '        displayName: Company login',
      ].join('\n'),
      'test',
      { ...context, environment: { COMPANY_OIDC_SECRET: 'company-oidc-secret-1' } },
    );
    expect(config.bots[0]?.oauthConnections).toEqual([
      {
        name: 'company',
        issuer: 'https://id.example.com/realms/fieldops',
        clientId: 'fieldops-bot',
        clientSecret: 'company-oidc-secret-1',
        scopes: ['openid', 'profile', 'offline_access'],
        displayName: 'company',
      },
      {
        name: 'public-client',
        issuer: 'http://idp.local:8080',
        clientId: 'pkce-only',
        scopes: ['openid', 'email'],
        displayName: 'Company login',
      },
    ]);
    const problems = problemsOf(() =>
      parsePlatformConfig(
        [
          'bots:',
          '  - id: b1',
          '    appId: a',
          '    messagingEndpoint: http://localhost/api/messages',
          '    oauthConnections:',
          '      - { name: one, issuer: not-a-url, clientId: c }',
          '      - { name: two, issuer: https://idp.example.com, clientId: c, clientSecret: { env: UNSET_OIDC } }',
          '      - { name: two, issuer: https://idp.example.com, clientId: c }',
        ].join('\n'),
        'test',
        context,
      ),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^bots\.0\.oauthConnections\.0\.issuer: /),
      expect.stringMatching(/^bots\.0\.oauthConnections\.1\.clientSecret: environment variable UNSET_OIDC/),
      expect.stringMatching(/^bots\.0\.oauthConnections\.2\.name: duplicate connection name "two"/),
    ]);
  });

  it('refuses documents that are not YAML mappings and files that cannot be read', () => {
    expect(problemsOf(() => parsePlatformConfig('bots: [unclosed', 'test', context))[0]).toMatch(
      /not valid YAML/,
    );
    expect(problemsOf(() => parsePlatformConfig('- a list', 'test', context))[0]).toMatch(/mapping/);
    expect(
      problemsOf(() => loadPlatformConfig('/nonexistent/platform.yaml', { environment: {} }))[0],
    ).toMatch(/^PLATFORM_CONFIG: cannot read/);
  });
});
