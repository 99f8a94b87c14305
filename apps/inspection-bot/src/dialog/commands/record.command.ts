import { type StatePropertyAccessor } from 'botbuilder';
import { InspectionApiRefusal } from '../../inspection-api/inspection-api.errors';
import { type Device } from '../../inspection-api/inspection-api.types';
import { type ConversationTurn } from '../conversation-turn';
import { activePlanOf } from '../record-plan';
import { type RecordAnswer } from '../user-command';

/** The record a photo sent next is attached to (per conversation). */
export interface LastRecord {
  id: number;
  device: string;
  item: string;
}

/**
 * An item card's ok / warn / fail: a CheckRecord whose `checked_by` is the user name of the account behind the
 * verified `from.id` (nobody else's: an unknown or inactive account records nothing), in the device's active plan.
 */
export async function recordAnswer(
  turn: ConversationTurn,
  answer: RecordAnswer,
  lastRecord: StatePropertyAccessor<LastRecord | undefined>,
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
  const plan = activePlanOf(await turn.api.listActivePlans(), device.id);
  const record = await turn.api.createRecord({
    device: device.id,
    item: item.id,
    status: answer.status,
    value: answer.value,
    note: answer.note,
    checked_by: inspector.username,
    plan: plan?.id ?? null,
  });
  await lastRecord.set(turn.context, { id: record.id, device: device.name, item: item.name });
  await turn.reply(plan ? 'recordedInPlan' : 'recorded', {
    status: await turn.phrase(answer.status),
    item: item.name,
    device: device.name,
    plan: plan?.name ?? '',
  });
}
