import { CharacterQuota } from './character-quota';

describe('CharacterQuota', () => {
  it('allows up to the limit per hour and per resource, then says how long to wait', () => {
    let now = 1_000_000;
    const quota = new CharacterQuota(() => now);
    expect(quota.take('a', 10, 6)).toEqual({});
    expect(quota.take('a', 10, 4)).toEqual({});
    expect(quota.take('b', 10, 10)).toEqual({});
    now += 1_800_000;
    expect(quota.take('a', 10, 1)).toEqual({ retryAfterSeconds: 1800 });
    expect(quota.take('a', undefined, 1_000)).toEqual({});
    now += 1_800_000;
    expect(quota.take('a', 10, 10)).toEqual({});
  });
});
