import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type Activity, type ChannelAccount } from '@fieldops/contracts';
import {
  botAccount,
  CONVERSATION_STORE,
  type ConversationStore,
  DIRECT_LINE_CHANNEL_ID,
} from '@fieldops/conversation-store';
import { LOGGER, type Logger } from '@fieldops/platform';
import { type BotConfig } from '@fieldops/platform-config';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { BOT_DELIVERY, type BotDelivery } from '../delivery/bot-delivery';
import { ConversationFactsCache } from './conversation-facts.cache';

/**
 * conversationUpdate activities for the bot (never shown to clients, so not in the log): at start with both members
 * when the user is known, otherwise the bot at start and the user just before that user's first message; the user
 * again at each new opening of a home conversation.
 */
@Injectable()
export class ConversationMembershipService {
  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    @Inject(BOT_DELIVERY) private readonly delivery: BotDelivery,
    private readonly environment: RelayGatewayEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly facts: ConversationFactsCache,
  ) {}

  /** Called once per conversation, by whoever claimed its `started` milestone. */
  async announceStart(
    bot: BotConfig,
    conversationId: string,
    user: { userId?: string; userName?: string; locale?: string },
  ): Promise<void> {
    const members = [botAccount(bot)];
    let from = botAccount(bot);
    if (user.userId && (await this.store.claimMilestone(conversationId, 'userJoined'))) {
      from = { id: user.userId, name: user.userName, role: 'user' };
      members.push(from);
    }
    await this.send(bot, conversationId, from, members, user.locale);
  }

  /**
   * A user opening their home conversation again (a new home-conversation token's first start): the user in
   * `membersAdded`, from the user, with the start's locale, as Direct Line announces a user at a conversation's start.
   */
  async announceJoin(
    bot: BotConfig,
    conversationId: string,
    user: { userId: string; userName?: string; locale?: string },
  ): Promise<void> {
    const account: ChannelAccount = { id: user.userId, role: 'user' };
    if (user.userName !== undefined) account.name = user.userName;
    await this.send(bot, conversationId, account, [account], user.locale);
  }

  /** Before a user's first message: announces the user unless that already happened. */
  async announceUserIfNew(bot: BotConfig, conversationId: string, user: ChannelAccount): Promise<boolean> {
    if (this.facts.isClaimed(conversationId, 'userJoined')) return false;
    const claimed = await this.store.claimMilestone(conversationId, 'userJoined');
    this.facts.rememberClaimed(conversationId, 'userJoined');
    if (!claimed) return false;
    const account: ChannelAccount = { id: user.id, role: 'user' };
    if (user.name !== undefined) account.name = user.name;
    await this.send(bot, conversationId, account, [account]);
    return true;
  }

  private async send(
    bot: BotConfig,
    conversationId: string,
    from: ChannelAccount,
    membersAdded: ChannelAccount[],
    locale?: string,
  ): Promise<void> {
    const activity: Activity = {
      type: 'conversationUpdate',
      id: `${conversationId}|update-${randomUUID()}`,
      timestamp: new Date().toISOString(),
      channelId: DIRECT_LINE_CHANNEL_ID,
      serviceUrl: this.environment.RELAY_BOT_SERVICE_URL,
      from,
      recipient: botAccount(bot),
      conversation: { id: conversationId },
      membersAdded,
    };
    if (locale) activity.locale = locale;
    const outcome = await this.delivery.deliver({ bot, activity, correlationId: randomUUID() });
    if (outcome.kind !== 'delivered') {
      this.logger.warn(
        { conversationId, bot: bot.id, outcome },
        'conversationUpdate was not accepted by the bot',
      );
    }
  }
}
