import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { type RedisActivityBus, type RedisPublishRoute } from '@fieldops/bus';
import { type Activity } from '@fieldops/contracts';
import {
  closeRedisClient,
  clusterSlotOf,
  createRedisClient,
  hashTag,
  isClusterClient,
  type RedisClient,
  slotTag,
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
 * The ISO-8601 UTC timestamp of `isoTimestampFromMicros` (7 fractional digits), computed in Lua from epoch
 * microseconds: the calendar date by Howard Hinnant's days-to-civil algorithm (Lua 5.1 in Redis has no `os.date`).
 */
export const LUA_ISO_TIMESTAMP = `
local function isoTimestamp(micros)
  local secs = math.floor(micros / 1000000)
  local fraction = micros - secs * 1000000
  local days = math.floor(secs / 86400)
  local rest = secs - days * 86400
  local hour = math.floor(rest / 3600)
  rest = rest - hour * 3600
  local minute = math.floor(rest / 60)
  local second = rest - minute * 60
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local day = doy - math.floor((153 * mp + 2) / 5) + 1
  local month = mp < 10 and mp + 3 or mp - 9
  local year = yoe + era * 400
  if month <= 2 then year = year + 1 end
  return string.format('%04d-%02d-%02dT%02d:%02d:%02d.%06d0Z', year, month, day, hour, minute, second, fraction)
end
`;

/**
 * Sequence and log entry in one atomic step: the counter and the list can never disagree, so the list index is the
 * sequence number and a reader that sees seq N also sees every seq below it. The timestamp comes from the Redis
 * clock, forced strictly above the previous one, so timestamps are monotonic in seq across all instances.
 *
 * Idempotent: KEYS[3] (the append's own key, ARGV[3] seconds to live) remembers `seq:micros`, and a second run with
 * the same key (ioredis re-sends a command whose reply a dropped connection lost) answers the first run's result
 * without appending again.
 *
 * With a channel (ARGV[4], '' for none), the script also publishes the envelope the bus would (`ARGV[5]` = PUBLISH or,
 * on a cluster, SPUBLISH to the conversation's tagged channel, in the slot of its keys): the wake-up leaves in the same
 * step as the append, so bus order is seq order and a send costs one round trip. The envelope is
 * `ARGV[6] .. seq .. ',"activity":' .. activity .. ARGV[8]` and the activity is the stored one with `"id":` ARGV[7]
 * `.. seq7 .. '"'` and its timestamp appended, exactly as `JSON.stringify` of the stamped activity reads. A failed
 * publish does not undo the append: its error is returned as the 4th element.
 */
const APPEND_SCRIPT = `${LUA_ISO_TIMESTAMP}
local done = redis.call('GET', KEYS[3])
if done then
  local colon = string.find(done, ':', 1, true)
  return {tonumber(string.sub(done, 1, colon - 1)), string.sub(done, colon + 1), 1, ''}
end
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
redis.call('SET', KEYS[3], seq .. ':' .. stamp, 'EX', ARGV[3])
local published = ''
if ARGV[4] ~= '' then
  local activity = ARGV[1]
  if activity == '{}' then activity = '{' else activity = string.sub(activity, 1, -2) .. ',' end
  activity = activity .. '"id":' .. ARGV[7] .. string.format('%07d', seq) .. '","timestamp":"' .. isoTimestamp(micros) .. '"}'
  local result = redis.pcall(ARGV[5], ARGV[4], ARGV[6] .. seq .. ',"activity":' .. activity .. ARGV[8])
  if type(result) == 'table' and result.err then published = result.err end
end
return {seq, stamp, 0, published}
`;

/**
 * How long an append's idempotency key is kept: far longer than ioredis takes to re-send a command after a reconnect
 * (it gives a command up after a few reconnection attempts, about a second), short enough that the keys of 20,000
 * appends/s stay small (see `docs/operate/capacity.md` for the memory).
 */
export const APPEND_IDEMPOTENCY_SECONDS = 60;

/** What an append may publish in the same step: the bus's route for the conversation and the envelope's fields. */
export interface AppendPublication {
  route: RedisPublishRoute;
  correlationId: string;
}

/** The outcome of {@link RedisConversationStore.appendAndPublish}. */
export interface AppendOutcome {
  stored: StoredActivity;
  /** The append had already run with this idempotency key: the first run's result, nothing appended or published. */
  duplicate: boolean;
  /** Redis's error when the publish failed (the append holds: streams catch up from the store). */
  publishError?: string;
}

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
  fieldopsAppend(
    meta: string,
    log: string,
    appendKey: string,
    activity: string,
    ttl: number,
    appendKeyTtl: number,
    channel: string,
    publishCommand: string,
    envelopeHead: string,
    idOpening: string,
    envelopeTail: string,
  ): Promise<[number, string, 0 | 1, string] | null>;
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
  private readonly redisUrl: string;

  constructor(options: RedisConversationStoreOptions) {
    this.redisUrl = options.redisUrl.trim();
    this.retentionSeconds = options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
    this.prefix = options.keyPrefix ?? DEFAULT_STORE_KEY_PREFIX;
    this.readyTimeoutMs = options.readyTimeoutMs ?? 2_000;
    // No auto-pipelining: ioredis would hold each command until `setImmediate`, after every other event of the
    // loop's poll phase (a burst of requests, a Redis reply of many envelopes), and a send's append is what its
    // answer waits for. Written at once, the append runs in Redis while this process handles the rest of the burst
    // (see bench/relay/results/2026-11-25-redis-processing.md, "Processing p99 on Redis").
    const redis = createRedisClient(options.redisUrl, {
      connectionName: options.connectionName ?? 'fieldops-conversation-store',
      enableAutoPipelining: false,
    });
    this.clustered = isClusterClient(redis);
    redis.on('error', () => undefined); // surfaced through failing commands and checkReady()
    redis.defineCommand('fieldopsAppend', { numberOfKeys: 3, lua: APPEND_SCRIPT });
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
    return (await this.appendAndPublish(conversationId, activity)).stored;
  }

  /**
   * {@link append}, idempotent under `idempotencyKey` (a fresh one by default: a command ioredis re-sends after a
   * reconnect carries the same key and does not append twice), and with `publication` also published on the bus in
   * the same server-side step. Only for a bus on this store's Redis ({@link canPublishOn}).
   */
  async appendAndPublish(
    conversationId: string,
    activity: Activity,
    publication?: AppendPublication,
    idempotencyKey: string = randomUUID(),
  ): Promise<AppendOutcome> {
    const { id: _id, timestamp: _timestamp, ...rest } = activity;
    const part = this.conversationPart(conversationId);
    const meta = `${this.prefix}conversation:${part}`;
    const result = await this.redis.fieldopsAppend(
      meta,
      `${meta}:log`,
      this.appendMarkerKey(conversationId, idempotencyKey),
      JSON.stringify(rest),
      this.retentionSeconds,
      APPEND_IDEMPOTENCY_SECONDS,
      publication ? publication.route.channel : '',
      publication ? publication.route.command : '',
      publication ? `{"conversationId":${JSON.stringify(conversationId)},"seq":` : '',
      publication ? JSON.stringify(`${conversationId}|`).slice(0, -1) : '',
      publication ? `,"correlationId":${JSON.stringify(publication.correlationId)}}` : '',
    );
    if (!result) throw new UnknownConversationError(conversationId);
    const [seq, micros, duplicate, publishError] = result;
    const outcome: AppendOutcome = {
      stored: { seq, activity: stampActivity(conversationId, seq, Number(micros), rest) },
      duplicate: duplicate === 1,
    };
    if (publishError) outcome.publishError = publishError;
    return outcome;
  }

  /** Whether the bus is on this store's Redis, so {@link appendAndPublish} can publish on it. */
  canPublishOn(bus: RedisActivityBus): boolean {
    return bus.isOn(this.redisUrl);
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

  /**
   * The marker of one append (its idempotency key, kept {@link APPEND_IDEMPOTENCY_SECONDS}): a request marker, not
   * state of the conversation, so it does not carry the conversation's tag; on a cluster it carries a tag of the
   * conversation's slot instead (the script must reach it).
   */
  private appendMarkerKey(conversationId: string, idempotencyKey: string): string {
    if (!this.clustered) return `${this.prefix}append:${idempotencyKey}`;
    return `${this.prefix}append:${slotTag(clusterSlotOf(hashTag(conversationId)))}:${idempotencyKey}`;
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
