import { decode } from 'jsonwebtoken';

/** How long a verified Authorization header is trusted without verifying it again. */
export const VERIFIED_BEARER_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/** Every cache of this process (weakly held), for {@link forgetVerifiedBearers}. */
const liveCaches = new Set<WeakRef<VerifiedBearerCache>>();

/**
 * Forgets, in every cache of this process, the headers whose principal matches (an account's tokens were revoked,
 * its role or state changed): their next request is verified again.
 */
export function forgetVerifiedBearers(matches: (principal: unknown) => boolean): void {
  for (const reference of liveCaches) {
    const cache = reference.deref();
    if (cache) cache.forget(matches);
    else liveCaches.delete(reference);
  }
}

/**
 * Authorization headers whose token passed verification, with the principal they gave, for a few seconds (never past
 * the token's own `exp`): a client sending many requests with one token pays the signature check and the principal
 * lookup once per few seconds instead of once per request. Apps whose principal lookup caches longer than this
 * (inspection-api's user state: 10 s) see no change in what is accepted.
 */
export class VerifiedBearerCache {
  private readonly entries = new Map<string, { principal: unknown; until: number }>();

  constructor(
    private readonly ttlMs = VERIFIED_BEARER_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    liveCaches.add(new WeakRef(this));
  }

  /** Forgets the headers whose principal matches. */
  forget(matches: (principal: unknown) => boolean): void {
    for (const [header, entry] of this.entries) if (matches(entry.principal)) this.entries.delete(header);
  }

  /** The principal of a header verified recently, if any. */
  principalOf(header: string): unknown {
    const entry = this.entries.get(header);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.principal;
    this.entries.delete(header);
    return undefined;
  }

  /** Remembers a header that just passed verification (`Bearer <jwt>`). */
  remember(header: string, principal: unknown): void {
    const token = header.slice(header.indexOf(' ') + 1);
    const claims = decode(token, { json: true });
    const expiresAt = typeof claims?.exp === 'number' ? claims.exp * 1000 : undefined;
    const until = Math.min(this.now() + this.ttlMs, expiresAt ?? Number.POSITIVE_INFINITY);
    if (until <= this.now()) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(header, { principal, until });
  }
}
