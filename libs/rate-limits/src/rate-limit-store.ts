import { createHash } from 'node:crypto';
import { closeRedisClient, createRedisClient, type RedisClient } from '@fieldops/redis-connection';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

/** One limit: `points` per fixed window of `windowSeconds`, counted per key. */
export interface RateLimitRule {
  /** Distinguishes this limit's counters from the other limits in the same store (`[a-z0-9-]`). */
  name: string;
  /** Points per window; 0 disables the limit (everything is allowed, nothing is counted). */
  points: number;
  windowSeconds: number;
}

/** The outcome of counting (or reading) a key. */
export interface RateLimitState {
  allowed: boolean;
  /** Points left in the current window (0 when over). */
  remaining: number;
  /** Whole seconds until the window ends and the key may go on (≥ 1 when refused; 0 when allowed). */
  retryAfterSeconds: number;
}

/** A limit in a store: counts points per key; `reset` forgets a key (e.g. after a successful login). */
export interface RateLimit {
  readonly rule: RateLimitRule;
  /** Counts `points` against the key. Refused (allowed: false) once the window's total exceeds the rule's points. */
  consume(key: string, points?: number): Promise<RateLimitState>;
  /** The key's state without counting: refused when the window's total already reached the rule's points. */
  check(key: string): Promise<RateLimitState>;
  /** Gives points back (an attempt that turned out not to count, e.g. a successful login). */
  refund(key: string, points?: number): Promise<void>;
  reset(key: string): Promise<void>;
}

/** Where the counters live: this process, Redis (every instance shares them) or a PostgreSQL table. */
export type RateLimitBackend =
  | { kind: 'memory' }
  | { kind: 'redis'; redisUrl: string }
  | {
      kind: 'postgres';
      /** A TypeORM DataSource (its driver's pool is used; no connection of its own). */
      dataSource: object;
      /** Created by the app's migration with {@link postgresRateLimitTableDdl}. */
      tableName: string;
    };

/** The table rate-limiter-flexible's PostgreSQL store expects (write it in a migration; the store never creates it). */
export function postgresRateLimitTableDdl(tableName: string): string {
  return `CREATE TABLE IF NOT EXISTS "${tableName}" (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`;
}

const ALLOWED: Omit<RateLimitState, 'remaining'> = { allowed: true, retryAfterSeconds: 0 };

/** Keys are hashed when long or unusual, so any user-supplied text fits the stores' key columns. */
function storeKey(key: string): string {
  return /^[\w.:@|-]{1,100}$/.test(key) ? key : `h:${createHash('sha256').update(key).digest('base64url')}`;
}

function stateOf(result: RateLimiterRes, rule: RateLimitRule): RateLimitState {
  const allowed = result.consumedPoints <= rule.points;
  return {
    allowed,
    remaining: Math.max(rule.points - result.consumedPoints, 0),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
  };
}

/**
 * The one factory of rate limits and quotas (login throttles, upload quotas, request rates), over
 * rate-limiter-flexible: one store per app, one {@link RateLimit} per rule. With Redis or PostgreSQL every
 * instance of the app counts together; in memory the counts are this process's.
 */
export class RateLimitStore {
  private readonly redis: RedisClient | undefined;
  /** One limiter per rule, so limits of the same rule share their counters (in memory too). */
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    readonly backend: RateLimitBackend,
    /** Prepended to every key (several platforms or test runs can share one Redis or table). */
    private readonly keyPrefix = 'fieldops:rate:',
  ) {
    if (backend.kind === 'redis') {
      // A single server, a Redis Cluster (each counter is one key, so any shard) or a Sentinel-managed primary.
      // No auto-pipelining: a send awaits its counts before the append, and ioredis would hold each until
      // `setImmediate`, after the rest of the loop's poll phase (see bench/relay/results/2026-11-25-redis-processing.md, "Processing p99 on Redis").
      this.redis = createRedisClient(backend.redisUrl, {
        connectionName: 'fieldops-rate-limits',
        enableAutoPipelining: false,
      });
      this.redis.on('error', () => undefined); // surfaced through failing commands
    }
  }

  get kind(): RateLimitBackend['kind'] {
    return this.backend.kind;
  }

  limit(rule: RateLimitRule): RateLimit {
    if (rule.points <= 0) return disabled(rule);
    const id = `${rule.name}/${rule.points}/${rule.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = this.createLimiter(rule);
      this.limiters.set(id, limiter);
    }
    const chosen = limiter;
    return {
      rule,
      consume: async (key, points = 1) => {
        try {
          return stateOf(await chosen.consume(storeKey(key), points), rule);
        } catch (error) {
          if (error instanceof RateLimiterRes) return stateOf(error, rule);
          throw error;
        }
      },
      check: async (key) => {
        const result = await chosen.get(storeKey(key));
        if (!result) return { ...ALLOWED, remaining: rule.points };
        // Reached (not only exceeded) the limit: the next point would be refused.
        const reached = result.consumedPoints >= rule.points;
        return reached
          ? {
              allowed: false,
              remaining: 0,
              retryAfterSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
            }
          : { ...ALLOWED, remaining: rule.points - result.consumedPoints };
      },
      refund: async (key, points = 1) => {
        await chosen.reward(storeKey(key), points);
      },
      reset: async (key) => {
        await chosen.delete(storeKey(key));
      },
    };
  }

  private createLimiter(rule: RateLimitRule): RateLimiterAbstract {
    const options = {
      keyPrefix: `${this.keyPrefix}${rule.name}`,
      points: rule.points,
      duration: rule.windowSeconds,
    };
    let limiter: RateLimiterAbstract;
    switch (this.backend.kind) {
      case 'memory':
        limiter = new RateLimiterMemory(options);
        break;
      case 'redis':
        limiter = new RateLimiterRedis({ ...options, storeClient: this.redis, useRedisPackage: false });
        break;
      case 'postgres':
        limiter = new RateLimiterPostgres({
          ...options,
          storeClient: this.backend.dataSource,
          storeType: 'typeorm',
          tableName: this.backend.tableName,
          tableCreated: true,
          // Expired rows are deleted by the store every 5 minutes (an unref'd timer).
          clearExpiredByTimeout: true,
        });
        break;
    }
    return limiter;
  }

  /** Closes the store's own Redis connection (a PostgreSQL store borrows the app's pool). Idempotent. */
  async close(): Promise<void> {
    if (this.redis) await closeRedisClient(this.redis);
  }
}

function disabled(rule: RateLimitRule): RateLimit {
  return {
    rule,
    consume: () => Promise.resolve({ ...ALLOWED, remaining: Number.POSITIVE_INFINITY }),
    check: () => Promise.resolve({ ...ALLOWED, remaining: Number.POSITIVE_INFINITY }),
    refund: () => Promise.resolve(),
    reset: () => Promise.resolve(),
  };
}
