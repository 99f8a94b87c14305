import { CHECK_STATUSES, type CheckStatus } from '../inspection-api/inspection-api.types';

/** What a user's message asks for. */
export type UserCommand =
  | { kind: 'devices' }
  | { kind: 'search'; term: string }
  | { kind: 'check'; code: string }
  | { kind: 'today' }
  | { kind: 'history'; code: string | undefined }
  | { kind: 'record'; answer: RecordAnswer }
  | { kind: 'photo'; attachment: { contentUrl: string; contentType: string; name: string } }
  | { kind: 'statusWithoutCard' }
  | { kind: 'nothing' };

/** The submit of an item card (Adaptive Card Action.Submit data merged with its inputs). */
export interface RecordAnswer {
  device: number;
  item: number;
  status: CheckStatus;
  value: string;
  note: string;
}

const DEVICES = new Set(['devices', 'device', 'list', '设备', '设备列表']);
const TODAY = new Set(['today', '今天', '今日']);

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
  },
  statusWords: ReadonlySet<string>,
): UserCommand {
  const answer = recordAnswerOf(message.value);
  if (answer) return { kind: 'record', answer };
  const file = message.attachments?.find((attachment) => typeof attachment.contentUrl === 'string');
  if (file?.contentUrl) {
    return {
      kind: 'photo',
      attachment: {
        contentUrl: file.contentUrl,
        contentType: file.contentType ?? 'application/octet-stream',
        name: file.name ?? 'photo',
      },
    };
  }
  const text = (message.text ?? '').trim().replace(/\s+/g, ' ');
  if (text === '') return { kind: 'nothing' };
  const lower = text.toLowerCase();
  if (DEVICES.has(lower)) return { kind: 'devices' };
  if (TODAY.has(lower)) return { kind: 'today' };
  if (statusWords.has(lower)) return { kind: 'statusWithoutCard' };
  const history = /^(?:history|历史)(?:\s+(.+))?$/i.exec(text);
  if (history) return { kind: 'history', code: history[1]?.trim() };
  const check = /^(?:check|检查)\s+(.+)$/i.exec(text);
  if (check?.[1]) return { kind: 'check', code: check[1].trim() };
  return { kind: 'search', term: text };
}
