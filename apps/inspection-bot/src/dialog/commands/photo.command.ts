import { MessageFactory } from 'botbuilder';
import { type Logger } from '@fieldops/platform';
import { InspectionApiRefusal } from '../../inspection-api/inspection-api.errors';
import { type CheckRecord } from '../../inspection-api/inspection-api.types';
import { photoKeyOf } from '../answer-identity';
import { type ConversationTurn } from '../conversation-turn';
import { type DialogState, type LastRecord } from '../dialog-state';
import { downloadAttachment, PhotoDownloadError } from '../photo-download';
import { refreshCheck } from './check.command';

/**
 * The record `recordId` names, when it is the inspector's own: with its device and item names. Undefined after the
 * refusal has been said.
 */
async function ownRecord(turn: ConversationTurn, recordId: number): Promise<LastRecord | undefined> {
  const inspector = await turn.inspector();
  if (!inspector) {
    await turn.reply('unknownInspector');
    return undefined;
  }
  let record: CheckRecord;
  try {
    record = await turn.api.getRecord(recordId);
  } catch (error) {
    if (error instanceof InspectionApiRefusal && error.status === 404) {
      await turn.reply('photoRecordGone');
      return undefined;
    }
    throw error;
  }
  if (record.checked_by !== inspector.username) {
    await turn.reply('photoNotYours');
    return undefined;
  }
  const device = await turn.api.getDevice(record.device);
  const item = device.check_items.find((candidate) => candidate.id === record.item);
  return { id: record.id, device: device.name, item: item?.name ?? (await turn.phrase('anItem')) };
}

/**
 * "Add photo" sent as a plain submit (the chat page did not open the camera): the next photo goes to that record.
 */
export async function choosePhotoTarget(
  turn: ConversationTurn,
  recordId: number,
  state: DialogState,
): Promise<void> {
  const target = await ownRecord(turn, recordId);
  if (!target) return;
  await state.photoTarget.set(turn.context, target.id);
  await turn.reply('photoSendNow', { item: target.item, device: target.device });
}

/**
 * A photo: downloaded from the relay and uploaded as the photo of the record it was taken for (`recordId`: "add
 * photo" on an answered item), else of the record an "add photo" submit chose, else of the user's last record in
 * this conversation. Uploaded once per activity (`photoKeyOf`). The confirmation names the record and shows the
 * stored photo; the open check's card marks the item.
 */
export async function attachPhoto(
  turn: ConversationTurn,
  attachment: { contentUrl: string; contentType: string; name: string },
  recordId: number | undefined,
  state: DialogState,
  logger: Logger,
): Promise<void> {
  const chosen = recordId ?? (await state.photoTarget.get(turn.context));
  let target: LastRecord | undefined;
  if (chosen !== undefined) {
    target = await ownRecord(turn, chosen);
    if (!target) return;
  } else {
    target = await state.lastRecord.get(turn.context);
    if (!target) {
      await turn.reply('photoWithoutRecord');
      return;
    }
  }
  if (!attachment.contentType.startsWith('image/')) {
    await turn.reply('photoNotImage');
    return;
  }
  await turn.typing();
  let photo;
  try {
    photo = await downloadAttachment(attachment, turn.settings.maxPhotoBytes);
  } catch (error) {
    if (!(error instanceof PhotoDownloadError)) throw error;
    logger.warn({ reason: error.message }, 'photo download failed');
    await turn.reply('photoDownloadFailed');
    return;
  }
  const idempotencyKey = photoKeyOf(turn.context.activity);
  const record = await turn.api.attachPhoto(target.id, photo, idempotencyKey ? { idempotencyKey } : {});
  await state.photoTarget.delete(turn.context);
  const open = await state.openCheck.get(turn.context);
  const answered =
    open && record.item !== null && open.device === record.device
      ? open.answers[String(record.item)]
      : undefined;
  if (open && answered?.recordId === record.id && !answered.photo) {
    answered.photo = true;
    await state.openCheck.set(turn.context, open);
    await refreshCheck(turn, await turn.api.getDevice(record.device), open, logger);
  }
  const text = await turn.phrase('photoAttached', { item: target.item, device: target.device });
  const reply = MessageFactory.text(text);
  if (record.photo) {
    reply.attachments = [{ contentType: photo.contentType, contentUrl: record.photo, name: text }];
  }
  await turn.context.sendActivity(reply);
}
