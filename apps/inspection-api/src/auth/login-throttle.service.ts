import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type RateLimit, RateLimitStore } from '@fieldops/rate-limits';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { throttled } from '../drf/exceptions';
import { loginDelaySeconds } from './login-delay';

/** The PostgreSQL table of the counters (created by migration 1732600000000). */
export const RATE_LIMIT_TABLE = 'rate_limits';

/** Counts of a user name's refused passwords are never a refusal by themselves: this many only slow it down. */
const UNLIMITED = 1_000_000_000;

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

/** The (user name, address) pair's key. */
const pairOf = (username: string, address: string): string => `${address}|${username}`;

/**
 * The login throttle of `POST /api/token/`. Only a refused password counts (a login that could not be checked, e.g.
 * with the database down, gives its points back):
 *
 * - per client address (`INSPECTION_LOGIN_FAILURES_PER_ADDRESS` per window, any user names): then 429 for that
 *   address; the address is the peer's, a trusted proxy's X-Forwarded-For, or the one a sign-in service names
 *   (`LoginClientAddress`);
 * - per (user name, client address) (`INSPECTION_LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS` per window): then 429 for
 *   that pair only, so nobody can lock a user out from addresses the user does not use;
 * - per user name from anywhere: after `INSPECTION_LOGIN_FAILURES_PER_USERNAME` refused passwords in the window, each
 *   further attempt for that name is answered after a delay that doubles with every further refusal, up to
 *   `INSPECTION_LOGIN_DELAY_MAX_SECONDS` ({@link loginDelaySeconds}); never a refusal, so the right password from
 *   an address that has not failed still signs in. The delay is a timer (`setTimeout`): no thread or event-loop
 *   turn is held, only the waiting request's socket, and a client gets at most its pair's allowance of them.
 *
 * Address and pair are counted up front, atomically, so parallel guesses cannot slip past the limits (an attempt over
 * a limit stays counted: it only adds to a count that is already over, in a fixed window). Over a limit: DRF's 429
 * `Request was throttled. Expected available in N seconds.` with `Retry-After`, before the password is checked.
 */
@Injectable()
export class LoginThrottle implements OnApplicationShutdown {
  private readonly byAddress: RateLimit;
  private readonly byPair: RateLimit;
  private readonly byUsername: RateLimit;
  private readonly delayAfter: number;
  private readonly maxDelaySeconds: number;

  constructor(
    @Inject(RateLimitStore) private readonly store: RateLimitStore,
    environment: InspectionApiEnvironment,
  ) {
    const windowSeconds = environment.INSPECTION_LOGIN_THROTTLE_WINDOW_SECONDS;
    this.byAddress = store.limit({
      name: 'login-address',
      points: environment.INSPECTION_LOGIN_FAILURES_PER_ADDRESS,
      windowSeconds,
    });
    this.byPair = store.limit({
      name: 'login-username-address',
      points: environment.INSPECTION_LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS,
      windowSeconds,
    });
    this.delayAfter = environment.INSPECTION_LOGIN_FAILURES_PER_USERNAME;
    this.maxDelaySeconds = environment.INSPECTION_LOGIN_DELAY_MAX_SECONDS;
    this.byUsername = store.limit({
      name: 'login-username-failures',
      points: this.delayAfter > 0 && this.maxDelaySeconds > 0 ? UNLIMITED : 0,
      windowSeconds,
    });
  }

  /** Before the body is read: 429 when the address already used up its attempts (DRF throttles before parsing). */
  async assertAddressAllowed(address: string): Promise<void> {
    const state = await this.byAddress.check(address);
    if (!state.allowed) throw throttled(state.retryAfterSeconds);
  }

  /**
   * Counts an attempt for the address and the pair (429 when either is over its limit), then waits the user name's
   * delay, if any.
   */
  async attempt(username: string, address: string): Promise<void> {
    // The address first: a pair is only counted for attempts the address may still make.
    const byAddress = await this.byAddress.consume(address);
    if (!byAddress.allowed) throw throttled(byAddress.retryAfterSeconds);
    const byPair = await this.byPair.consume(pairOf(username, address));
    if (!byPair.allowed) throw throttled(byPair.retryAfterSeconds);
    if (this.byUsername.rule.points === 0) return;
    const refusals = this.byUsername.rule.points - (await this.byUsername.check(username)).remaining;
    const delay = loginDelaySeconds(refusals, this.delayAfter, this.maxDelaySeconds);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay * 1000));
  }

  /** The password was refused: the user name's count grows (the address and the pair were counted up front). */
  async refused(username: string): Promise<void> {
    await this.byUsername.consume(username);
  }

  /** The password could not be checked (the database failed): the points counted up front are given back. */
  async notCounted(username: string, address: string): Promise<void> {
    await Promise.all([this.byPair.refund(pairOf(username, address)), this.byAddress.refund(address)]);
  }

  /** A successful login: the pair starts afresh, and the attempt does not count against the address. */
  async succeeded(username: string, address: string): Promise<void> {
    await Promise.all([this.byPair.reset(pairOf(username, address)), this.byAddress.refund(address)]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
