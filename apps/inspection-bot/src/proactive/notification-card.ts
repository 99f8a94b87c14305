import { type Attachment, CardFactory } from 'botbuilder';
import { type CheckStatus } from '../inspection-api/inspection-api.types';
import { STATUS_TEXT_COLOURS } from '../dialog/presenters/item-card.presenter';
import { type ChatNotification } from './chat-notification';

type Language = ChatNotification['recipient']['language'];

const START_CHECK: Record<Language, string> = {
  en: 'Start the check',
  'zh-CN': '开始检查',
};

const OPEN_ACTION: Record<Language, string> = {
  en: 'Open the action',
  'zh-CN': '打开整改',
};

/** The status an alert about a record tells of. */
const RECORD_STATUSES: Partial<Record<string, CheckStatus>> = {
  'record.failed': 'fail',
  'record.warned': 'warn',
};

/**
 * The action an `action.*` event is about (`data.id`), when the recipient can open it in the chat: an inspector
 * (told only of their own actions: theirs or their team's) or its assignee. A supervisor told of someone else's
 * action gets the console link instead (the chat opens only a person's own actions).
 */
function actionToOpen(notification: ChatNotification): number | undefined {
  const { type, data, recipient } = notification;
  if (!type.startsWith('action.')) return undefined;
  const id = data.id;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) return undefined;
  return recipient.role !== 'supervisor' || data.assignee === recipient.id ? id : undefined;
}

/** The device code of a check event (`data.device.code`), or undefined. */
function deviceCode(data: Record<string, unknown>): string | undefined {
  const device = data.device;
  if (typeof device !== 'object' || device === null) return undefined;
  const code = (device as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/**
 * The card of a proactive message: its title and lines; a due or overdue check opens the check in the chat (the
 * `check <device code>` command, sent as the person's message), an action event opens the action in the chat for
 * its people (the action card's `open-action` submit, as "my actions" opens it), anything else opens the console
 * page of the record or action when inspection-api gave a link. An alert about a failed or warned check has its
 * title in the status's colour, as the check cards draw the status (`STATUS_TEXT_COLOURS`).
 */
export function notificationCard(notification: ChatNotification): Attachment {
  const { message, data, type, recipient } = notification;
  const actions: unknown[] = [];
  const code = deviceCode(data);
  const action = actionToOpen(notification);
  const status = RECORD_STATUSES[type];
  if ((type === 'check.due' || type === 'check.overdue') && code !== undefined)
    actions.push({ type: 'Action.Submit', title: START_CHECK[recipient.language], data: `check ${code}` });
  else if (action !== undefined)
    actions.push({
      type: 'Action.Submit',
      title: OPEN_ACTION[recipient.language],
      data: { command: 'open-action', actionId: action },
    });
  else if (message.link !== null)
    actions.push({ type: 'Action.OpenUrl', title: message.link_label, url: message.link });
  return CardFactory.adaptiveCard({
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.3',
    lang: recipient.language,
    body: [
      {
        type: 'TextBlock',
        text: message.title,
        weight: 'Bolder',
        size: 'Medium',
        wrap: true,
        ...(status ? { color: STATUS_TEXT_COLOURS[status] } : {}),
      },
      ...message.lines.map((line) => ({ type: 'TextBlock', text: line, wrap: true, spacing: 'Small' })),
    ],
    actions,
  });
}
