import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type RateLimit, RateLimitStore } from '@fieldops/rate-limits';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { throttled } from '../drf/exceptions';

/** The PostgreSQL table of the counters (created by migration 1732600000000). */
export const RATE_LIMIT_TABLE = 'rate_limits';

/** The store of the throttle's counters: Redis when REDIS_URL is set, otherwise PostgreSQL; shared by every replica. */
export function loginThrottleStore(
  environment: InspectionApiEnvironment,
  dataSource: DataSource,
): RateLimitStore {
  return new RateLimitStore(
    environment.REDIS_URL
      ? { kind: 'redis', redisUrl: environment.REDIS_URL }
      : { kind: 'postgres', dataSource, tableName: RATE_LIMIT_TABLE },
    environment.INSPECTION_RATE_LIMIT_KEY_PREFIX,
  );
}

/**
 * Throttles `POST /api/token/` per user name and per client address (`request.ip`: the peer, or the trusted
 * proxy's X-Forwarded-For). Every attempt with well-formed credentials counts one point up front, atomically, so
 * parallel guesses cannot slip past the limit; a successful login gives its point back and clears the user name's
 * count. Over the limit: DRF's 429 `Request was throttled. Expected available in N seconds.` with `Retry-After`,
 * before the password is checked.
 */
@Injectable()
export class LoginThrottle implements OnApplicationShutdown {
  private readonly byUsername: RateLimit;
  private readonly byAddress: RateLimit;

  constructor(
    @Inject(RateLimitStore) private readonly store: RateLimitStore,
    environment: InspectionApiEnvironment,
  ) {
    const windowSeconds = environment.INSPECTION_LOGIN_THROTTLE_WINDOW_SECONDS;
    this.byUsername = store.limit({
      name: 'login-username',
      points: environment.INSPECTION_LOGIN_FAILURES_PER_USERNAME,
      windowSeconds,
    });
    this.byAddress = store.limit({
      name: 'login-address',
      points: environment.INSPECTION_LOGIN_FAILURES_PER_ADDRESS,
      windowSeconds,
    });
  }

  /** Before the body is read: 429 when the address already used up its attempts (DRF throttles before parsing). */
  async assertAddressAllowed(address: string): Promise<void> {
    const state = await this.byAddress.check(address);
    if (!state.allowed) throw throttled(state.retryAfterSeconds);
  }

  /** Counts an attempt for both keys; 429 when either is over its limit. */
  async attempt(username: string, address: string): Promise<void> {
    const [user, peer] = await Promise.all([
      this.byUsername.consume(username),
      this.byAddress.consume(address),
    ]);
    if (!user.allowed || !peer.allowed)
      throw throttled(Math.max(user.retryAfterSeconds, peer.retryAfterSeconds));
  }

  /** A successful login: the user name starts afresh, and the attempt does not count against the address. */
  async succeeded(username: string, address: string): Promise<void> {
    await Promise.all([this.byUsername.reset(username), this.byAddress.refund(address)]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
