import { Inject, Injectable } from '@nestjs/common';
import { type Activity, CloudAdapter, type ConversationParameters, MessageFactory } from 'botbuilder';
import { LOGGER, type Logger } from '@fieldops/platform';
import { directLineUserId } from '../chat-page/directline-token.service';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { type ChatNotification } from './chat-notification';
import { notificationCard } from './notification-card';

/** Notification ids remembered as sent (the oldest forgotten first); inspection-api's row is the lasting record. */
const REMEMBERED = 10_000;

/**
 * Sends notifications in the chat on the bot's own initiative (docs/decisions/proactive-messages.md): botbuilder's
 * `createConversationAsync` through connector-gateway (`POST /v3/conversations` with the person's Direct Line user
 * `dl_<id>`, then the card into it). Each notification id is sent once: a repeat of one sent, or one being sent,
 * is answered without sending again.
 */
@Injectable()
export class ProactiveMessages {
  /** Sent or being sent, by notification id. */
  private readonly sending = new Map<string, Promise<void>>();

  constructor(
    private readonly adapter: CloudAdapter,
    private readonly environment: InspectionBotEnvironment,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Sends it unless this id was sent (`repeat`); throws when the connector refused it (it may be asked again). */
  async send(notification: ChatNotification): Promise<'sent' | 'repeat'> {
    const pending = this.sending.get(notification.id);
    if (pending) {
      await pending;
      return 'repeat';
    }
    const attempt = this.deliver(notification);
    this.sending.set(notification.id, attempt);
    try {
      await attempt;
    } catch (error) {
      this.sending.delete(notification.id);
      throw error;
    }
    while (this.sending.size > REMEMBERED) {
      const oldest = this.sending.keys().next().value;
      if (oldest === undefined) break;
      this.sending.delete(oldest);
    }
    return 'sent';
  }

  private async deliver(notification: ChatNotification): Promise<void> {
    let conversation = '';
    const environment = this.environment;
    const appId = environment.MicrosoftAppId;
    const user = { id: directLineUserId(notification.recipient.id), name: notification.recipient.username };
    const parameters: ConversationParameters = {
      isGroup: false,
      bot: { id: appId || environment.INSPECTION_BOT_PLATFORM_ID, name: 'Inspection bot' },
      members: [user],
      channelData: { notification: { id: notification.id, type: notification.type } },
    };
    const locale = notification.recipient.language === 'zh-CN' ? 'zh-CN' : 'en-US';
    await this.adapter.createConversationAsync(
      appId,
      'directline',
      `${environment.INSPECTION_BOT_CONNECTOR_URL ?? environment.OAuthUrl}/`,
      environment.ToChannelFromBotOAuthScope,
      parameters,
      async (context) => {
        const activity: Partial<Activity> = {
          ...MessageFactory.attachment(notificationCard(notification)),
          summary: notification.message.title,
          locale,
          channelData: { notification: { id: notification.id, type: notification.type } },
        };
        conversation = context.activity.conversation.id;
        await context.sendActivity(activity);
      },
    );
    this.logger.info(
      { notification: notification.id, type: notification.type, user: user.id, conversation },
      'notification sent in the chat',
    );
  }
}
