import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { type RedisActivityBus, type RedisPublishRoute } from '@fieldops/bus';
import { type Activity, BotFrameworkError } from '@fieldops/contracts';
import { type ChainableCommander } from 'ioredis';
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
  /**
   * How many replicas must hold an append before it is acknowledged (`WAIT`); 0 (the default) acknowledges at once.
   * See {@link RedisConversationStore} for what each setting promises.
   */
  replicaAcks?: number;
  /** How long an append waits for its replicas before it fails as an unknown outcome. Default 1000 ms. */
  replicaAckTimeoutMs?: number;
}

/** The default of `replicaAckTimeoutMs`. */
export const DEFAULT_REPLICA_ACK_TIMEOUT_MS = 1_000;

/**
 * The most appends one `WAIT` covers (group commit, see {@link RedisConversationStore}); more wait for the next one.
 */
export const MAX_APPENDS_PER_WAIT = 512;

/**
 * An append whose replicas did not confirm it in time (or whose entry a failover took back before it was confirmed):
 * an unknown outcome. Its entry is voided where it can be (readers skip it and its seq is never used again); where a
 * failover kept the entry but lost the void, it becomes visible once, under an id no one else was given. Nothing was
 * published and no reader saw it before. Both gateways answer it 503 `ServiceError`
 * with `Retry-After` (their exception filters render it like any `BotFrameworkError`).
 */
export class AppendNotReplicatedError extends BotFrameworkError {
  constructor(
    readonly conversationId: string,
    readonly replicas: number,
    readonly required: number,
  ) {
    super(
      503,
      'ServiceError',
      'The activity could not be stored on enough replicas in time; it may or may not have been stored. Retry later.',
      { headers: { 'Retry-After': '1' } },
    );
    this.name = 'AppendNotReplicatedError';
  }
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
 *
 * `acked` in the hash is the highest seq readers may see. With ARGV[9] = '1' (no replica to wait for) the append
 * raises it at once; otherwise {@link CONFIRM_SCRIPT} does, once the replicas hold the entry. A re-run (the marker
 * found) touches the marker, so a `WAIT` after it covers the entry on whichever primary answered.
 */
const APPEND_SCRIPT = `${LUA_ISO_TIMESTAMP}
local done = redis.call('GET', KEYS[3])
if done then
  redis.call('EXPIRE', KEYS[3], ARGV[3])
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
if ARGV[9] == '1' then
  redis.call('HSET', KEYS[1], 'lastMicros', stamp, 'acked', seq)
else
  redis.call('HSET', KEYS[1], 'lastMicros', stamp)
end
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
 * An append the replicas hold (`WAIT` answered): `acked` (the seq readers may see) rises to ARGV[1] unless it is
 * higher, and the envelope (ARGV[4], '' for none) is published with ARGV[3] (PUBLISH/SPUBLISH) on channel ARGV[2].
 * KEYS[2] is the append's marker and must still read ARGV[5] (`seq:micros`): otherwise the entry is not the one this
 * primary holds under that seq (a failover took it back), and the answer is -2. -1: the conversation is gone.
 * Otherwise the publish error, '' when none.
 */
const CONFIRM_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('GET', KEYS[2]) ~= ARGV[5] then return -2 end
local seq = tonumber(ARGV[1])
if seq > tonumber(redis.call('HGET', KEYS[1], 'acked') or '-1') then redis.call('HSET', KEYS[1], 'acked', seq) end
if ARGV[4] == '' then return '' end
local result = redis.pcall(ARGV[3], ARGV[2], ARGV[4])
if type(result) == 'table' and result.err then return result.err end
return ''
`;

/** How a voided log entry starts (see {@link VOID_SCRIPT}). */
const VOID_ENTRY = '{"v":';

/**
 * An append its replicas did not confirm in time, taken back where it still can be: its log entry (KEYS[1], index
 * ARGV[1]) becomes the void `{"v":seq}`, which readers skip, and its marker (KEYS[2], still reading ARGV[2]) goes, so
 * the append cannot be confirmed later. Its seq is never used again. If a failover keeps the entry and loses the void,
 * the entry is visible once (an unknown outcome), under an id no one else was given.
 */
const VOID_SCRIPT = `
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
redis.call('LSET', KEYS[1], ARGV[1], '{"v":' .. ARGV[1] .. '}')
redis.call('DEL', KEYS[2])
return 1
`;

/**
 * The visible part of a log: up to ARGV[2] entries (-1: all) of KEYS[2] from index ARGV[1], none above `acked` of
 * KEYS[1] (the seq counter's last value for a log written before `acked` existed), voids skipped (the page is filled
 * from further entries instead).
 */
const READ_SCRIPT = `
local acked = redis.call('HGET', KEYS[1], 'acked')
local last
if acked then last = tonumber(acked) else last = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') - 1 end
local start = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local out = {}
while start <= last do
  local want = last - start + 1
  if limit >= 0 then want = math.min(want, limit - #out) end
  if want <= 0 then break end
  local stop = start + want - 1
  local entries = redis.call('LRANGE', KEYS[2], start, stop)
  if #entries == 0 then break end
  for _, entry in ipairs(entries) do
    if string.sub(entry, 1, 5) ~= '{"v":' then out[#out + 1] = entry end
  end
  start = stop + 1
end
return out
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
 * The latest join (ARGV[1]) of an existing conversation, in its `join` field, whose retention (ARGV[2]) starts again: 1
 * when it was another (or none), 0 when it was this one, -1 when the conversation does not exist.
 */
const JOIN_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('EXPIRE', KEYS[1], ARGV[2])
if redis.call('HGET', KEYS[1], 'join') == ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'join', ARGV[1])
return 1
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

/** Names a home conversation: KEYS[1] the (bot, user) key; sets ARGV[2] when it names ARGV[1] ('' = none). */
const HOME_SWAP_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
`;

/** SHA-256 of the JSON pair (JSON escapes lone surrogates, so distinct ids never meet). */
export function homeDigest(botId: string, userId: string): string {
  return createHash('sha256')
    .update(JSON.stringify([botId, userId]))
    .digest('base64url');
}

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
    acknowledgeAtOnce: '0' | '1',
  ): Promise<[number, string, 0 | 1, string] | null>;
  fieldopsConfirm(
    meta: string,
    appendKey: string,
    seq: number,
    channel: string,
    publishCommand: string,
    envelope: string,
    expectedMarker: string,
  ): Promise<number | string>;
  fieldopsRead(meta: string, log: string, start: number, limit: number): Promise<string[]>;
  fieldopsVoid(log: string, appendKey: string, seq: number, expectedMarker: string): Promise<number>;
  fieldopsClaim(meta: string, field: string, ttl: number): Promise<number>;
  fieldopsJoin(meta: string, joinId: string, ttl: number): Promise<number>;
  fieldopsSetUser(meta: string, userId: string, userName: string, ttl: number): Promise<number>;
  fieldopsHomeSwap(home: string, expected: string, conversationId: string, ttl: number): Promise<number>;
}

/** The store's scripts queued on a pipeline (ioredis adds defined commands to pipelines too). */
interface PipelinedStoreCommands {
  fieldopsAppend(
    ...args: [...Parameters<StoreCommands['fieldopsAppend']>]
  ): ChainableCommander & PipelinedStoreCommands;
  fieldopsConfirm(
    ...args: [...Parameters<StoreCommands['fieldopsConfirm']>]
  ): ChainableCommander & PipelinedStoreCommands;
  fieldopsVoid(
    ...args: [...Parameters<StoreCommands['fieldopsVoid']>]
  ): ChainableCommander & PipelinedStoreCommands;
}

/** An append waiting for the next `WAIT` of its group (see {@link RedisConversationStore}). */
interface ReplicatedAppend {
  conversationId: string;
  activity: Activity;
  meta: string;
  marker: string;
  publication: AppendPublication | undefined;
  envelopeHead: string;
  envelopeTail: string;
  resolve(outcome: AppendOutcome): void;
  reject(error: unknown): void;
}

/** What the append script answered for one append of a batch. */
interface AppendedEntry {
  append: ReplicatedAppend;
  seq: number;
  micros: string;
  duplicate: boolean;
}

function defineStoreCommands(redis: RedisClient): void {
  redis.defineCommand('fieldopsAppend', { numberOfKeys: 3, lua: APPEND_SCRIPT });
  redis.defineCommand('fieldopsConfirm', { numberOfKeys: 2, lua: CONFIRM_SCRIPT });
  redis.defineCommand('fieldopsRead', { numberOfKeys: 2, lua: READ_SCRIPT });
  redis.defineCommand('fieldopsVoid', { numberOfKeys: 2, lua: VOID_SCRIPT });
  redis.defineCommand('fieldopsCreate', { numberOfKeys: 1, lua: CREATE_SCRIPT });
  redis.defineCommand('fieldopsClaim', { numberOfKeys: 1, lua: CLAIM_SCRIPT });
  redis.defineCommand('fieldopsJoin', { numberOfKeys: 1, lua: JOIN_SCRIPT });
  redis.defineCommand('fieldopsSetUser', { numberOfKeys: 1, lua: SET_USER_SCRIPT });
  redis.defineCommand('fieldopsHomeSwap', { numberOfKeys: 1, lua: HOME_SWAP_SCRIPT });
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
  /** See {@link RedisConversationStoreOptions.replicaAcks}. */
  readonly replicaAcks: number;
  private readonly replicaAckTimeoutMs: number;
  /** The connection of the appends that wait for replicas (`WAIT` blocks it; on a cluster, one per primary). */
  private readonly replicated: (RedisClient & StoreCommands) | undefined;
  /** Per group (a primary): the appends waiting for its next `WAIT`, and whether a batch is under way. */
  private readonly waitingAppends = new Map<string, ReplicatedAppend[]>();
  private readonly committing = new Set<string>();

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
    defineStoreCommands(redis);
    this.redis = redis as RedisClient & StoreCommands;
    this.replicaAcks = options.replicaAcks ?? 0;
    this.replicaAckTimeoutMs = options.replicaAckTimeoutMs ?? DEFAULT_REPLICA_ACK_TIMEOUT_MS;
    if (this.replicaAcks > 0) {
      const connection = createRedisClient(options.redisUrl, {
        connectionName: `${options.connectionName ?? 'fieldops-conversation-store'}-replicated`,
        enableAutoPipelining: false,
      });
      connection.on('error', () => undefined);
      defineStoreCommands(connection);
      this.replicated = connection as RedisClient & StoreCommands;
    }
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

  /**
   * The (bot, user) key is a key of its own (on a cluster, any shard): read it, check that the conversation it names
   * is live, else create the candidate and name it with a compare-and-set, so that of two callers racing one wins
   * and the other reads the winner's (its own candidate stays empty and expires).
   */
  async homeConversation(candidate: ConversationRecord & { userId: string }): Promise<ConversationRecord> {
    const key = this.homeKey(candidate.botId, candidate.userId);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const named = await this.redis.get(key);
      if (named !== null) {
        const record = await this.get(named);
        if (record?.botId === candidate.botId && record.userId === candidate.userId) {
          await this.redis.expire(key, this.retentionSeconds);
          return record;
        }
      }
      await this.create(candidate);
      const swapped = await this.redis.fieldopsHomeSwap(
        key,
        named ?? '',
        candidate.conversationId,
        this.retentionSeconds,
      );
      if (swapped === 1) return (await this.get(candidate.conversationId)) ?? candidate;
    }
    throw new Error(`the home conversation of ${candidate.userId} is contended`);
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

  async claimJoin(conversationId: string, joinId: string): Promise<boolean> {
    const result = await this.redis.fieldopsJoin(this.metaKey(conversationId), joinId, this.retentionSeconds);
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
    const marker = this.appendMarkerKey(conversationId, idempotencyKey);
    const envelopeHead = `{"conversationId":${JSON.stringify(conversationId)},"seq":`;
    const envelopeTail = publication ? `,"correlationId":${JSON.stringify(publication.correlationId)}}` : '';
    if (this.replicaAcks > 0) {
      return this.appendReplicated(
        conversationId,
        rest,
        meta,
        marker,
        publication,
        envelopeHead,
        envelopeTail,
      );
    }
    const result = await this.redis.fieldopsAppend(
      meta,
      `${meta}:log`,
      marker,
      JSON.stringify(rest),
      this.retentionSeconds,
      APPEND_IDEMPOTENCY_SECONDS,
      publication ? publication.route.channel : '',
      publication ? publication.route.command : '',
      publication ? envelopeHead : '',
      publication ? JSON.stringify(`${conversationId}|`).slice(0, -1) : '',
      envelopeTail,
      '1',
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

  /**
   * The append when replicas must hold it first, by group commit: it joins the appends waiting for the next `WAIT` of
   * its primary. One batch at a time per primary, on the connection kept for them: the batch's append scripts
   * (publishing nothing, leaving `acked`) and one `WAIT` in one round trip; once enough replicas answered,
   * {@link CONFIRM_SCRIPT} for each (visible to readers, published) in a second one, and only then are they
   * acknowledged. Appends that arrive while a batch is under way share the next `WAIT`. A `WAIT` short of replicas (or
   * an error) voids the whole batch, an unknown outcome for each: {@link AppendNotReplicatedError}.
   */
  private appendReplicated(
    conversationId: string,
    activity: Activity,
    meta: string,
    marker: string,
    publication: AppendPublication | undefined,
    envelopeHead: string,
    envelopeTail: string,
  ): Promise<AppendOutcome> {
    return new Promise<AppendOutcome>((resolve, reject) => {
      const group = this.commitGroupOf(conversationId);
      const waiting = this.waitingAppends.get(group) ?? [];
      this.waitingAppends.set(group, waiting);
      waiting.push({
        conversationId,
        activity,
        meta,
        marker,
        publication,
        envelopeHead,
        envelopeTail,
        resolve,
        reject,
      });
      if (!this.committing.has(group)) void this.commitGroup(group);
    });
  }

  /**
   * Commits the group's waiting appends in batches until none is left. The first batch starts after the current
   * microtasks, so appends issued together (one tick) share it.
   */
  private async commitGroup(group: string): Promise<void> {
    this.committing.add(group);
    try {
      await Promise.resolve();
      for (;;) {
        const waiting = this.waitingAppends.get(group);
        if (!waiting || waiting.length === 0) {
          this.waitingAppends.delete(group);
          return;
        }
        await this.commitBatch(waiting.splice(0, MAX_APPENDS_PER_WAIT));
      }
    } finally {
      this.committing.delete(group);
    }
  }

  /** One batch: appends and `WAIT`, then confirms (or voids); settles every append of the batch, never rejects. */
  private async commitBatch(batch: ReplicatedAppend[]): Promise<void> {
    const connection = this.replicated!;
    let replies: Array<[Error | null, unknown]>;
    try {
      const pipeline = connection.pipeline() as ChainableCommander & PipelinedStoreCommands;
      for (const append of batch) {
        pipeline.fieldopsAppend(
          append.meta,
          `${append.meta}:log`,
          append.marker,
          JSON.stringify(append.activity),
          this.retentionSeconds,
          APPEND_IDEMPOTENCY_SECONDS,
          '',
          '',
          '',
          '',
          '',
          '0',
        );
      }
      pipeline.wait(this.replicaAcks, this.replicaAckTimeoutMs);
      replies = (await pipeline.exec()) ?? [];
    } catch (error) {
      for (const append of batch) append.reject(error);
      return;
    }
    const [waitError, replicas] = replies[batch.length] ?? [new Error('no WAIT reply'), 0];
    const appended: AppendedEntry[] = [];
    batch.forEach((append, index) => {
      const [appendError, result] = replies[index] ?? [new Error('no reply'), null];
      if (appendError) return append.reject(appendError);
      if (!result) return append.reject(new UnknownConversationError(append.conversationId));
      const [seq, micros, duplicate] = result as [number, string, 0 | 1, string];
      appended.push({ append, seq, micros, duplicate: duplicate === 1 });
    });
    if (appended.length === 0) return;
    if (waitError || typeof replicas !== 'number' || replicas < this.replicaAcks) {
      // Taken back where they can be, so a retry of these sends is not a second copy (a lost void: at most once).
      const voids = connection.pipeline() as ChainableCommander & PipelinedStoreCommands;
      for (const { append, seq, micros } of appended)
        voids.fieldopsVoid(`${append.meta}:log`, append.marker, seq, `${seq}:${micros}`);
      await voids.exec().catch(() => undefined);
      const answered = waitError || typeof replicas !== 'number' ? 0 : replicas;
      for (const { append } of appended)
        append.reject(new AppendNotReplicatedError(append.conversationId, answered, this.replicaAcks));
      return;
    }
    const stored = appended.map(({ append, seq, micros }) => ({
      seq,
      activity: stampActivity(append.conversationId, seq, Number(micros), append.activity),
    }));
    let confirmations: Array<[Error | null, unknown]>;
    try {
      const confirms = connection.pipeline() as ChainableCommander & PipelinedStoreCommands;
      appended.forEach(({ append, seq, micros }, index) => {
        const { publication } = append;
        confirms.fieldopsConfirm(
          append.meta,
          append.marker,
          seq,
          publication ? publication.route.channel : '',
          publication ? publication.route.command : '',
          publication
            ? `${append.envelopeHead}${seq},"activity":${JSON.stringify(stored[index].activity)}${append.envelopeTail}`
            : '',
          `${seq}:${micros}`,
        );
      });
      confirmations = (await confirms.exec()) ?? [];
    } catch (error) {
      for (const { append } of appended) append.reject(error);
      return;
    }
    appended.forEach(({ append, duplicate }, index) => {
      const [confirmError, confirmed] = confirmations[index] ?? [new Error('no reply'), null];
      if (confirmError) return append.reject(confirmError);
      if (confirmed === -1) return append.reject(new UnknownConversationError(append.conversationId));
      if (confirmed === -2)
        return append.reject(new AppendNotReplicatedError(append.conversationId, 0, this.replicaAcks));
      const outcome: AppendOutcome = { stored: stored[index], duplicate };
      if (typeof confirmed === 'string' && confirmed !== '') outcome.publishError = confirmed;
      append.resolve(outcome);
    });
  }

  /**
   * The appends that share a `WAIT`: on one server (or a Sentinel-managed primary) all of them; on a cluster those
   * whose slots the same primary serves (a `WAIT` answers for the writes of its own connection, to one primary).
   */
  private commitGroupOf(conversationId: string): string {
    const connection = this.replicated!;
    if (!isClusterClient(connection)) return '';
    const slot = clusterSlotOf(hashTag(conversationId));
    return (connection.slots[slot] as string[] | undefined)?.join(';') ?? `slot ${slot}`;
  }

  /** Whether the bus is on this store's Redis, so {@link appendAndPublish} can publish on it. */
  canPublishOn(bus: RedisActivityBus): boolean {
    return bus.isOn(this.redisUrl);
  }

  async read(conversationId: string, afterSeq?: number, limit?: number): Promise<StoredActivity[]> {
    const start = afterSeq === undefined ? 0 : Math.max(afterSeq + 1, 0);
    const stop = limit === undefined ? -1 : start + limit - 1;
    if (limit !== undefined && limit <= 0) return [];
    const entries =
      this.replicaAcks > 0
        ? await this.redis.fieldopsRead(
            this.metaKey(conversationId),
            this.logKey(conversationId),
            start,
            limit ?? -1,
          )
        : await this.redis.lrange(this.logKey(conversationId), start, stop);
    return entries
      .filter((entry) => !entry.startsWith(VOID_ENTRY))
      .map((entry) => {
        const { s, t, a } = JSON.parse(entry) as { s: number; t: number; a: Activity };
        return { seq: s, activity: stampActivity(conversationId, s, t, a) };
      });
  }

  /** With replicas to wait for, the last seq readers may see (`acked`). */
  async lastSeq(conversationId: string): Promise<number | undefined> {
    const [exists, [seq, acked]] = await Promise.all([
      this.redis.exists(this.metaKey(conversationId)),
      this.redis.hmget(this.metaKey(conversationId), 'seq', 'acked'),
    ]);
    if (exists === 0) return undefined;
    if (this.replicaAcks > 0 && acked !== null) return Number(acked);
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
    this.closing ??= Promise.all(
      [this.redis, ...(this.replicated ? [this.replicated] : [])].map((connection) =>
        closeRedisClient(connection),
      ),
    ).then(() => undefined);
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

  /** The (bot, user) → home conversation key: a digest of both ids, so any ids make distinct keys of one size. */
  private homeKey(botId: string, userId: string): string {
    return `${this.prefix}home:${homeDigest(botId, userId)}`;
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
