import { randomUUID } from 'node:crypto';
import { type Activity, type Attachment, AttachmentLayoutTypes, MessageFactory } from 'botbuilder';
import { type Logger } from '@fieldops/platform';
import { type Device } from '../../inspection-api/inspection-api.types';
import { type ConversationTurn } from '../conversation-turn';
import { type DialogState, type OpenCheck } from '../dialog-state';
import { answeredItemCard, itemAdaptiveCard } from '../presenters/item-card.presenter';
import { mergedAnswers, periodAnswers } from '../check-progress';
import { activePlanOf } from '../record-plan';

/** `HH:MM` of an instant in the sender's time zone (Web Chat's `localTimezone`), else UTC. */
export function clockTime(at: string, timeZone: string | undefined): string {
  const instant = new Date(at);
  for (const zone of [timeZone, 'UTC']) {
    if (!zone) continue;
    try {
      return new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(instant);
    } catch {
      // not a time zone this runtime knows: the next one
    }
  }
  return at.slice(11, 16);
}

/** The item ids of a device with a check due or overdue now (inspection-api's due rules), in the device's order. */
async function dueItemsFirst(turn: ConversationTurn, device: Device): Promise<number[]> {
  const { open } = await turn.api.dueChecks(turn.settings.now());
  const due = open.filter((check) => check.device.id === device.id);
  const wholeDevice = due.some((check) => check.item === null);
  const dueIds = new Set(due.flatMap((check) => (check.item ? [check.item.id] : [])));
  const ids = device.check_items.map((item) => item.id);
  if (wholeDevice) return ids;
  return [...ids.filter((id) => dueIds.has(id)), ...ids.filter((id) => !dueIds.has(id))];
}

/** The check's item cards: open items with ok / warn / fail, answered ones with their answer and Add photo. */
export async function checkMessage(
  turn: ConversationTurn,
  device: Device,
  open: OpenCheck,
): Promise<Partial<Activity>> {
  const [valuePlaceholder, notePlaceholder, ok, warn, fail, addPhoto, withPhoto] = await turn.phrases([
    ['valuePlaceholder'],
    ['notePlaceholder'],
    ['ok'],
    ['warn'],
    ['fail'],
    ['addPhoto'],
    ['withPhoto'],
  ]);
  const statuses = { ok: ok ?? 'ok', warn: warn ?? 'warn', fail: fail ?? 'fail' };
  const items = [...device.check_items].sort((a, b) => indexIn(open.order, a.id) - indexIn(open.order, b.id));
  const timeZone = (turn.context.activity as { localTimezone?: string }).localTimezone;
  const cards: Attachment[] = [];
  for (const item of items) {
    const answered = open.answers[String(item.id)];
    if (answered) {
      const line = await turn.phrase('answeredLine', {
        status: statuses[answered.status],
        time: clockTime(answered.checkedAt, timeZone),
        inspector: answered.inspector,
      });
      cards.push(
        answeredItemCard(
          item,
          { line: answered.photo ? `${line} · ${withPhoto}` : line, recordId: answered.recordId },
          addPhoto ?? 'Add photo',
        ),
      );
      continue;
    }
    const expected = item.expected_value
      ? await turn.phrase('expectedValue', { expected: item.expected_value })
      : await turn.phrase('noExpectedValue');
    cards.push(
      itemAdaptiveCard(
        device,
        item,
        {
          expected,
          valuePlaceholder: valuePlaceholder ?? '',
          notePlaceholder: notePlaceholder ?? '',
          statuses,
        },
        { answerId: answerIdOf(open, item.id), ...(open.source ? { source: open.source } : {}) },
      ),
    );
  }
  const message = MessageFactory.list(cards);
  message.attachmentLayout = AttachmentLayoutTypes.List;
  return message;
}

function indexIn(order: readonly number[], id: number): number {
  const index = order.indexOf(id);
  return index === -1 ? order.length : index;
}

function answerIdOf(open: OpenCheck, item: number): string {
  open.answerIds[String(item)] ??= randomUUID();
  return open.answerIds[String(item)] ?? '';
}

/**
 * `check <code>` (a device card's button) or a scanned label: an intro (with the progress when items are already
 * answered in the current period: inspection-api's records, whichever conversation or person made them), then one
 * card per item, the answered ones with their answer. The check becomes the conversation's open check; a label
 * puts the items due now first.
 */
export async function showDevice(
  turn: ConversationTurn,
  code: string,
  state: DialogState,
  options: { source?: 'qr' } = {},
): Promise<void> {
  await turn.typing();
  const device = await turn.api.findDeviceByCode(code);
  if (!device) {
    await turn.reply(options.source === 'qr' ? 'qrUnknown' : 'unknownDevice', { code });
    return;
  }
  if (device.check_items.length === 0) {
    await turn.reply('noItems', { device: device.name, code: device.code });
    return;
  }
  const previous = await state.openCheck.get(turn.context);
  const open: OpenCheck =
    previous?.device === device.id
      ? { ...previous }
      : { device: device.id, code: device.code, order: [], answerIds: {}, answers: {} };
  open.openedAt ??= turn.settings.now().toISOString();
  if (options.source) open.source = options.source;
  const plan = activePlanOf(await turn.api.listActivePlans(), device.id);
  open.answers = mergedAnswers(
    open.answers,
    await periodAnswers(turn.api, device.id, plan, turn.settings.now()),
  );
  open.order =
    options.source === 'qr' ? await dueItemsFirst(turn, device) : device.check_items.map((i) => i.id);
  const answered = device.check_items.filter((item) => open.answers[String(item.id)]).length;
  const lines: Array<Promise<string>> = [];
  if (options.source === 'qr')
    lines.push(turn.phrase('qrOpened', { device: device.name, code: device.code }));
  lines.push(turn.phrase('deviceIntro', { device: device.name, code: device.code }));
  if (answered > 0) lines.push(turn.phrase('checkProgress', { answered, total: device.check_items.length }));
  // The intro is a message of its own: beside a card list it would be squeezed at phone widths.
  await turn.context.sendActivity(MessageFactory.text((await Promise.all(lines)).join(' ')));
  const sent = await turn.context.sendActivity(await checkMessage(turn, device, open));
  open.activityId = sent?.id;
  await state.openCheck.set(turn.context, open);
}

/** Replaces the open check's card message (the answered item shows its answer and no longer submits). */
export async function refreshCheck(
  turn: ConversationTurn,
  device: Device,
  open: OpenCheck,
  logger: Logger,
): Promise<void> {
  if (!open.activityId || !turn.settings.updateAnsweredCards) return;
  try {
    await turn.context.updateActivity({
      ...(await checkMessage(turn, device, open)),
      id: open.activityId,
      conversation: turn.context.activity.conversation,
    });
  } catch (error) {
    // The record is made: a card that could not be updated is only cosmetic (the API refuses a second answer).
    logger.warn({ reason: (error as Error).message }, 'check card update failed');
  }
}
