/**
 * A notification inspection-api hands the bot to send in the chat (docs/protocols/notifications.md, "Chat"):
 * the words already in the recipient's language and zone, the event's data, and who it is for.
 */
export interface ChatNotification {
  id: string;
  type: string;
  occurred_at: string;
  recipient: { id: number; username: string; role: string; language: 'en' | 'zh-CN' };
  data: Record<string, unknown>;
  names: { device: string | null; item: string | null; plan: string | null };
  message: { title: string; lines: string[]; link: string | null; link_label: string };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';

/** The body read as a ChatNotification, or undefined when it is not one. */
export function parseChatNotification(body: unknown): ChatNotification | undefined {
  if (!isObject(body)) return undefined;
  const { id, type, occurred_at, recipient, data, names, message } = body;
  if (!isString(id) || !isString(type) || !isString(occurred_at)) return undefined;
  if (!isObject(recipient) || typeof recipient.id !== 'number' || !Number.isInteger(recipient.id))
    return undefined;
  if (!isString(recipient.username) || !isString(recipient.role)) return undefined;
  if (recipient.language !== 'en' && recipient.language !== 'zh-CN') return undefined;
  if (!isObject(data) || !isObject(names) || !isObject(message)) return undefined;
  if (!isString(message.title) || !Array.isArray(message.lines) || !message.lines.every(isString))
    return undefined;
  if (!(message.link === null || isString(message.link)) || !isString(message.link_label)) return undefined;
  const name = (value: unknown): string | null => (isString(value) ? value : null);
  return {
    id,
    type,
    occurred_at,
    recipient: {
      id: recipient.id,
      username: recipient.username,
      role: recipient.role,
      language: recipient.language,
    },
    data,
    names: { device: name(names.device), item: name(names.item), plan: name(names.plan) },
    message: {
      title: message.title,
      lines: message.lines,
      link: message.link,
      link_label: message.link_label,
    },
  };
}
