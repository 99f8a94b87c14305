import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@fieldops/platform';
import { KeyRing } from '@fieldops/auth';
import { keyIdOf, resolveSigningKeys } from '../config/signing-keys.setting';
import { loadOrCreateDevelopmentKey, rotationSchedule } from './connector-key-ring';

const pem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
const logger = createLogger({ service: 'test', level: 'silent' });

describe('signing keys', () => {
  it('resolves PEM text and files, deriving a stable kid when none is given', () => {
    const directory = mkdtempSync(join(tmpdir(), 'keys-'));
    const file = join(directory, 'k2.pem');
    writeFileSync(file, pem());
    const result = resolveSigningKeys(
      JSON.stringify([{ pem: pem() }, { kid: 'k2', file, activatesAt: '2030-01-01T00:00:00Z' }]),
    );
    if (!('keys' in result)) throw new Error(result.problems.join());
    expect(result.keys[0]?.kid).toBe(keyIdOf(result.keys[0].privateKey));
    expect(result.keys[1]).toMatchObject({ kid: 'k2', activatesAt: new Date('2030-01-01T00:00:00Z') });
  });

  it('names each bad entry', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    expect(resolveSigningKeys('nope')).toEqual({ problems: [expect.stringContaining('not valid JSON')] });
    expect(resolveSigningKeys('[]')).toEqual({ problems: [expect.stringContaining('non-empty')] });
    const result = resolveSigningKeys(
      JSON.stringify([
        { pem: ec },
        { file: '/does/not/exist' },
        { pem: pem(), file: 'x' },
        { pem: pem(), activatesAt: 'soon' },
        { pem: pem(), kid: 'a b' },
      ]),
    );
    expect(result).toEqual({
      problems: [
        expect.stringMatching(/^\[0\]\.pem: .*RSA/),
        expect.stringMatching(/^\[1\]\.file: cannot read/),
        expect.stringMatching(/^\[2\]: give exactly one/),
        expect.stringMatching(/^\[3\]\.activatesAt: /),
        expect.stringMatching(/^\[4\]\.kid: /),
      ],
    });
  });

  it('rotates on schedule: the next key is published before it signs, the old one verifies one lifetime more', () => {
    const t0 = Date.parse('2030-01-01T00:00:00Z');
    const result = resolveSigningKeys(
      JSON.stringify([
        { kid: 'new', pem: pem(), activatesAt: new Date(t0 + 86_400_000).toISOString() },
        { kid: 'old', pem: pem() },
      ]),
    );
    if (!('keys' in result)) throw new Error(result.problems.join());
    let now = t0;
    const ring = new KeyRing(rotationSchedule(result.keys, 3600), () => now);
    expect(ring.signingKey().kid).toBe('old');
    expect(ring.publicJwks().keys.map((key) => key.kid)).toEqual(['old', 'new']);
    now = t0 + 86_400_000;
    expect(ring.signingKey().kid).toBe('new');
    expect(ring.verificationKey('old')).toBeDefined();
    now = t0 + 86_400_000 + (3600 + 300) * 1000;
    expect(ring.verificationKey('old')).toBeUndefined();
    expect(ring.publicJwks().keys.map((key) => key.kid)).toEqual(['new']);
  });

  it('creates the development key once (0600) and reuses it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dev-key-')), 'nested', 'key.pem');
    const first = loadOrCreateDevelopmentKey(file, logger);
    const second = loadOrCreateDevelopmentKey(file, logger);
    expect(second.kid).toBe(first.kid);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('BEGIN PRIVATE KEY');
  });
});
