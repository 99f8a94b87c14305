import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ACTIVITY_BUS, type ActivityBus, type ActivityBusLogger, RedisActivityBus } from '@fieldops/bus';
import { type Activity, type ChannelAccount, type ConversationAccount } from '@fieldops/contracts';
import { LOGGER } from '@fieldops/platform';
import { botAccount, type ConversationBot } from './bot-account';
import { withLivestreamChannelData } from './livestream-metadata';
import { CONVERSATION_STORE, type ConversationStore, type StoredActivity } from './conversation-store';
import { RedisConversationStore } from './redis-conversation-store';

/**
 * How an activity enters a conversation, whoever sends it: it is stamped for the conversation (below), appended to
 * the conversation's log in the store (the truth: the store adds `id` = `{conversationId}|{seq7}` and a timestamp
 * strictly increasing with seq, see `ConversationStore.append`), and then published on the bus, which only wakes
 * the streams of the conversation on every relay instance (a stream that missed it reads the store).
 *
 * The stamps differ by sender, as the Direct Line and Bot Connector protocols require:
 * - every activity: `channelId: directline` and `conversation.id` are the log's, never the sender's say; a sent
 *   `id`/`timestamp` is dropped (the store's replace them);
 * - a client's ({@link stampClientActivity}, relay-gateway): `serviceUrl` (where the bot answers), `recipient` =
 *   the bot, and `from.id` = the user id embedded in the client's token when there is one;
 * - a bot's own ({@link stampBotActivity}, connector-gateway's `/v3` and test bots): a livestream's `streaminfo`
 *   entity copied into `channelData` for Web Chat (`livestream-metadata.ts`); `from` is the bot (its id and
 *   role always; its name unless the bot gave one), so a bot can never speak as a user;
 * - a bot's history ({@link stampHistoryActivity}, SendConversationHistory): kept as written, `from` included,
 *   since the transcript holds the user's activities too.
 */

/** The channel of every activity in a log: this platform speaks Direct Line only. */
export const DIRECT_LINE_CHANNEL_ID = 'directline';

declare const stamped: unique symbol;

/** An activity stamped for its conversation by one of the `stamp…Activity` functions: what the log appends. */
export type StampedActivity = Activity & {
  readonly conversation: ConversationAccount;
  readonly [stamped]: true;
};

/** Who sent a client activity, as relay-gateway authenticated it. */
export interface ClientSender {
  /** The conversation's bot, the activity's recipient. */
  bot: ConversationBot;
  /** The user id embedded in the client's token; when set it wins over the activity's `from.id`. */
  userId?: string;
  /** Where the bot sends its replies: connector-gateway's public URL. */
  serviceUrl: string;
}

/** A validated client activity (it has `from.id`), stamped for the bot. */
export function stampClientActivity(
  conversationId: string,
  activity: Activity,
  client: ClientSender,
): StampedActivity & { readonly from: ChannelAccount } {
  const { id: _id, timestamp: _timestamp, ...rest } = activity;
  return {
    ...rest,
    channelId: DIRECT_LINE_CHANNEL_ID,
    serviceUrl: client.serviceUrl,
    from: { ...rest.from!, id: client.userId ? client.userId : rest.from!.id },
    recipient: botAccount(client.bot),
    conversation: conversationAccount(rest, conversationId),
  } as StampedActivity & { readonly from: ChannelAccount };
}

/** A validated activity the bot sends as itself. */
export function stampBotActivity(
  conversationId: string,
  activity: Activity,
  bot: ConversationBot,
): StampedActivity {
  const { id: _id, timestamp: _timestamp, ...rest } = withLivestreamChannelData(activity);
  return {
    ...rest,
    channelId: DIRECT_LINE_CHANNEL_ID,
    from: { ...botAccount(bot), ...rest.from, id: bot.id, role: 'bot' },
    conversation: conversationAccount(rest, conversationId),
  } as StampedActivity;
}

/** A validated activity of a transcript a bot uploads: kept as written but for channel, conversation, id and time. */
export function stampHistoryActivity(conversationId: string, activity: Activity): StampedActivity {
  const { id: _id, timestamp: _timestamp, ...rest } = activity;
  return {
    ...rest,
    channelId: DIRECT_LINE_CHANNEL_ID,
    conversation: conversationAccount(rest, conversationId),
  } as StampedActivity;
}

function conversationAccount(activity: Activity, conversationId: string): ConversationAccount {
  return {
    ...(typeof activity.conversation === 'object' ? activity.conversation : {}),
    id: conversationId,
  };
}

/** What the log logs: a publish that failed after the append. A pino logger is one. */
export type ConversationLogLogger = Pick<ActivityBusLogger, 'warn'>;

/**
 * The one way activities enter a conversation (see the stamps above): relay-gateway appends client activities,
 * connector-gateway the bots' (and tests play the bot through {@link appendFromBot}), against the same store and bus.
 */
@Injectable()
export class ConversationLog {
  /** Set when store and bus are on one Redis: the append script publishes the envelope itself. */
  private readonly fused: { store: RedisConversationStore; bus: RedisActivityBus } | undefined;

  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    @Inject(ACTIVITY_BUS) private readonly bus: ActivityBus,
    @Inject(LOGGER) private readonly logger: ConversationLogLogger,
  ) {
    this.fused =
      store instanceof RedisConversationStore && bus instanceof RedisActivityBus && store.canPublishOn(bus)
        ? { store, bus }
        : undefined;
  }

  /**
   * Appends to the activity's conversation (the truth), then publishes it (the wake-up). Rejects with
   * `UnknownConversationError` for a conversation the store does not hold (never created, or expired); a failed
   * publish is only logged: streams catch up from the store on their next wake-up or reconnect.
   *
   * When store and bus share one Redis (a single server, a Sentinel-managed primary or a cluster), both happen in one
   * server-side script (`RedisConversationStore.appendAndPublish`): one round trip, bus order equal to seq order, and
   * on a cluster an `SPUBLISH` to the conversation's tagged channel (`<prefix>{<id>}`, see `RedisActivityBus`), which
   * lives in the slot of the conversation's keys. The script is idempotent, so a re-sent append never appends twice.
   */
  async append(activity: StampedActivity, correlationId: string = randomUUID()): Promise<StoredActivity> {
    const conversationId = activity.conversation.id;
    // The bus's own check (encodeActivityEnvelope) wants a string type; anything else takes the bus path, which
    // refuses to publish it after the append, as it always did.
    if (this.fused && typeof activity.type === 'string') {
      const { stored, publishError } = await this.fused.store.appendAndPublish(conversationId, activity, {
        route: this.fused.bus.publishRouteFor(conversationId),
        correlationId,
      });
      if (publishError !== undefined) {
        this.logger.warn(
          { err: new Error(publishError), conversationId, seq: stored.seq },
          'bus publish failed after append',
        );
      }
      return stored;
    }
    const stored = await this.store.append(conversationId, activity);
    try {
      await this.bus.publish({ conversationId, seq: stored.seq, activity: stored.activity, correlationId });
    } catch (error) {
      this.logger.warn({ err: error, conversationId, seq: stored.seq }, 'bus publish failed after append');
    }
    return stored;
  }

  /** An activity the bot sends as itself ({@link stampBotActivity}), appended and published. */
  appendFromBot(
    conversationId: string,
    activity: Activity,
    bot: ConversationBot,
    correlationId?: string,
  ): Promise<StoredActivity> {
    return this.append(stampBotActivity(conversationId, activity, bot), correlationId);
  }
}
