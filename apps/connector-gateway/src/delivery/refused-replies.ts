import { HttpException, Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { BotFrameworkError } from '@fieldops/contracts';
import { isDependencyUnavailable, LOGGER, type Logger } from '@fieldops/platform';
import { closeRedisClient, createRedisClient, hashTag, type RedisClient } from '@fieldops/redis-connection';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';

/** How long a refusal is remembered beyond the bot's delivery deadline (the delivery that waits for it ends by then). */
const MARGIN_MS = 60_000;

/** Whether a bot's send failed because the platform could not serve it (503: a dependency away, a log not replicated). */
export function isPlatformRefusal(error: unknown): boolean {
  return (
    isDependencyUnavailable(error) ||
    (error instanceof BotFrameworkError && error.status === 503) ||
    (error instanceof HttpException && error.getStatus() === 503)
  );
}

/**
 * Replies a bot sent during a turn that the platform refused with 503 (the conversation log could not store them:
 * Redis away, or too few replicas to acknowledge, `STORE_REPLICA_ACKS`). The delivery of the activity they answer
 * (`replyToId`) reads them when the bot's turn fails (5xx or past the deadline): such a turn failed because the
 * platform was away, not the bot, and the client is told to try again (503 with Retry-After), not 502 `BotError`.
 *
 * Shared by every connector instance through Redis when REDIS_URL is set (the bot's reply may reach another instance
 * than the one delivering), in the slot of the conversation's keys; in this process otherwise. A refusal that could not
 * be remembered (Redis away) is found again as a lookup that fails for the same reason, which counts as refused.
 */
@Injectable()
export class RefusedReplies implements OnApplicationShutdown {
  private readonly local = new Map<string, number>();
  private readonly redis: RedisClient | undefined;
  private readonly ttlMs: number;
  private readonly prefix: string;

  constructor(
    environment: ConnectorGatewayEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.ttlMs = environment.CONNECTOR_DELIVERY_TIMEOUT_MS + MARGIN_MS;
    this.prefix = `${environment.STORE_KEY_PREFIX}refused-reply:`;
    const redisUrl = environment.REDIS_URL?.trim();
    if (redisUrl) {
      this.redis = createRedisClient(redisUrl, { connectionName: 'fieldops-connector-refused-replies' });
      this.redis.on('error', () => undefined); // surfaced through failing commands
    }
  }

  /** Remembers that a reply to `activityId` in the conversation was refused with 503. Never rejects. */
  async note(conversationId: string, activityId: string): Promise<void> {
    const key = this.key(conversationId, activityId);
    if (!this.redis) {
      this.sweep();
      this.local.delete(key); // re-inserted at the end, keeping insertion order = expiry order
      this.local.set(key, Date.now() + this.ttlMs);
      return;
    }
    await this.redis.set(key, '1', 'PX', this.ttlMs).catch((error: unknown) => {
      this.logger.warn({ err: error, conversationId }, 'refused reply not remembered: Redis did not answer');
    });
  }

  /** Whether a reply to `activityId` was refused, or whether that cannot be told because a dependency is away. */
  async includes(conversationId: string, activityId: string): Promise<boolean> {
    const key = this.key(conversationId, activityId);
    if (!this.redis) return (this.local.get(key) ?? 0) > Date.now();
    try {
      return (await this.redis.exists(key)) === 1;
    } catch (error) {
      return isDependencyUnavailable(error);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis) await closeRedisClient(this.redis);
  }

  private key(conversationId: string, activityId: string): string {
    // The conversation's hash tag: on a Redis Cluster the key lives on the shard that refused the reply.
    return `${this.prefix}${hashTag(conversationId)}:${activityId}`;
  }

  /** Drops expired entries, oldest first (one lifetime for all: insertion order is expiry order). */
  private sweep(): void {
    const now = Date.now();
    for (const [key, expires] of this.local) {
      if (expires > now) break;
      this.local.delete(key);
    }
  }
}
