import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { ConfigurationError } from '@fieldops/platform';
import { InMemoryBotRegistry } from './bot-registry';
import { type RegisteredBot } from './registered-bot';

const certificatePem = readFileSync(join(__dirname, 'fixtures', 'test-certificate.pem'), 'utf8');
const publicPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ format: 'pem', type: 'spki' })
  .toString();
const base = { displayName: 'Bot', messagingEndpoint: 'http://localhost:3978/api/messages' };

function problemsOf(bots: RegisteredBot[]): string[] {
  try {
    new InMemoryBotRegistry(bots);
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
  return [];
}

describe('InMemoryBotRegistry', () => {
  it('finds bots by exact app id and verifies plain and argon2 passwords', async () => {
    const registry = new InMemoryBotRegistry([
      { ...base, appId: 'plain', appPassword: 'plain-password' },
      { ...base, appId: 'hashed', appPasswordHash: await hash('hashed-password') },
      { ...base, appId: 'msi', managedIdentity: true },
    ]);
    const plain = registry.find('plain');
    const hashed = registry.find('hashed');
    const msi = registry.find('msi');
    expect(registry.find('PLAIN')).toBeUndefined();
    expect(registry.all().map((bot) => bot.appId)).toEqual(['plain', 'hashed', 'msi']);
    if (!plain || !hashed || !msi) throw new Error('missing');
    await expect(registry.verifyAppPassword(plain, 'plain-password')).resolves.toBe(true);
    await expect(registry.verifyAppPassword(plain, 'plain-passwor')).resolves.toBe(false);
    await expect(registry.verifyAppPassword(hashed, 'hashed-password')).resolves.toBe(true);
    await expect(registry.verifyAppPassword(hashed, 'wrong')).resolves.toBe(false);
    await expect(registry.verifyAppPassword(msi, '')).resolves.toBe(false);
  });

  it('computes x5t and x5t#S256 of a certificate and matches hex or base64url thumbprints of bare keys', () => {
    const hexThumbprint = 'A1'.repeat(20);
    const registry = new InMemoryBotRegistry([
      {
        ...base,
        appId: 'cert',
        certificates: [{ pem: certificatePem }, { pem: publicPem, thumbprint: hexThumbprint }],
      },
    ]);
    const bot = registry.find('cert');
    if (!bot) throw new Error('missing');
    const [certificate, bare] = bot.certificates;
    expect(certificate?.x5t).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect(registry.findCertificate(bot, { x5t: certificate?.x5t })).toBe(certificate);
    expect(registry.findCertificate(bot, { x5tS256: certificate?.x5tS256 })).toBe(certificate);
    expect(
      registry.findCertificate(bot, { x5t: Buffer.from(hexThumbprint, 'hex').toString('base64url') }),
    ).toBe(bare);
    expect(registry.findCertificate(bot, { x5t: 'A'.repeat(27) })).toBeUndefined();
  });

  it('registers an anonymous bot without an app id under its platform id only', () => {
    const registry = new InMemoryBotRegistry([
      {
        id: 'open-bot',
        displayName: 'Open',
        messagingEndpoint: 'http://localhost/api/messages',
        anonymous: true,
      },
      { ...base, appId: 'plain', appPassword: 'plain-password' },
    ]);
    expect(registry.findById('open-bot')).toMatchObject({ appId: '', anonymous: true });
    expect(registry.find('')).toBeUndefined();
    expect(registry.all().map((bot) => bot.id)).toEqual(['open-bot', 'plain']);
    expect(
      problemsOf([
        { displayName: 'Open', messagingEndpoint: 'http://localhost/api/messages', anonymous: true },
      ]),
    ).toEqual([expect.stringMatching(/^bots\[0\]\.id: an anonymous bot without an appId needs an id/)]);
  });

  it('finds a bot by its own identity header, and keeps its SDK and channel-token issuer', () => {
    const registry = new InMemoryBotRegistry([
      { ...base, appId: 'agent', identityHeader: 'agent-identity-header-1', sdk: 'agents' },
      { ...base, appId: 'classic', appPassword: 'long-enough', channelTokenIssuer: 'urn:classic' },
    ]);
    expect(registry.findByIdentityHeader('agent-identity-header-1')?.appId).toBe('agent');
    expect(registry.findByIdentityHeader('agent-identity-header-2')).toBeUndefined();
    expect(registry.find('agent')).toMatchObject({ sdk: 'agents', managedIdentity: false });
    expect(registry.find('classic')).toMatchObject({ sdk: 'botbuilder', channelTokenIssuer: 'urn:classic' });
    expect(
      problemsOf([
        { ...base, appId: 'a', identityHeader: 'short' },
        { ...base, appId: 'b', identityHeader: 'shared-identity-header' },
        { ...base, appId: 'c', identityHeader: 'shared-identity-header' },
        { ...base, appId: 'd', appPassword: 'long-enough', sdk: 'other' as 'agents' },
        { ...base, appId: 'e', appPassword: 'long-enough', channelTokenIssuer: ' ' },
        { ...base, appId: 'f', anonymous: true, identityHeader: 'anonymous-identity-header' },
      ]),
    ).toEqual([
      expect.stringMatching(/^bots\[0\]\.identityHeader: must be a string of at least 16/),
      expect.stringMatching(/^bots\[2\]\.identityHeader: the same secret/),
      expect.stringMatching(/^bots\[3\]\.sdk: must be one of botbuilder, agents/),
      expect.stringMatching(/^bots\[4\]\.channelTokenIssuer: /),
      expect.stringMatching(/^bots\[5\]\.anonymous: /),
    ]);
  });

  it('names every offending field', () => {
    const problems = problemsOf([
      { ...base, appId: '', appPassword: 'long-enough' },
      { ...base, appId: 'dup', appPassword: 'long-enough' },
      { ...base, appId: 'dup', appPassword: 'long-enough' },
      { ...base, appId: 'endpoint', messagingEndpoint: 'ftp://x/', appPassword: 'long-enough' },
      { ...base, appId: 'both', appPassword: 'long-enough', appPasswordHash: '$argon2id$x' },
      { ...base, appId: 'hash', appPasswordHash: 'plaintext' },
      { ...base, appId: 'none' },
      { ...base, appId: 'anon', anonymous: true, appPassword: 'long-enough' },
      { ...base, appId: 'bare', certificates: [{ pem: publicPem }] },
      { ...base, appId: 'garbage', certificates: [{ pem: 'not a pem' }] },
      { ...base, appId: 'mismatch', certificates: [{ pem: certificatePem, thumbprint: 'B2'.repeat(20) }] },
      { ...base, appId: 'name', displayName: ' ', managedIdentity: true },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^bots\[0\]\.appId: /),
      expect.stringMatching(/^bots\[2\]\.appId: dup is registered twice/),
      expect.stringMatching(/^bots\[3\]\.messagingEndpoint: /),
      expect.stringMatching(/^bots\[4\]: give at most one/),
      expect.stringMatching(/^bots\[5\]\.appPasswordHash: /),
      expect.stringMatching(/^bots\[6\]: needs appPassword/),
      expect.stringMatching(/^bots\[7\]\.anonymous: /),
      expect.stringMatching(/^bots\[8\]\.certificates\[0\]\.thumbprint: required/),
      expect.stringMatching(/^bots\[9\]\.certificates\[0\]\.pem: /),
      expect.stringMatching(/^bots\[10\]\.certificates\[0\]\.thumbprint: does not match/),
      expect.stringMatching(/^bots\[11\]\.displayName: /),
    ]);
  });
});
