/** Fixed one-minute windows per key, in this instance's memory (a per-instance limit). */
export class RateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();
  private lastSweep = 0;

  constructor(
    private readonly limitPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request; returns undefined when allowed, otherwise the seconds until the window resets. */
  take(key: string): number | undefined {
    if (this.limitPerMinute <= 0) return undefined;
    const now = this.now();
    if (now - this.lastSweep > 60_000) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= 60_000) {
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.limitPerMinute) return undefined;
    return Math.max(1, Math.ceil((window.startedAt + 60_000 - now) / 1000));
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (now - window.startedAt >= 60_000) this.windows.delete(key);
  }
}
