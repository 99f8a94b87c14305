import { Expose } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { DEFAULT_CHANNEL_PREFIX } from '@fieldops/bus';
import { CommonEnvironment, ToInteger } from '@fieldops/platform';
import { DEFAULT_MAX_UPLOAD_BYTES } from './in-process-conversation-store';
import { DEFAULT_REPLICA_ACK_TIMEOUT_MS, DEFAULT_STORE_KEY_PREFIX } from './redis-conversation-store';
import { IsRedisUrl } from '@fieldops/redis-connection';

/**
 * The settings of the conversation state both gateways share — the conversation store and the activity bus —
 * so relay-gateway and connector-gateway read them from one definition and cannot drift apart.
 */
export class ConversationStateEnvironment extends CommonEnvironment {
  /** Redis for the activity bus and the conversation store shared by every relay and connector instance; unset: in-process. */
  @Expose()
  @IsOptional()
  @IsRedisUrl()
  REDIS_URL?: string;

  /** Prefix of the bus's Redis channels, so several platforms can share one Redis. */
  @Expose() @IsString() BUS_CHANNEL_PREFIX: string = DEFAULT_CHANNEL_PREFIX;

  /**
   * How many Redis replicas must hold an appended activity before it is acknowledged (`WAIT`), so a failover to a
   * lagging replica cannot lose or reuse an acknowledged id. Default: 1 with a Sentinel or Cluster REDIS_URL, 0 with a
   * single server (acknowledged at once). Set it on every relay and connector alike.
   *
   * @default `1` with Sentinel or Cluster, else `0`
   */
  @Expose() @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(16) STORE_REPLICA_ACKS?: number;

  /** How long an append waits for STORE_REPLICA_ACKS replicas; past it the send answers 503 (outcome unknown). */
  @Expose() @ToInteger() @IsInt() @Min(10) @Max(60_000) STORE_REPLICA_ACK_TIMEOUT_MS: number =
    DEFAULT_REPLICA_ACK_TIMEOUT_MS;

  /** Prefix of the conversation store's Redis keys (equal in both gateways). */
  @Expose() @IsString() STORE_KEY_PREFIX: string = DEFAULT_STORE_KEY_PREFIX;

  /** How long conversations, their activities and uploads are kept after their last write (equal in both gateways). */
  @Expose() @ToInteger() @IsInt() @Min(60) @Max(2_592_000) CONVERSATION_RETENTION_SECONDS: number = 86_400;

  /**
   * In-process store only (no REDIS_URL): the most bytes of uploaded files kept in memory; the oldest uploads are
   * dropped first to make room, and a single file larger than this is refused (413). With Redis, size Redis itself.
   */
  @Expose() @ToInteger() @IsInt() @Min(1_048_576) STORE_MAX_UPLOAD_BYTES: number = DEFAULT_MAX_UPLOAD_BYTES;
}
