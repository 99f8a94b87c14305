import { retryLimitFor } from './webhook-retries';

describe('retryLimitFor', () => {
  it('covers the window with the least retries', () => {
    expect(retryLimitFor(60, 86_400)).toBe(11); // 60 × 2047 s ≥ 24 h > 60 × 1023 s
    expect(retryLimitFor(1, 7)).toBe(3); // 1 + 2 + 4
    expect(retryLimitFor(1, 8)).toBe(4);
    expect(retryLimitFor(3600, 1)).toBe(1);
  });

  it('waits at least the window in all', () => {
    for (const [delay, window] of [
      [60, 86_400],
      [10, 86_400],
      [1, 30],
    ] as const) {
      const limit = retryLimitFor(delay, window);
      expect(delay * (2 ** limit - 1)).toBeGreaterThanOrEqual(window);
      expect(delay * (2 ** (limit - 1) - 1)).toBeLessThan(window);
    }
  });
});
