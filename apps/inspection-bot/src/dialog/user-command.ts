import { CHECK_STATUSES, type CheckStatus } from '../inspection-api/inspection-api.types';
import { type NotificationChange } from './commands/notifications.command';

/** What a user's message asks for. */
export type UserCommand =
  | { kind: 'devices' }
  | { kind: 'search'; term: string }
  | { kind: 'check'; code: string }
  | { kind: 'today' }
  | { kind: 'history'; code: string | undefined }
  | { kind: 'record'; answer: RecordAnswer }
  | {
      kind: 'photo';
      attachment: { contentUrl: string; contentType: string; name: string };
      /** The record the photo was taken for ("add photo" on an answered item); else the last record. */
      recordId?: number;
    }
  /** "add photo" sent as a plain submit (no file): the next photo goes to this record. */
  | { kind: 'photoTarget'; recordId: number }
  /** The answer to "which record is this photo for?": the kept photo goes to this record. */
  | { kind: 'photoChoice'; recordId: number }
  /** The answer to "the value is out of range": mark the record failed, or keep it. */
  | { kind: 'outOfRange'; recordId: number; choice: 'fail' | 'keep' }
  | { kind: 'help' }
  /** "My actions": the corrective actions assigned to the inspector. */
  | { kind: 'actions' }
  /** An action card's buttons: open it, comment on it, or close it (the next photo closes it with the note). */
  | { kind: 'action'; actionId: number }
  | { kind: 'actionComment'; actionId: number; text: string }
  | { kind: 'actionClose'; actionId: number; note: string }
  /** Show the notification preferences, after the change when there is one. */
  | { kind: 'notifications'; change?: NotificationChange }
  /** A notification command the bot could not read (`quiet 25:00`): answered with a hint, not a device search. */
  | { kind: 'notificationsHint' }
  | { kind: 'statusWithoutCard' }
  | { kind: 'nothing' };

/** The submit of an item card (Adaptive Card Action.Submit data merged with its inputs). */
export interface RecordAnswer {
  device: number;
  item: number;
  status: CheckStatus;
  value: string;
  note: string;
  /** The item card's answer id: one per card, shared by its ok / warn / fail buttons (answer-identity.ts). */
  answerId?: string;
  /** How the check was opened: `qr` when from a scanned label. */
  source?: 'qr';
  /** The inspector confirmed a second answer for an item already answered in the period. */
  again?: boolean;
}

const DEVICES = new Set(['devices', 'device', 'list', '设备', '设备列表']);
const TODAY = new Set(['today', '今天', '今日']);
const HELP = new Set(['help', '?', '帮助', '幫助']);
const ACTIONS = new Set(['actions', 'my actions', 'action', '整改', '我的整改', '整改项']);
const ANSWER_ID = /^[A-Za-z0-9-]{1,64}$/;

/** A positive integer record id from a submit's data or channelData, if any. */
function recordIdOf(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** `{command: 'attach-photo', recordId}` (the "add photo" button of an answered item). */
function photoTargetOf(value: unknown): number | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const data = value as Record<string, unknown>;
  return data.command === 'attach-photo' ? recordIdOf(data.recordId) : undefined;
}

/** `{command: 'photo-for', recordId}` (the choice of record for a photo the bot kept). */
function photoChoiceOf(value: unknown): number | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const data = value as Record<string, unknown>;
  return data.command === 'photo-for' ? recordIdOf(data.recordId) : undefined;
}

/** `{command: 'out-of-range', recordId, choice: 'fail' | 'keep'}` (the buttons after an out-of-range value). */
function outOfRangeOf(value: unknown): { recordId: number; choice: 'fail' | 'keep' } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const data = value as Record<string, unknown>;
  const recordId = recordIdOf(data.recordId);
  if (data.command !== 'out-of-range' || recordId === undefined) return undefined;
  return data.choice === 'fail' || data.choice === 'keep' ? { recordId, choice: data.choice } : undefined;
}

/** An action card's submit: `{command: 'open-action' | 'comment-action' | 'close-action', actionId, comment?, note?}`. */
function actionCommandOf(value: unknown): UserCommand | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const data = value as Record<string, unknown>;
  const actionId = recordIdOf(data.actionId);
  if (actionId === undefined) return undefined;
  const text = (field: unknown): string => (typeof field === 'string' ? field : '');
  if (data.command === 'open-action') return { kind: 'action', actionId };
  if (data.command === 'comment-action') return { kind: 'actionComment', actionId, text: text(data.comment) };
  if (data.command === 'close-action') return { kind: 'actionClose', actionId, note: text(data.note) };
  return undefined;
}

function recordAnswerOf(value: unknown): RecordAnswer | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const data = value as Record<string, unknown>;
  if (data.action !== 'record') return undefined;
  const device = Number(data.device);
  const item = Number(data.item);
  const status = data.status as CheckStatus;
  if (!Number.isInteger(device) || !Number.isInteger(item) || !CHECK_STATUSES.includes(status))
    return undefined;
  return {
    device,
    item,
    status,
    value: typeof data.value === 'string' ? data.value.trim() : '',
    note: typeof data.note === 'string' ? data.note.trim() : '',
    ...(typeof data.answer === 'string' && ANSWER_ID.test(data.answer) ? { answerId: data.answer } : {}),
    ...(data.source === 'qr' ? { source: 'qr' as const } : {}),
    ...(data.again === true ? { again: true } : {}),
  };
}

/**
 * Reads a message activity's text, card submit value and attachments as one command. `statusWords` (lower case)
 * are the status names a user might type instead of pressing a card button (the phrase catalogue's, translated).
 */
export function parseUserCommand(
  message: {
    text?: string;
    value?: unknown;
    attachments?: Array<{ contentUrl?: string; contentType?: string; name?: string }>;
    channelData?: unknown;
  },
  statusWords: ReadonlySet<string>,
): UserCommand {
  const answer = recordAnswerOf(message.value);
  if (answer) return { kind: 'record', answer };
  const outOfRange = outOfRangeOf(message.value);
  if (outOfRange) return { kind: 'outOfRange', ...outOfRange };
  const actionCommand = actionCommandOf(message.value);
  if (actionCommand) return actionCommand;
  const photoChoice = photoChoiceOf(message.value);
  if (photoChoice !== undefined) return { kind: 'photoChoice', recordId: photoChoice };
  const target =
    photoTargetOf(message.value) ??
    recordIdOf((message.channelData as { recordId?: unknown } | undefined)?.recordId);
  const file = message.attachments?.find((attachment) => typeof attachment.contentUrl === 'string');
  if (file?.contentUrl) {
    return {
      kind: 'photo',
      attachment: {
        contentUrl: file.contentUrl,
        contentType: file.contentType ?? 'application/octet-stream',
        name: file.name ?? 'photo',
      },
      ...(target !== undefined ? { recordId: target } : {}),
    };
  }
  const plainTarget = photoTargetOf(message.value);
  if (plainTarget !== undefined) return { kind: 'photoTarget', recordId: plainTarget };
  const text = (message.text ?? '').trim().replace(/\s+/g, ' ');
  if (text === '') return { kind: 'nothing' };
  const lower = text.toLowerCase();
  if (DEVICES.has(lower)) return { kind: 'devices' };
  if (TODAY.has(lower)) return { kind: 'today' };
  if (HELP.has(lower)) return { kind: 'help' };
  if (ACTIONS.has(lower)) return { kind: 'actions' };
  if (statusWords.has(lower)) return { kind: 'statusWithoutCard' };
  const notifications = notificationCommand(text);
  if (notifications) return notifications;
  const history = /^(?:history|历史)(?:\s+(.+))?$/i.exec(text);
  if (history) return { kind: 'history', code: history[1]?.trim() };
  const check = /^(?:check|检查)\s+(.+)$/i.exec(text);
  if (check?.[1]) return { kind: 'check', code: check[1].trim() };
  return { kind: 'search', term: text };
}

const OFF = '(?:off|none|关|关闭)';
const ON = '(?:on|开|开启|打开)';
const TIME = '([01]?\\d|2[0-3])[:：]([0-5]\\d)';
const twoDigits = (hours: string): string => hours.padStart(2, '0');

/**
 * The notification commands: `notifications` (通知) shows the preferences; `notifications off` / `on` (通知 关闭 /
 * 开启: the chat channel), `quiet 22:00-07:00` (免打扰), `quiet off`, `remind 08:00` (提醒), `remind off`,
 * `timezone Area/City` (时区) change them first. A message that starts with one of these words but does not read as
 * one of them is `notificationsHint`.
 */
export function notificationCommand(text: string): UserCommand | undefined {
  const hint: UserCommand = { kind: 'notificationsHint' };
  const chat = /^(?:notifications?(?=\s|$)|通知)\s*(.*)$/i.exec(text);
  if (chat) {
    const rest = chat[1] ?? '';
    if (rest === '') return { kind: 'notifications' };
    if (new RegExp(`^${OFF}$`, 'i').test(rest)) return { kind: 'notifications', change: { chat: false } };
    if (new RegExp(`^${ON}$`, 'i').test(rest)) return { kind: 'notifications', change: { chat: true } };
    return hint;
  }
  const quiet = /^(?:quiet(?=\s|$)|免打扰)\s*(.*)$/i.exec(text);
  if (quiet) {
    const rest = quiet[1] ?? '';
    if (new RegExp(`^${OFF}$`, 'i').test(rest))
      return { kind: 'notifications', change: { quiet_hours_start: null, quiet_hours_end: null } };
    const range = new RegExp(`^${TIME}\\s*(?:-|–|~|to|到|至)\\s*${TIME}$`, 'i').exec(rest);
    if (range?.[1] && range[2] && range[3] && range[4])
      return {
        kind: 'notifications',
        change: {
          quiet_hours_start: `${twoDigits(range[1])}:${range[2]}`,
          quiet_hours_end: `${twoDigits(range[3])}:${range[4]}`,
        },
      };
    return hint;
  }
  const remind = /^(?:(?:reminder|remind)(?=\s|$)|提醒)\s*(.*)$/i.exec(text);
  if (remind) {
    const rest = remind[1] ?? '';
    if (new RegExp(`^${OFF}$`, 'i').test(rest))
      return { kind: 'notifications', change: { reminder_time: null } };
    const time = new RegExp(`^${TIME}$`).exec(rest);
    if (time?.[1] && time[2])
      return { kind: 'notifications', change: { reminder_time: `${twoDigits(time[1])}:${time[2]}` } };
    return hint;
  }
  const zone = /^(?:time ?zone(?=\s|$)|时区)\s*(.*)$/i.exec(text);
  if (zone)
    return zone[1] && /^\S{1,64}$/.test(zone[1])
      ? { kind: 'notifications', change: { time_zone: zone[1] } }
      : hint;
  return undefined;
}
