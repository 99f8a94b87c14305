import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { type Activity } from '@fieldops/contracts';
import {
  closeRedisClient,
  createRedisClient,
  hashTag,
  isClusterClient,
  type RedisClient,
} from '@fieldops/redis-connection';
import {
  type AttachmentMetadata,
  type ConversationMilestone,
  type ConversationRecord,
  type ConversationStore,
  DEFAULT_RETENTION_SECONDS,
  stampActivity,
  type StoredActivity,
  type StoredAttachment,
  UnknownConversationError,
} from './conversation-store';

export const DEFAULT_STORE_KEY_PREFIX = 'fieldops:store:';

export interface RedisConversationStoreOptions {
  /** A single server, a Redis Cluster or a Sentinel-managed primary (see `parseRedisUrl`). */
  redisUrl: string;
  /** Prepended to every key, so several platforms (or test runs) can share one Redis. */
  keyPrefix?: string;
  retentionSeconds?: number;
  connectionName?: string;
  /** How long `checkReady()` waits for the connection. Default 2000 ms. */
  readyTimeoutMs?: number;
}

/**
 * Sequence and log entry in one atomic step: the counter and the list can never disagree, so the list index is the
 * sequence number and a reader that sees seq N also sees every seq below it. The timestamp comes from the Redis
 * clock, forced strictly above the previous one, so timestamps are monotonic in seq across all instances.
 */
const APPEND_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1) - 1
local time = redis.call('TIME')
local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
local last = tonumber(redis.call('HGET', KEYS[1], 'lastMicros') or '0')
if micros <= last then micros = last + 1 end
local stamp = string.format('%.0f', micros)
redis.call('HSET', KEYS[1], 'lastMicros', stamp)
redis.call('RPUSH', KEYS[2], '{"s":' .. seq .. ',"t":' .. stamp .. ',"a":' .. ARGV[1] .. '}')
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return {seq, stamp}
`;

/**
 * The conversation's hash with its record's fields (ARGV[2..], field/value pairs) and the retention (ARGV[1]) as its
 * time to live, unless it exists: 1 created, 0 already there (left unchanged, its time to live included).
 */
const CREATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
`;

/**
 * HSETNX of a milestone field (ARGV[1]) on an existing conversation, whose retention (ARGV[2]) starts again: 1 for the
 * one caller that set it, 0 for every other, -1 when the conversation does not exist.
 */
const CLAIM_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local claimed = redis.call('HSETNX', KEYS[1], ARGV[1], '1')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return claimed
`;

/**
 * The user of an existing conversation unless one is set: userId (ARGV[1]) by HSETNX, and userName (ARGV[2], '' for
 * none) only together with it; the retention (ARGV[3]) starts again. -1 when the conversation does not exist.
 */
const SET_USER_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HSETNX', KEYS[1], 'userId', ARGV[1]) == 1 and ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'userName', ARGV[2])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
`;

interface StoreCommands {
  fieldopsCreate(meta: string, ttl: number, ...fields: string[]): Promise<number>;
  fieldopsAppend(meta: string, log: string, activity: string, ttl: number): Promise<[number, string] | null>;
  fieldopsClaim(meta: string, field: string, ttl: number): Promise<number>;
  fieldopsSetUser(meta: string, userId: string, userName: string, ttl: number): Promise<number>;
}

/**
 * Multi-instance store on Redis: a hash per conversation (record, counter), a list for its log, keys per blob. On a
 * Redis Cluster every key of a conversation carries its hash tag (`<prefix>conversation:{<id>}`, `…:{<id>}:log`,
 * `…:{<id>}:attachment:<aid>:meta|data`), so the scripts and transactions over them run on the one shard that owns
 * the conversation; on one server the keys are untagged (`<prefix>conversation:<id>…`), as they always were.
 */
export class RedisConversationStore implements ConversationStore {
  readonly kind = 'redis' as const;
  readonly retentionSeconds: number;
  private readonly redis: RedisClient & StoreCommands;
  /** On a Redis Cluster, keys carry the conversation's hash tag. */
  private readonly clustered: boolean;
  private readonly prefix: string;
  private closing: Promise<void> | undefined;
  private readonly readyTimeoutMs: number;

  constructor(options: RedisConversationStoreOptions) {
    this.retentionSeconds = options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
    this.prefix = options.keyPrefix ?? DEFAULT_STORE_KEY_PREFIX;
    this.readyTimeoutMs = options.readyTimeoutMs ?? 2_000;
    // Commands issued in the same tick (appends, reads, expiries of many requests) go out in one write: on a loaded
    // relay that is one syscall instead of one per command.
    const redis = createRedisClient(options.redisUrl, {
      connectionName: options.connectionName ?? 'fieldops-conversation-store',
      enableAutoPipelining: true,
    });
    this.clustered = isClusterClient(redis);
    redis.on('error', () => undefined); // surfaced through failing commands and checkReady()
    redis.defineCommand('fieldopsAppend', { numberOfKeys: 2, lua: APPEND_SCRIPT });
    redis.defineCommand('fieldopsCreate', { numberOfKeys: 1, lua: CREATE_SCRIPT });
    redis.defineCommand('fieldopsClaim', { numberOfKeys: 1, lua: CLAIM_SCRIPT });
    redis.defineCommand('fieldopsSetUser', { numberOfKeys: 1, lua: SET_USER_SCRIPT });
    this.redis = redis as RedisClient & StoreCommands;
  }

  async create(record: ConversationRecord): Promise<boolean> {
    const key = this.metaKey(record.conversationId);
    const fields: Record<string, string> = {
      botId: record.botId,
      createdAt: String(record.createdAt),
    };
    if (record.userId !== undefined) fields.userId = record.userId;
    if (record.userName !== undefined) fields.userName = record.userName;
    if (record.locale !== undefined) fields.locale = record.locale;
    const created = await this.redis.fieldopsCreate(
      key,
      this.retentionSeconds,
      ...Object.entries(fields).flat(),
    );
    return created === 1;
  }

  async get(conversationId: string): Promise<ConversationRecord | undefined> {
    const fields = await this.redis.hgetall(this.metaKey(conversationId));
    if (fields.botId === undefined) return undefined;
    const record: ConversationRecord = {
      conversationId,
      botId: fields.botId,
      createdAt: Number(fields.createdAt ?? 0),
    };
    if (fields.userId !== undefined) record.userId = fields.userId;
    if (fields.userName !== undefined) record.userName = fields.userName;
    if (fields.locale !== undefined) record.locale = fields.locale;
    return record;
  }

  async setUserIfUnset(
    conversationId: string,
    user: { userId: string; userName?: string },
  ): Promise<ConversationRecord | undefined> {
    const result = await this.redis.fieldopsSetUser(
      this.metaKey(conversationId),
      user.userId,
      user.userName ?? '',
      this.retentionSeconds,
    );
    return result === -1 ? undefined : this.get(conversationId);
  }

  async claimMilestone(conversationId: string, milestone: ConversationMilestone): Promise<boolean> {
    const result = await this.redis.fieldopsClaim(
      this.metaKey(conversationId),
      `milestone:${milestone}`,
      this.retentionSeconds,
    );
    if (result === -1) throw new UnknownConversationError(conversationId);
    return result === 1;
  }

  async append(conversationId: string, activity: Activity): Promise<StoredActivity> {
    const { id: _id, timestamp: _timestamp, ...rest } = activity;
    const result = await this.redis.fieldopsAppend(
      this.metaKey(conversationId),
      this.logKey(conversationId),
      JSON.stringify(rest),
      this.retentionSeconds,
    );
    if (!result) throw new UnknownConversationError(conversationId);
    const [seq, micros] = result;
    return { seq, activity: stampActivity(conversationId, seq, Number(micros), rest) };
  }

  async read(conversationId: string, afterSeq?: number, limit?: number): Promise<StoredActivity[]> {
    const start = afterSeq === undefined ? 0 : Math.max(afterSeq + 1, 0);
    const stop = limit === undefined ? -1 : start + limit - 1;
    if (limit !== undefined && limit <= 0) return [];
    const entries = await this.redis.lrange(this.logKey(conversationId), start, stop);
    return entries.map((entry) => {
      const { s, t, a } = JSON.parse(entry) as { s: number; t: number; a: Activity };
      return { seq: s, activity: stampActivity(conversationId, s, t, a) };
    });
  }

  async lastSeq(conversationId: string): Promise<number | undefined> {
    const [exists, seq] = await Promise.all([
      this.redis.exists(this.metaKey(conversationId)),
      this.redis.hget(this.metaKey(conversationId), 'seq'),
    ]);
    if (exists === 0) return undefined;
    return seq === null ? -1 : Number(seq) - 1;
  }

  async putAttachment(
    conversationId: string,
    metadata: AttachmentMetadata,
    data: Buffer,
  ): Promise<StoredAttachment> {
    if ((await this.redis.exists(this.metaKey(conversationId))) === 0) {
      throw new UnknownConversationError(conversationId);
    }
    const attachment: StoredAttachment = {
      ...metadata,
      attachmentId: randomUUID(),
      conversationId,
      size: data.length,
      createdAt: Date.now(),
    };
    const key = this.attachmentKey(conversationId, attachment.attachmentId);
    await this.redis
      .multi()
      .set(`${key}:meta`, JSON.stringify(attachment), 'EX', this.retentionSeconds)
      .set(`${key}:data`, data, 'EX', this.retentionSeconds)
      .exec();
    return attachment;
  }

  async getAttachment(
    conversationId: string,
    attachmentId: string,
  ): Promise<{ attachment: StoredAttachment; data: Buffer } | undefined> {
    const key = this.attachmentKey(conversationId, attachmentId);
    const [meta, data] = await Promise.all([
      this.redis.get(`${key}:meta`),
      this.redis.getBuffer(`${key}:data`),
    ]);
    if (meta === null || data === null) return undefined;
    return { attachment: JSON.parse(meta) as StoredAttachment, data };
  }

  async deleteAttachment(conversationId: string, attachmentId: string): Promise<void> {
    const key = this.attachmentKey(conversationId, attachmentId);
    await this.redis.del(`${key}:meta`, `${key}:data`);
  }

  async checkReady(): Promise<void> {
    if (this.closing) throw new Error('conversation store is closed');
    const deadline = Date.now() + this.readyTimeoutMs;
    while (this.redis.status !== 'ready') {
      if (this.redis.status === 'end' || Date.now() >= deadline) {
        throw new Error(
          `conversation store: Redis connection is ${this.redis.status} after ${this.readyTimeoutMs} ms`,
        );
      }
      await delay(25);
    }
    await this.redis.ping();
  }

  close(): Promise<void> {
    this.closing ??= closeRedisClient(this.redis);
    return this.closing;
  }

  /** The conversation part of its keys: hash-tagged on a cluster, so all of them live on one shard. */
  private conversationPart(conversationId: string): string {
    return this.clustered ? hashTag(conversationId) : conversationId;
  }

  private metaKey(conversationId: string): string {
    return `${this.prefix}conversation:${this.conversationPart(conversationId)}`;
  }

  private logKey(conversationId: string): string {
    return `${this.prefix}conversation:${this.conversationPart(conversationId)}:log`;
  }

  private attachmentKey(conversationId: string, attachmentId: string): string {
    return `${this.prefix}conversation:${this.conversationPart(conversationId)}:attachment:${attachmentId}`;
  }
}
