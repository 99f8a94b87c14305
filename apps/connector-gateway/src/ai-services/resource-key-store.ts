import { randomBytes } from 'node:crypto';
import { closeRedisClient, createRedisClient, type RedisClient } from '@fieldops/redis-connection';

/** Which of a resource's two keys: 0 = Key1, 1 = Key2. */
export type KeyIndex = 0 | 1;

/**
 * Regenerated resource keys, shared by every connector-gateway instance: the key that replaced a configured
 * one, per resource and key index. Configured keys apply until regenerated.
 */
export interface ResourceKeyStore {
  /** Every regenerated key, by `{resource}:{index}`. */
  regeneratedKeys(): Promise<ReadonlyMap<string, string>>;
  /** Stores a new key for one key of one resource (the other key is untouched). */
  store(resource: string, index: KeyIndex, key: string): Promise<void>;
  checkReady(): Promise<void>;
  close(): Promise<void>;
}

export const RESOURCE_KEY_STORE = Symbol('RESOURCE_KEY_STORE');

export const regeneratedKeyField = (resource: string, index: KeyIndex): string => `${resource}:${index}`;

/** A new key as Azure makes them: 32 hexadecimal digits (128 random bits). */
export function newResourceKey(): string {
  return randomBytes(16).toString('hex');
}

/** One process only (no REDIS_URL): regenerated keys live in memory and are lost on restart. */
export class InProcessResourceKeyStore implements ResourceKeyStore {
  private readonly keys = new Map<string, string>();

  regeneratedKeys(): Promise<ReadonlyMap<string, string>> {
    return Promise.resolve(new Map(this.keys));
  }

  store(resource: string, index: KeyIndex, key: string): Promise<void> {
    this.keys.set(regeneratedKeyField(resource, index), key);
    return Promise.resolve();
  }

  checkReady(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Every instance reads the same Redis hash (`{prefix}ai-resource-keys`), so a regeneration applies everywhere at once. */
export class RedisResourceKeyStore implements ResourceKeyStore {
  private readonly redis: RedisClient;
  private readonly hash: string;

  constructor(redisUrl: string, keyPrefix: string) {
    // One hash, single-key commands: it works on a Redis Cluster as on one server.
    this.redis = createRedisClient(redisUrl, { connectionName: 'connector-gateway:ai-keys' });
    this.hash = `${keyPrefix}ai-resource-keys`;
  }

  async regeneratedKeys(): Promise<ReadonlyMap<string, string>> {
    return new Map(Object.entries(await this.redis.hgetall(this.hash)));
  }

  async store(resource: string, index: KeyIndex, key: string): Promise<void> {
    await this.redis.hset(this.hash, regeneratedKeyField(resource, index), key);
  }

  async checkReady(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await closeRedisClient(this.redis);
  }
}
