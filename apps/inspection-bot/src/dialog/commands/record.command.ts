import { type Logger } from '@fieldops/platform';
import { alreadyAnsweredRecord, InspectionApiRefusal } from '../../inspection-api/inspection-api.errors';
import { ActionTypes, MessageFactory } from 'botbuilder';
import { type CheckItem, type CheckRecord, type Device } from '../../inspection-api/inspection-api.types';
import { recordKeyOf } from '../answer-identity';
import { type ConversationTurn } from '../conversation-turn';
import { type DialogState, type OpenCheck } from '../dialog-state';
import { type Inspector } from '../inspector-directory';
import { activePlanOf } from '../record-plan';
import { type RecordAnswer } from '../user-command';
import { clockTime, refreshCheck } from './check.command';
import { type AnsweredItem } from '../dialog-state';
import { answerRoundStart, type CheckAnswers, mergedAnswers, periodProgress } from '../check-progress';

export { type LastRecord } from '../dialog-state';

/**
 * An item card's ok / warn / fail: a CheckRecord whose `checked_by` is the user name of the account behind the
 * verified `from.id` (nobody else's: an unknown or inactive account records nothing), made with that person's own
 * access token when the chat page's session gave one (inspection-api then sets `checked_by` from the token), in the device's active plan,
 * made once per answer (`recordKeyOf`: a double tap, a retry and a resend make one record). The card then shows
 * the answer and no longer submits.
 */
export async function recordAnswer(
  turn: ConversationTurn,
  answer: RecordAnswer,
  state: DialogState,
  logger: Logger,
): Promise<void> {
  await turn.typing();
  const inspector = await turn.inspector();
  if (!inspector) {
    await turn.reply('unknownInspector');
    return;
  }
  let device: Device;
  try {
    device = await turn.api.getDevice(answer.device);
  } catch (error) {
    if (error instanceof InspectionApiRefusal && error.status === 404) {
      await turn.reply('staleCard');
      return;
    }
    throw error;
  }
  const item = device.check_items.find((candidate) => candidate.id === answer.item);
  if (!item) {
    await turn.reply('staleCard');
    return;
  }
  return recordItemAnswer(turn, answer, device, item, inspector, state, logger);
}

/**
 * The answer to `item`, read against the period's answers in inspection-api and recorded unless it has one. Two taps
 * on one item at the same moment (two phones, through any bot instance) both pass that read; the create then carries
 * the condition `if_unanswered_since` (the period's start), so inspection-api records the first and answers the
 * second 409 `already_answered`, which is said as a tap after the first would be. A confirmed **Record … as well**
 * (`again`) goes without the condition.
 */
async function recordItemAnswer(
  turn: ConversationTurn,
  answer: RecordAnswer,
  device: Device,
  item: CheckItem,
  inspector: Inspector,
  state: DialogState,
  logger: Logger,
): Promise<void> {
  const open = await state.openCheck.get(turn.context);
  const plan = activePlanOf(await turn.api.listActivePlans(), device.id);
  const shown = open?.device === device.id ? open : undefined;
  const period = await periodProgress(turn.api, device.id, plan, turn.settings.now());
  const answers = mergedAnswers(shown?.answers ?? {}, period.answers);
  const since = answer.again ? undefined : answerRoundStart(period.periodStart, shown?.openedAt);
  const earlier = answers[String(item.id)];
  const idempotencyKey = recordKeyOf(turn.context.activity, answer.answerId);
  // Answered in this period by someone else, in another conversation or before a bot restart: said, not recorded
  // again unless the inspector confirms. A repeat of the tap that made it goes on (its key answers that record).
  if (earlier && !answer.again && !(idempotencyKey && earlier.key === idempotencyKey)) {
    await showAnswered(turn, state, device, shown, answers, logger);
    await sayAnsweredInPeriod(turn, answer, item.name, earlier);
    return;
  }
  const writer = await turn.recordWriter(inspector);
  if (writer === 'signed-out') {
    await turn.reply('unknownInspector');
    return;
  }
  let record: CheckRecord;
  try {
    record = await turn.api.createRecord(
      {
        device: device.id,
        item: item.id,
        status: answer.status,
        value: answer.value,
        note: answer.note,
        checked_by: inspector.username,
        plan: plan?.id ?? null,
        // A card of a check opened from a scanned label: the record says presence was shown.
        source: answer.source ?? 'chat',
        ...(since ? { if_unanswered_since: since } : {}),
      },
      { ...writer, ...(idempotencyKey ? { idempotencyKey } : {}) },
    );
  } catch (error) {
    // 409: another answer to the item since the round started was recorded first (another phone, another bot).
    const first = alreadyAnsweredRecord(error);
    if (first) {
      const winner: AnsweredItem = {
        recordId: first.id,
        status: first.status,
        checkedAt: first.checked_at,
        inspector: first.checked_by,
        photo: first.photo !== null,
      };
      await showAnswered(turn, state, device, shown, { ...answers, [String(item.id)]: winner }, logger);
      await sayAnsweredInPeriod(turn, answer, item.name, winner);
      return;
    }
    // 422: this card's answer id already made a record with another status or value.
    if (error instanceof InspectionApiRefusal && error.status === 422) {
      if (!earlier) return turn.reply('alreadyAnsweredPlain');
      return turn.reply('alreadyAnswered', { answer: await answerLine(turn, earlier) });
    }
    throw error;
  }
  await state.lastRecord.set(turn.context, { id: record.id, device: device.name, item: item.name });
  if (shown) {
    shown.answers = {
      ...answers,
      [String(item.id)]: {
        recordId: record.id,
        status: record.status,
        checkedAt: record.checked_at,
        inspector: record.checked_by,
        photo: record.photo !== null,
        ...(idempotencyKey ? { key: idempotencyKey } : {}),
      },
    };
    await state.openCheck.set(turn.context, shown);
    await refreshCheck(turn, device, shown, logger);
  }
  await turn.reply(plan ? 'recordedInPlan' : 'recorded', {
    status: await turn.phrase(answer.status),
    item: item.name,
    device: device.name,
    plan: plan?.name ?? '',
  });
  if (record.out_of_range && record.status !== 'fail') await askAboutOutOfRange(turn, record, item);
}

/** The open check of the device (when the card is one of it) shows `answers`: its cards updated. */
async function showAnswered(
  turn: ConversationTurn,
  state: DialogState,
  device: Device,
  shown: OpenCheck | undefined,
  answers: CheckAnswers,
  logger: Logger,
): Promise<void> {
  if (!shown) return;
  shown.answers = answers;
  await state.openCheck.set(turn.context, shown);
  await refreshCheck(turn, device, shown, logger);
}

/** An answer as the check cards show it: `ok · 10:02 · alice` (in the sender's time zone). */
async function answerLine(turn: ConversationTurn, answered: AnsweredItem): Promise<string> {
  const timeZone = (turn.context.activity as { localTimezone?: string }).localTimezone;
  return turn.phrase('answeredLine', {
    status: await turn.phrase(answered.status),
    time: clockTime(answered.checkedAt, timeZone),
    inspector: answered.inspector,
  });
}

/**
 * The item already has its answer in this period: say whose and when, and offer to record this answer as well (the
 * same submit, confirmed; its answer id keeps a double tap on the button one record).
 */
async function sayAnsweredInPeriod(
  turn: ConversationTurn,
  answer: RecordAnswer,
  item: string,
  earlier: AnsweredItem,
): Promise<void> {
  const [text, again] = await turn.phrases([
    ['answeredInPeriod', { item, answer: await answerLine(turn, earlier) }],
    ['recordAgainButton', { status: await turn.phrase(answer.status) }],
  ]);
  const title = again ?? answer.status;
  const { answerId, ...rest } = answer;
  await turn.context.sendActivity(
    MessageFactory.suggestedActions(
      [
        {
          type: ActionTypes.MessageBack,
          title,
          displayText: title,
          text: title,
          value: {
            ...rest,
            action: 'record',
            again: true,
            ...(answerId ? { answer: answerId } : {}),
          },
        },
      ],
      text,
    ),
  );
}

/** The limits of a number item as the inspector reads them (`2.5–3 bar`, `≥ 2.5 bar`), or its options. */
function rangeOf(item: CheckItem): string {
  if (item.type === 'choice') return (item.options ?? []).join(' / ');
  const unit = item.unit ? ` ${item.unit}` : '';
  const [min, max] = [item.min ?? null, item.max ?? null];
  if (min !== null && max !== null) return `${min}–${max}${unit}`;
  if (min !== null) return `≥ ${min}${unit}`;
  if (max !== null) return `≤ ${max}${unit}`;
  return item.expected_value;
}

/**
 * inspection-api flagged the value out of range (its rule, `item-type.ts`): ask whether the reading is right and
 * propose to mark the check failed, with two buttons (`outOfRange` in user-command.ts).
 */
async function askAboutOutOfRange(
  turn: ConversationTurn,
  record: CheckRecord,
  item: CheckItem,
): Promise<void> {
  const status = await turn.phrase(record.status);
  const [text, fail, keep] = await turn.phrases([
    ['outOfRange', { value: record.value, item: item.name, range: rangeOf(item) }],
    ['markFailButton'],
    ['keepButton', { status }],
  ]);
  const button = (title: string | undefined, choice: 'fail' | 'keep') => ({
    type: ActionTypes.MessageBack,
    title: title ?? choice,
    displayText: title ?? choice,
    text: title ?? choice,
    value: { command: 'out-of-range', recordId: record.id, choice },
  });
  await turn.context.sendActivity(
    MessageFactory.suggestedActions([button(fail, 'fail'), button(keep, 'keep')], text),
  );
}

/** The answer to the out-of-range question: only the inspector who made the record changes it. */
export async function answerOutOfRange(
  turn: ConversationTurn,
  recordId: number,
  choice: 'fail' | 'keep',
): Promise<void> {
  const inspector = await turn.inspector();
  if (!inspector) return turn.reply('unknownInspector');
  let record: CheckRecord;
  try {
    record = await turn.api.getRecord(recordId);
  } catch (error) {
    if (error instanceof InspectionApiRefusal && error.status === 404) return turn.reply('staleCard');
    throw error;
  }
  if (record.checked_by !== inspector.username) return turn.reply('staleCard');
  const device = await turn.api.getDevice(record.device);
  const item = device.check_items.find((candidate) => candidate.id === record.item)?.name ?? device.name;
  if (choice === 'keep') return turn.reply('keptValue', { status: await turn.phrase(record.status), item });
  if (record.status !== 'fail') await turn.api.setRecordStatus(record.id, 'fail');
  await turn.reply('markedFail', { item });
}
