import jwt from 'jsonwebtoken';
import { signJwt, TokenVerificationError, verifyJwt } from './jwt-tokens';
import { KeyRing } from './key-ring';

const SECRET = 'test-secret-that-is-long-enough-for-hs256';

function reasonOf(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    return error instanceof TokenVerificationError ? error.reason : `unexpected ${String(error)}`;
  }
}

describe('signJwt / verifyJwt', () => {
  const ring = new KeyRing([{ kid: 'k1', algorithm: 'HS256', secret: SECRET }]);

  it('round-trips claims with kid, issuer and audience', () => {
    const token = signJwt(ring, { user_id: 7 }, { expiresInSeconds: 60, issuer: 'iss', audience: 'aud' });
    expect(jwt.decode(token, { complete: true })?.header).toMatchObject({
      kid: 'k1',
      alg: 'HS256',
      typ: 'JWT',
    });
    expect(verifyJwt(ring, token, { issuer: 'iss', audience: 'aud' })).toMatchObject({
      user_id: 7,
      iss: 'iss',
      aud: 'aud',
    });
  });

  it('says why a token is refused', () => {
    const expired = signJwt(ring, {}, { expiresInSeconds: -10 });
    const otherRing = new KeyRing([{ kid: 'k9', algorithm: 'HS256', secret: SECRET }]);
    const forged = jwt.sign({}, 'another-secret', { algorithm: 'HS256', keyid: 'k1' });
    const unsigned = jwt.sign({}, '', { algorithm: 'none' as never, keyid: 'k1' });
    expect(reasonOf(() => verifyJwt(ring, ''))).toBe('missing');
    expect(reasonOf(() => verifyJwt(ring, 'not-a-jwt'))).toBe('malformed');
    expect(reasonOf(() => verifyJwt(ring, expired))).toBe('expired');
    expect(reasonOf(() => verifyJwt(otherRing, signJwt(ring, {}, { expiresInSeconds: 60 })))).toBe(
      'unknown-key',
    );
    expect(reasonOf(() => verifyJwt(ring, forged))).toBe('invalid');
    expect(reasonOf(() => verifyJwt(ring, unsigned))).toBe('invalid');
    expect(
      reasonOf(() =>
        verifyJwt(ring, signJwt(ring, {}, { expiresInSeconds: 60, audience: 'a' }), { audience: 'b' }),
      ),
    ).toBe('invalid');
  });
});
