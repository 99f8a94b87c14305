/**
 * The retry rule of webhook deliveries: pg-boss waits about `delay × 2^n` (up to twice that, jitter) before retry
 * n + 1, so `k` retries wait at least `delay × (2^k − 1)` in all. The limit is the smallest `k` that covers the
 * window: with a 60-s first delay and 24 h, 11 retries (at least 34 h).
 */
export function retryLimitFor(delaySeconds: number, windowSeconds: number): number {
  let retries = 0;
  while (delaySeconds * (2 ** retries - 1) < windowSeconds) retries += 1;
  return retries;
}
