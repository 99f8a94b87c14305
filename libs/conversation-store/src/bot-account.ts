import { type ChannelAccount } from '@fieldops/contracts';

/**
 * A conversation's bot as both gateways know it: its platform id (`id` in the platform configuration, the
 * `botId` of the conversation's record) and the display name it has in conversations (the configuration's `name`).
 * relay-gateway's `BotConfig` and connector-gateway's `BotRegistration` both are one.
 */
export interface ConversationBot {
  readonly id: string;
  readonly name: string;
}

/** The bot's ChannelAccount in its conversations: the recipient of client activities, the sender of its own. */
export function botAccount(bot: ConversationBot): ChannelAccount {
  return { id: bot.id, name: bot.name, role: 'bot' };
}
