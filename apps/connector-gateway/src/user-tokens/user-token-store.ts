import { closeRedisClient, createRedisClient, type RedisClient } from '@fieldops/redis-connection';

/**
 * Where the user-token service keeps its records (already encrypted): users' tokens, pending sign-ins and magic
 * codes. Every instance of connector-gateway must see the same store (Redis when REDIS_URL is set).
 */
export interface UserTokenStore {
  get(key: string): Promise<string | undefined>;
  /** `ttlSeconds` undefined: kept until deleted. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Reads and deletes in one step: of two concurrent takes, one gets the value (single use). */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export const USER_TOKEN_STORE = Symbol('USER_TOKEN_STORE');

/** One process only (no REDIS_URL): records live in memory. */
export class InProcessUserTokenStore implements UserTokenStore {
  private readonly records = new Map<string, { value: string; expiresAt?: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.live(key));
  }

  set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    this.sweep();
    this.records.set(key, {
      value,
      ...(ttlSeconds !== undefined && { expiresAt: this.now() + ttlSeconds * 1000 }),
    });
    return Promise.resolve();
  }

  take(key: string): Promise<string | undefined> {
    const value = this.live(key);
    this.records.delete(key);
    return Promise.resolve(value);
  }

  delete(key: string): Promise<void> {
    this.records.delete(key);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.records.clear();
    return Promise.resolve();
  }

  private live(key: string): string | undefined {
    const record = this.records.get(key);
    if (record?.expiresAt !== undefined && record.expiresAt <= this.now()) {
      this.records.delete(key);
      return undefined;
    }
    return record?.value;
  }

  /** Drops expired records at most once a minute (pending sign-ins nobody completed). */
  private sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, record] of this.records)
      if (record.expiresAt !== undefined && record.expiresAt <= now) this.records.delete(key);
  }
}

/** Single-key commands only (SET EX, GETDEL, DEL), so it works on a Redis Cluster as on one server. */
export class RedisUserTokenStore implements UserTokenStore {
  private readonly redis: RedisClient;

  constructor(
    redisUrl: string,
    private readonly keyPrefix: string,
  ) {
    this.redis = createRedisClient(redisUrl, { connectionName: 'connector-gateway:user-tokens' });
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(this.keyPrefix + key)) ?? undefined;
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    if (ttlSeconds === undefined) await this.redis.set(this.keyPrefix + key, value);
    else await this.redis.set(this.keyPrefix + key, value, 'EX', ttlSeconds);
  }

  async take(key: string): Promise<string | undefined> {
    return (await this.redis.getdel(this.keyPrefix + key)) ?? undefined;
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.keyPrefix + key);
  }

  async close(): Promise<void> {
    await closeRedisClient(this.redis);
  }
}
