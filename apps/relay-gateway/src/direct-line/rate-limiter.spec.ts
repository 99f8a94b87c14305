import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows the limit per key and minute, then says how long to wait', () => {
    let now = 0;
    const limiter = new RateLimiter(2, () => now);
    expect(limiter.take('a')).toBeUndefined();
    expect(limiter.take('a')).toBeUndefined();
    expect(limiter.take('b')).toBeUndefined();
    now = 45_000;
    expect(limiter.take('a')).toBe(15);
    now = 60_000;
    expect(limiter.take('a')).toBeUndefined();
  });

  it('never limits when the limit is 0', () => {
    const limiter = new RateLimiter(0);
    for (let index = 0; index < 1000; index += 1) expect(limiter.take('a')).toBeUndefined();
  });
});
