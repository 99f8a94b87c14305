import { type Logger } from '@fieldops/platform';
import { InspectionApiRefusal } from '../../inspection-api/inspection-api.errors';
import { type CheckRecord, type Device } from '../../inspection-api/inspection-api.types';
import { recordKeyOf } from '../answer-identity';
import { type ConversationTurn } from '../conversation-turn';
import { type DialogState } from '../dialog-state';
import { activePlanOf } from '../record-plan';
import { type RecordAnswer } from '../user-command';
import { clockTime, refreshCheck } from './check.command';

export { type LastRecord } from '../dialog-state';

/**
 * An item card's ok / warn / fail: a CheckRecord whose `checked_by` is the user name of the account behind the
 * verified `from.id` (nobody else's: an unknown or inactive account records nothing), in the device's active plan,
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
  const open = await state.openCheck.get(turn.context);
  const plan = activePlanOf(await turn.api.listActivePlans(), device.id);
  const idempotencyKey = recordKeyOf(turn.context.activity, answer.answerId);
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
      },
      idempotencyKey ? { idempotencyKey } : {},
    );
  } catch (error) {
    // 422: this card's answer id already made a record with another status or value.
    if (error instanceof InspectionApiRefusal && error.status === 422) {
      const earlier = open?.device === device.id ? open.answers[String(item.id)] : undefined;
      if (!earlier) return turn.reply('alreadyAnsweredPlain');
      const timeZone = (turn.context.activity as { localTimezone?: string }).localTimezone;
      return turn.reply('alreadyAnswered', {
        answer: await turn.phrase('answeredLine', {
          status: await turn.phrase(earlier.status),
          time: clockTime(earlier.checkedAt, timeZone),
          inspector: earlier.inspector,
        }),
      });
    }
    throw error;
  }
  await state.lastRecord.set(turn.context, { id: record.id, device: device.name, item: item.name });
  if (open?.device === device.id) {
    open.answers[String(item.id)] = {
      recordId: record.id,
      status: record.status,
      checkedAt: record.checked_at,
      inspector: record.checked_by,
      photo: record.photo !== null,
    };
    await state.openCheck.set(turn.context, open);
    await refreshCheck(turn, device, open, logger);
  }
  await turn.reply(plan ? 'recordedInPlan' : 'recorded', {
    status: await turn.phrase(answer.status),
    item: item.name,
    device: device.name,
    plan: plan?.name ?? '',
  });
}
