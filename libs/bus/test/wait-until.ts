import { setTimeout as delay } from 'node:timers/promises';

/** Polls `condition` until it holds; fails with `description` after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean,
  description: string,
  { timeoutMs = 5_000, intervalMs = 5 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting until ${description}`);
    await delay(intervalMs);
  }
}
