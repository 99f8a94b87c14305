import { generateKeyPairSync } from 'node:crypto';
import { KeyRing } from './key-ring';

function rsaPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
}

describe('KeyRing', () => {
  it('signs with the newest active key and publishes only public halves of asymmetric keys', () => {
    const ring = new KeyRing([
      { kid: 'hmac', algorithm: 'HS256', secret: 'a-long-enough-test-secret-value!' },
      { kid: 'rsa-1', algorithm: 'RS256', secret: rsaPem(), activatesAt: new Date(1000) },
    ]);
    expect(ring.signingKey().kid).toBe('rsa-1');
    const jwks = ring.publicJwks();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kid: 'rsa-1', kty: 'RSA', use: 'sig', alg: 'RS256' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('rotates with overlap: the new key is published before it signs, the old one verifies for the retention', () => {
    let now = 10_000;
    const ring = new KeyRing([{ kid: 'k1', algorithm: 'RS256', secret: rsaPem() }], () => now);
    ring.rotate(
      { kid: 'k2', algorithm: 'RS256', secret: rsaPem() },
      { publishAheadMs: 1000, retainOldForMs: 5000 },
    );

    expect(ring.signingKey().kid).toBe('k1');
    expect(
      ring
        .publicJwks()
        .keys.map((key) => key.kid)
        .sort(),
    ).toEqual(['k1', 'k2']);

    now += 1000;
    expect(ring.signingKey().kid).toBe('k2');
    expect(ring.verificationKey('k1')).toBeDefined();

    now += 5000;
    expect(ring.verificationKey('k1')).toBeUndefined();
    expect(ring.publicJwks().keys.map((key) => key.kid)).toEqual(['k2']);
  });

  it('refuses duplicate key ids, empty rings and mismatched key material', () => {
    expect(() => new KeyRing([])).toThrow(/at least one key/);
    expect(
      () =>
        new KeyRing([
          { kid: 'a', algorithm: 'HS256', secret: 'x' },
          { kid: 'a', algorithm: 'HS256', secret: 'y' },
        ]),
    ).toThrow(/duplicate key id a/);
    expect(
      () => new KeyRing([{ kid: 'a', algorithm: 'RS256', secret: Buffer.from('x').toString() }]),
    ).toThrow();
  });
});
