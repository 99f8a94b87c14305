/** Characters per hour per resource (fixed one-hour windows, per gateway instance); beyond: 429000. */
export class CharacterQuota {
  private readonly windows = new Map<string, { startedAt: number; used: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts `characters` against the resource's limit; returns the seconds to wait when the limit is exceeded. */
  take(resource: string, limit: number | undefined, characters: number): { retryAfterSeconds?: number } {
    if (limit === undefined) return {};
    const now = this.now();
    let window = this.windows.get(resource);
    if (!window || now - window.startedAt >= 3_600_000) {
      window = { startedAt: now, used: 0 };
      this.windows.set(resource, window);
    }
    if (window.used + characters > limit)
      return { retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + 3_600_000 - now) / 1000)) };
    window.used += characters;
    return {};
  }
}
