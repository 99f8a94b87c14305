import { KeyRing } from './key-ring';
import { signJwt } from './jwt-tokens';
import { forgetVerifiedBearers, VerifiedBearerCache } from './verified-bearer.cache';

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

  it('forgets, in every cache of the process, the headers of a principal whose tokens were revoked', () => {
    const first = new VerifiedBearerCache();
    const second = new VerifiedBearerCache();
    const alice = `Bearer ${signJwt(ring, { sub: 'alice' }, { expiresInSeconds: 60 })}`;
    const bob = `Bearer ${signJwt(ring, { sub: 'bob' }, { expiresInSeconds: 60 })}`;
    first.remember(alice, { userId: 1 });
    second.remember(alice, { userId: 1 });
    first.remember(bob, { userId: 2 });
    forgetVerifiedBearers((principal) => (principal as { userId: number }).userId === 1);
    expect(first.principalOf(alice)).toBeUndefined();
    expect(second.principalOf(alice)).toBeUndefined();
    expect(first.principalOf(bob)).toEqual({ userId: 2 });
  });
});
