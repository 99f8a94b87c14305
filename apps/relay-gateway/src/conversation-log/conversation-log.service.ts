import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ACTIVITY_BUS, type ActivityBus } from '@fieldops/bus';
import { type Activity } from '@fieldops/contracts';
import {
  CONVERSATION_STORE,
  type ConversationStore,
  type StoredActivity,
} from '@fieldops/conversation-store';
import { LOGGER, type Logger } from '@fieldops/platform';

/**
 * Appends to a conversation's log (the truth) and then wakes every stream of it on every instance (the bus). The
 * one way activities enter a conversation: the relay uses it for client activities, and bot replies take the same
 * path (connector-gateway will do the same against the shared store and bus; tests use it to play the bot).
 */
@Injectable()
export class ConversationLog {
  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    @Inject(ACTIVITY_BUS) private readonly bus: ActivityBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async append(
    conversationId: string,
    activity: Activity,
    correlationId: string = randomUUID(),
  ): Promise<StoredActivity> {
    const stored = await this.store.append(conversationId, activity);
    try {
      await this.bus.publish({ conversationId, seq: stored.seq, activity: stored.activity, correlationId });
    } catch (error) {
      // Stored is what counts: streams catch up from the store on the next wake-up or reconnect.
      this.logger.warn({ err: error, conversationId, seq: stored.seq }, 'bus publish failed after append');
    }
    return stored;
  }

  /** A bot's activity: stamped like the real service (channel, conversation) and appended; answers its id. */
  async appendFromBot(
    conversationId: string,
    activity: Activity,
    correlationId?: string,
  ): Promise<StoredActivity> {
    return this.append(
      conversationId,
      {
        ...activity,
        channelId: 'directline',
        conversation: { ...activity.conversation, id: conversationId },
      },
      correlationId,
    );
  }
}
