import { Injectable } from '@nestjs/common';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { parseNetworks } from '../webhooks/webhook-address';
import { postWebhook } from '../webhooks/webhook-sender';
import { signatureHeaders } from '../webhooks/webhook-signature';
import { type NotificationMessage, type NotificationSubject } from './notification-messages';
import { type NotificationLanguage } from './notification-preferences.service';

/** What inspection-api hands the inspection bot for one chat notification (docs/protocols/notifications.md). */
export interface ChatNotificationBody {
  /** The notification's id (a `notifications` row); the bot sends each id once. */
  id: string;
  type: string;
  occurred_at: string;
  recipient: { id: number; username: string; role: string; language: NotificationLanguage };
  /** The event's data, as webhooks carry it. */
  data: Record<string, unknown>;
  /** Names of what the event refers to, read when it is sent. */
  names: NotificationSubject['names'];
  /** The words, in the recipient's language and zone. */
  message: { title: string; lines: string[]; link: string | null; link_label: string };
}

/** The bot's address is the operator's own: any network may be reached (unlike supervisors' webhook endpoints). */
const ANY_NETWORK = parseNetworks(['0.0.0.0/0', '::/0']);

/**
 * Hands chat notifications to the inspection bot (docs/decisions/proactive-messages.md): a POST to
 * INSPECTION_CHAT_NOTIFICATIONS_URL signed the Standard Webhooks way with INSPECTION_CHAT_NOTIFICATIONS_SECRET
 * (`webhook-id` = `notification_<id>`), no redirects, INSPECTION_WEBHOOK_TIMEOUT_MS. A 2xx means the bot sent it.
 */
@Injectable()
export class ChatHandover {
  constructor(private readonly environment: InspectionApiEnvironment) {}

  /** Whether chat notifications are configured. */
  get enabled(): boolean {
    return (
      this.environment.INSPECTION_CHAT_NOTIFICATIONS_URL !== undefined &&
      this.environment.INSPECTION_CHAT_NOTIFICATIONS_SECRET !== undefined
    );
  }

  /** The body of a notification's hand-over. */
  static body(
    id: string,
    subject: NotificationSubject,
    recipient: ChatNotificationBody['recipient'],
    message: NotificationMessage,
  ): ChatNotificationBody {
    return {
      id,
      type: subject.type,
      occurred_at: subject.occurredAt.toISOString(),
      recipient,
      data: subject.data,
      names: subject.names,
      message: {
        title: message.title,
        lines: message.lines,
        link: message.link,
        link_label: message.linkLabel,
      },
    };
  }

  /** Posts it; throws (to be retried) unless the bot answered 2xx. */
  async send(body: ChatNotificationBody): Promise<void> {
    const { INSPECTION_CHAT_NOTIFICATIONS_URL: url, INSPECTION_CHAT_NOTIFICATIONS_SECRET: secret } =
      this.environment;
    if (url === undefined || secret === undefined) throw new Error('chat notifications are not configured');
    const json = JSON.stringify(body);
    const outcome = await postWebhook(url, signatureHeaders(secret, `notification_${body.id}`, json), json, {
      timeoutMs: this.environment.INSPECTION_WEBHOOK_TIMEOUT_MS,
      allowed: ANY_NETWORK,
      userAgent: 'FieldOps-Notifications/1',
    });
    if (!outcome.ok) throw new Error(`the inspection bot: ${outcome.error}`);
  }
}
