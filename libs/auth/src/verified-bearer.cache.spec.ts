import { KeyRing } from './key-ring';
import { signJwt } from './jwt-tokens';
import { VerifiedBearerCache } from './verified-bearer.cache';

const ring = new KeyRing([
  { kid: 'k1', algorithm: 'HS256', secret: 'cache-test-secret-long-enough-0123456789' },
]);

describe('VerifiedBearerCache', () => {
  it('answers the principal of a header for the TTL', () => {
    let now = Date.now();
    const cache = new VerifiedBearerCache(5_000, () => now);
    const header = `Bearer ${signJwt(ring, { sub: 'alice' }, { expiresInSeconds: 60 })}`;
    expect(cache.principalOf(header)).toBeUndefined();
    cache.remember(header, { userId: 1 });
    expect(cache.principalOf(header)).toEqual({ userId: 1 });
    expect(cache.principalOf(`${header}x`)).toBeUndefined();
    now += 5_000;
    expect(cache.principalOf(header)).toBeUndefined();
  });

  it('never trusts a header past its token’s exp', () => {
    let now = Date.now();
    const cache = new VerifiedBearerCache(5_000, () => now);
    const header = `Bearer ${signJwt(ring, { sub: 'bob' }, { expiresInSeconds: 2 })}`;
    cache.remember(header, { sub: 'bob' });
    now += 1_000;
    expect(cache.principalOf(header)).toEqual({ sub: 'bob' });
    now += 2_000;
    expect(cache.principalOf(header)).toBeUndefined();
  });
});
