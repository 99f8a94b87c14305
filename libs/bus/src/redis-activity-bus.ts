import { setTimeout as delay } from 'node:timers/promises';
import { type ActivityEnvelope } from '@fieldops/contracts';
import {
  closeRedisClient,
  createRedisClient,
  hashTag,
  isClusterClient,
  redactRedisUrl,
  type RedisClient,
} from '@fieldops/redis-connection';
import { type ActivityBus, type ActivityEnvelopeHandler, type BusSubscription } from './activity-bus';
import { type ActivityBusLogger } from './activity-bus-logger';
import {
  assertConversationId,
  decodeActivityEnvelope,
  encodeActivityEnvelope,
} from './activity-envelope-codec';
import { ConnectionErrorReporter } from './connection-error-reporter';
import {
  dispatchToHandlers,
  type HandlerErrorReporter,
  type HandlerRegistration,
  logHandlerError,
} from './handler-dispatch';
import { withTimeout } from './with-timeout';

/** Channel name prefix used when none is configured; the conversation id is appended. */
export const DEFAULT_CHANNEL_PREFIX = 'fieldops:conversation:';

export interface RedisActivityBusOptions {
  /** e.g. `redis://:password@redis:6379/0`, `redis+cluster://a:7000,b:7000` or `redis+sentinel://s:26379/name`. */
  redisUrl: string;
  /**
   * Prepended to the conversation id to form the channel name. Default {@link DEFAULT_CHANNEL_PREFIX}. On a Redis
   * Cluster the id is hash-tagged (`<prefix>{<id>}`), so the shard channel lives on the shard of the conversation's keys.
   */
  channelPrefix?: string;
  /** Connection problems (deduplicated per outage), dropped messages and handler errors go here. */
  logger?: ActivityBusLogger;
  /** Called for each handler that throws; defaults to logging through `logger`. */
  onHandlerError?: HandlerErrorReporter;
  /** Names the connections `<name>-publisher` and `<name>-subscriber` (CLIENT LIST). Default 'fieldops-bus'. */
  connectionName?: string;
  /** How long `checkReady()` waits for both connections before rejecting. Default 2000 ms. */
  readyTimeoutMs?: number;
  /** How long `close()` waits for QUIT before dropping the connections. Default 1000 ms. */
  closeTimeoutMs?: number;
}

/** Local state of one Redis channel (one conversation) on this instance. */
interface ChannelState {
  readonly registrations: Set<HandlerRegistration>;
  /** Whether the subscriber connection holds a SUBSCRIBE for the channel (ioredis re-issues it after reconnects). */
  redisSubscribed: boolean;
  /** Tail of this channel's serialized subscribe/unsubscribe operations. */
  operationsTail: Promise<void>;
  pendingOperations: number;
}

type RedisConnectionRole = 'publisher' | 'subscriber';

/**
 * How a server-side script publishes an envelope on this bus itself, in the same step as it writes (the conversation
 * store's append does): the conversation's channel, and the command that reaches this bus's subscribers.
 */
export interface RedisPublishRoute {
  readonly channel: string;
  /** SPUBLISH on a Redis Cluster (sharded pub/sub), PUBLISH otherwise. */
  readonly command: 'PUBLISH' | 'SPUBLISH';
}

/**
 * Multi-instance bus over Redis pub/sub: one channel per conversation, one publisher and one subscriber
 * connection per bus. On a Redis Cluster it uses sharded pub/sub (SPUBLISH/SSUBSCRIBE, Redis 7): a message travels
 * only to the shard owning the conversation, and ioredis keeps one subscriber connection per primary. Channel subscriptions are reference-counted across handlers. ioredis reconnects with
 * capped backoff and re-subscribes every channel afterwards; envelopes published while the subscriber is
 * disconnected are lost, which is acceptable for a wake-up signal.
 */
export class RedisActivityBus implements ActivityBus {
  readonly kind = 'redis' as const;
  /** Prefix in use, e.g. for tests that watch the raw channel. */
  readonly channelPrefix: string;

  /** Whether the bus is on a Redis Cluster and so uses sharded pub/sub. */
  readonly sharded: boolean;
  private readonly publisher: RedisClient;
  private readonly subscriber: RedisClient;
  private readonly connectionReporters: Record<RedisConnectionRole, ConnectionErrorReporter>;
  private readonly channels = new Map<string, ChannelState>();
  private readonly target: string;
  private readonly redisUrl: string;
  private readonly logger: ActivityBusLogger | undefined;
  private readonly reportHandlerError: HandlerErrorReporter;
  private readonly readyTimeoutMs: number;
  private readonly closeTimeoutMs: number;
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly resubscribedListeners = new Set<() => void>();
  /** Whether the subscriber connection has been ready before (a later 'ready' is a reconnection). */
  private subscriberWasReady = false;
  /** Between a reconnection and Redis confirming every channel again: envelopes may still be missed (not ready). */
  private resubscribing = false;

  constructor(options: RedisActivityBusOptions) {
    this.channelPrefix = options.channelPrefix ?? DEFAULT_CHANNEL_PREFIX;
    this.redisUrl = options.redisUrl.trim();
    this.target = redactRedisUrl(options.redisUrl);
    this.logger = options.logger;
    this.reportHandlerError = options.onHandlerError ?? logHandlerError(options.logger);
    this.readyTimeoutMs = options.readyTimeoutMs ?? 2_000;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 1_000;
    this.connectionReporters = {
      publisher: new ConnectionErrorReporter({
        connection: 'publisher',
        target: this.target,
        logger: this.logger,
      }),
      subscriber: new ConnectionErrorReporter({
        connection: 'subscriber',
        target: this.target,
        logger: this.logger,
      }),
    };

    const connectionName = options.connectionName ?? 'fieldops-bus';
    // Publishes issued in the same tick go out in one write (the subscriber connection only subscribes).
    this.publisher = createRedisClient(options.redisUrl, {
      connectionName: `${connectionName}-publisher`,
      enableAutoPipelining: true,
    });
    this.subscriber = createRedisClient(options.redisUrl, {
      connectionName: `${connectionName}-subscriber`,
      shardedSubscribers: true,
      // A SUBSCRIBE issued while Redis is away waits for the reconnection (ioredis re-subscribes then).
      failFast: false,
    });
    this.sharded = isClusterClient(this.subscriber);
    this.watchConnection(this.publisher, this.connectionReporters.publisher);
    this.watchConnection(this.subscriber, this.connectionReporters.subscriber);
    const deliver = (channelName: string, message: string) => this.deliver(channelName, message);
    if (this.sharded) {
      this.subscriber.on('smessage', deliver);
      // ioredis re-subscribes the shard channels after a failover or resharding moved them to another node.
      this.subscriber.on('subscribersReady', () => {
        this.resubscribing = true;
        void this.resubscribeAndNotify();
      });
    } else {
      this.subscriber.on('message', deliver);
      this.subscriber.on('ready', () => {
        if (this.subscriberWasReady) {
          this.resubscribing = true;
          void this.resubscribeAndNotify();
        }
        this.subscriberWasReady = true;
      });
    }
  }

  onResubscribed(listener: () => void): () => void {
    this.resubscribedListeners.add(listener);
    return () => this.resubscribedListeners.delete(listener);
  }

  /**
   * After a reconnection: SUBSCRIBE every channel again and wait for Redis to confirm (ioredis re-issues them too,
   * without telling when they hold; a repeated SUBSCRIBE is harmless), then tell the listeners to catch up.
   */
  private async resubscribeAndNotify(): Promise<void> {
    const channelNames = [...this.channels.entries()]
      .filter(([, channel]) => channel.redisSubscribed)
      .map(([channelName]) => channelName);
    try {
      if (this.sharded) {
        // One SSUBSCRIBE per channel: the channels of one call must share a slot.
        await Promise.all(channelNames.map((channelName) => this.subscriber.ssubscribe(channelName)));
      } else if (channelNames.length > 0) {
        await this.subscriber.subscribe(...channelNames);
      }
    } catch (error) {
      // Cut off again: the next 'ready' tries once more.
      this.logger?.warn({ err: error }, 'Redis activity bus could not re-subscribe after reconnecting');
      return;
    }
    this.resubscribing = false;
    if (this.closed) return;
    for (const listener of [...this.resubscribedListeners]) {
      try {
        listener();
      } catch (error) {
        this.logger?.error({ err: error }, 'Redis activity bus resubscribed-listener failed');
      }
    }
  }

  async publish(envelope: ActivityEnvelope): Promise<void> {
    this.assertOpen();
    const message = encodeActivityEnvelope(envelope);
    const channelName = this.channelFor(envelope.conversationId);
    if (this.sharded) await this.publisher.spublish(channelName, message);
    else await this.publisher.publish(channelName, message);
  }

  /** Whether this bus is on the Redis the URL names, so a script run there reaches its subscribers. */
  isOn(redisUrl: string): boolean {
    return redisUrl.trim() === this.redisUrl;
  }

  /**
   * Where a script on this bus's Redis (see {@link isOn}) publishes an envelope of the conversation: the message must
   * be exactly what {@link publish} would send (`encodeActivityEnvelope`). On a cluster the channel carries the
   * conversation's hash tag, so a script whose keys carry it too may SPUBLISH there (same slot).
   */
  publishRouteFor(conversationId: string): RedisPublishRoute {
    return {
      channel: this.channelFor(conversationId),
      command: this.sharded ? 'SPUBLISH' : 'PUBLISH',
    };
  }

  async subscribe(conversationId: string, handler: ActivityEnvelopeHandler): Promise<BusSubscription> {
    this.assertOpen();
    assertConversationId(conversationId);
    const channelName = this.channelFor(conversationId);
    const channel = this.channelStateFor(channelName);
    const registration: HandlerRegistration = { handler, active: false };
    await this.serialize(channelName, channel, async () => {
      this.assertOpen();
      if (!channel.redisSubscribed) {
        if (this.sharded) await this.subscriber.ssubscribe(channelName);
        else await this.subscriber.subscribe(channelName);
        channel.redisSubscribed = true;
      }
      registration.active = true;
      channel.registrations.add(registration);
    });
    return { unsubscribe: () => this.unsubscribe(channelName, channel, registration) };
  }

  async checkReady(): Promise<void> {
    this.assertOpen();
    const deadline = Date.now() + this.readyTimeoutMs;
    await Promise.all([this.probe('publisher', deadline), this.probe('subscriber', deadline)]);
    if (this.resubscribing)
      throw new Error(`Redis activity bus is not subscribed: re-subscribing its channels on ${this.target}`);
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    for (const channel of this.channels.values()) {
      for (const registration of channel.registrations) registration.active = false;
    }
    this.channels.clear();
    await Promise.all([
      closeRedisClient(this.publisher, this.closeTimeoutMs),
      closeRedisClient(this.subscriber, this.closeTimeoutMs),
    ]);
  }

  /** Removes one handler; the last handler of a channel also unsubscribes the channel in Redis. */
  private unsubscribe(
    channelName: string,
    channel: ChannelState,
    registration: HandlerRegistration,
  ): Promise<void> {
    if (!registration.active) return Promise.resolve();
    registration.active = false;
    channel.registrations.delete(registration);
    return this.serialize(channelName, channel, async () => {
      if (this.closed || !channel.redisSubscribed || channel.registrations.size > 0) return;
      try {
        if (this.sharded) await this.subscriber.sunsubscribe(channelName);
        else await this.subscriber.unsubscribe(channelName);
        channel.redisSubscribed = false;
      } catch (error) {
        // The handler is already detached; the idle channel stays subscribed until a later unsubscribe succeeds.
        this.logger?.warn(
          { err: error, channel: channelName },
          'Redis activity bus could not unsubscribe a channel',
        );
      }
    });
  }

  /** Runs subscribe/unsubscribe operations of one channel one after another, so the reference count matches Redis. */
  private serialize(
    channelName: string,
    channel: ChannelState,
    operation: () => Promise<void>,
  ): Promise<void> {
    channel.pendingOperations += 1;
    const result = channel.operationsTail.then(operation);
    channel.operationsTail = result.catch(() => undefined);
    return result.finally(() => {
      channel.pendingOperations -= 1;
      this.forgetChannelIfIdle(channelName, channel);
    });
  }

  private channelStateFor(channelName: string): ChannelState {
    let channel = this.channels.get(channelName);
    if (!channel) {
      channel = {
        registrations: new Set(),
        redisSubscribed: false,
        operationsTail: Promise.resolve(),
        pendingOperations: 0,
      };
      this.channels.set(channelName, channel);
    }
    return channel;
  }

  private forgetChannelIfIdle(channelName: string, channel: ChannelState): void {
    const idle =
      channel.pendingOperations === 0 && channel.registrations.size === 0 && !channel.redisSubscribed;
    if (idle && this.channels.get(channelName) === channel) this.channels.delete(channelName);
  }

  private deliver(channelName: string, message: string): void {
    if (this.closed) return;
    const channel = this.channels.get(channelName);
    if (!channel || channel.registrations.size === 0) return;
    let envelope: ActivityEnvelope;
    try {
      envelope = decodeActivityEnvelope(message);
    } catch (error) {
      this.logger?.warn(
        { err: error, channel: channelName, messagePreview: message.slice(0, 200) },
        'Redis activity bus dropped an invalid message',
      );
      return;
    }
    if (this.channelFor(envelope.conversationId) !== channelName) {
      this.logger?.warn(
        { channel: channelName, conversationId: envelope.conversationId, seq: envelope.seq },
        'Redis activity bus dropped an envelope published on another conversation’s channel',
      );
      return;
    }
    dispatchToHandlers(channel.registrations, envelope, this.reportHandlerError);
  }

  /** Waits (until the deadline) for the connection to be ready, then pings through it. */
  private async probe(role: RedisConnectionRole, deadline: number): Promise<void> {
    const client = role === 'publisher' ? this.publisher : this.subscriber;
    while (client.status !== 'ready') {
      if (client.status === 'end' || Date.now() >= deadline) throw new Error(this.notReadyMessage(role));
      await delay(25);
    }
    await withTimeout(
      client.ping(),
      Math.max(deadline - Date.now(), 1),
      () => new Error(this.notReadyMessage(role)),
    );
  }

  private notReadyMessage(role: RedisConnectionRole): string {
    const client = role === 'publisher' ? this.publisher : this.subscriber;
    const lastError = this.connectionReporters[role].lastError;
    return (
      `Redis activity bus is not ready: ${role} connection to ${this.target} is ${client.status}` +
      ` after ${this.readyTimeoutMs} ms` +
      (lastError ? ` (last error: ${lastError.message})` : '')
    );
  }

  private watchConnection(client: RedisClient, reporter: ConnectionErrorReporter): void {
    client.on('error', (error: Error) => reporter.recordError(error));
    client.on('reconnecting', (retryDelayMs: number) => {
      if (!this.closed) reporter.recordDisconnect(retryDelayMs);
    });
    client.on('ready', () => reporter.recordReady());
  }

  private channelFor(conversationId: string): string {
    return this.sharded
      ? `${this.channelPrefix}${hashTag(conversationId)}`
      : `${this.channelPrefix}${conversationId}`;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Redis activity bus is closed');
  }
}
