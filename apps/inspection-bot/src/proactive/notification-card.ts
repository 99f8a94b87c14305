import { type Attachment, CardFactory } from 'botbuilder';
import { type ChatNotification } from './chat-notification';

const START_CHECK: Record<ChatNotification['recipient']['language'], string> = {
  en: 'Start the check',
  'zh-CN': '开始检查',
};

/** The device code of a check event (`data.device.code`), or undefined. */
function deviceCode(data: Record<string, unknown>): string | undefined {
  const device = data.device;
  if (typeof device !== 'object' || device === null) return undefined;
  const code = (device as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/**
 * The card of a proactive message: its title and lines; a due or overdue check opens the check in the chat (the
 * `check <device code>` command, sent as the person's message), anything else opens the console page of the
 * record or action when inspection-api gave a link.
 */
export function notificationCard(notification: ChatNotification): Attachment {
  const { message, data, type, recipient } = notification;
  const actions: unknown[] = [];
  const code = deviceCode(data);
  if ((type === 'check.due' || type === 'check.overdue') && code !== undefined)
    actions.push({ type: 'Action.Submit', title: START_CHECK[recipient.language], data: `check ${code}` });
  else if (message.link !== null)
    actions.push({ type: 'Action.OpenUrl', title: message.link_label, url: message.link });
  return CardFactory.adaptiveCard({
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.3',
    lang: recipient.language,
    body: [
      { type: 'TextBlock', text: message.title, weight: 'Bolder', size: 'Medium', wrap: true },
      ...message.lines.map((line) => ({ type: 'TextBlock', text: line, wrap: true, spacing: 'Small' })),
    ],
    actions,
  });
}
