import { ActionTypes, MessageFactory } from 'botbuilder';
import { type Logger } from '@fieldops/platform';
import { InspectionApiRefusal } from '../../inspection-api/inspection-api.errors';
import { type CheckRecord, type Device } from '../../inspection-api/inspection-api.types';
import { photoKeyOf } from '../answer-identity';
import { type ConversationTurn } from '../conversation-turn';
import { type DialogState, type LastRecord } from '../dialog-state';
import { downloadAttachment, PhotoDownloadError } from '../photo-download';
import { recordsAwaitingPhoto } from '../photo-candidates';
import { clockTime, refreshCheck } from './check.command';

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

type ChatAttachment = { contentUrl: string; contentType: string; name: string };

/**
 * A photo: downloaded from the relay and uploaded as the photo of the record it was taken for (`recordId`: "add
 * photo" on an answered item), else of the record an "add photo" submit chose, else of the user's last record in
 * this conversation. When the conversation knows none (the bot restarted since, or another phone made the record),
 * inspection-api tells which of the inspector's recent records await a photo (`photo-candidates.ts`): one gets it
 * and is named; several are asked as a choice, the photo kept meanwhile; none is said. Never a guess.
 */
export async function attachPhoto(
  turn: ConversationTurn,
  attachment: ChatAttachment,
  recordId: number | undefined,
  state: DialogState,
  logger: Logger,
): Promise<void> {
  const chosen = recordId ?? (await state.photoTarget.get(turn.context));
  const key = photoKeyOf(turn.context.activity);
  let target: LastRecord | undefined;
  if (chosen !== undefined) {
    target = await ownRecord(turn, chosen);
    if (!target) return;
  } else {
    target = await state.lastRecord.get(turn.context);
    if (!target) return attachToRecentRecord(turn, attachment, key, state, logger);
  }
  await upload(turn, attachment, key, target, state, logger);
}

/** The paperclip's photo when the conversation knows no record: the inspector's recent records without a photo. */
async function attachToRecentRecord(
  turn: ConversationTurn,
  attachment: ChatAttachment,
  key: string | undefined,
  state: DialogState,
  logger: Logger,
): Promise<void> {
  const inspector = await turn.inspector();
  if (!inspector) return turn.reply('unknownInspector');
  if (!attachment.contentType.startsWith('image/')) return turn.reply('photoNotImage');
  const candidates = await recordsAwaitingPhoto(turn.api, inspector.username, turn.settings.now());
  const [only] = candidates;
  if (!only) return turn.reply('photoWithoutRecord');
  const devices = new Map<number, Device>();
  for (const record of candidates) {
    if (!devices.has(record.device)) devices.set(record.device, await turn.api.getDevice(record.device));
  }
  const named = async (record: CheckRecord): Promise<LastRecord> => {
    const device = devices.get(record.device);
    const item = device?.check_items.find((candidate) => candidate.id === record.item);
    return {
      id: record.id,
      device: device?.name ?? '',
      item: item?.name ?? (await turn.phrase('anItem')),
    };
  };
  if (candidates.length === 1) return upload(turn, attachment, key, await named(only), state, logger);
  await state.pendingPhoto.set(turn.context, {
    attachment,
    ...(key ? { key } : {}),
    candidates: candidates.map((record) => record.id),
  });
  const timeZone = (turn.context.activity as { localTimezone?: string }).localTimezone;
  const buttons = [];
  for (const record of candidates) {
    const { item, device } = await named(record);
    const title = `${item} · ${device} · ${await turn.phrase(record.status)} ${clockTime(record.checked_at, timeZone)}`;
    buttons.push({
      type: ActionTypes.MessageBack,
      title,
      displayText: title,
      text: title,
      value: { command: 'photo-for', recordId: record.id },
    });
  }
  await turn.context.sendActivity(
    MessageFactory.suggestedActions(buttons, await turn.phrase('photoWhichRecord')),
  );
}

/** The answer to "which record is this photo for?": the kept photo goes to the chosen record. */
export async function attachChosenPhoto(
  turn: ConversationTurn,
  recordId: number,
  state: DialogState,
  logger: Logger,
): Promise<void> {
  const pending = await state.pendingPhoto.get(turn.context);
  if (!pending || !pending.candidates.includes(recordId)) return turn.reply('photoChoiceGone');
  const target = await ownRecord(turn, recordId);
  if (!target) return;
  await state.pendingPhoto.delete(turn.context);
  await upload(turn, pending.attachment, pending.key, target, state, logger);
}

/**
 * Uploads the photo to `target`, once per activity (`key`). The confirmation names the record and shows the stored
 * photo; the open check's card marks the item.
 */
async function upload(
  turn: ConversationTurn,
  attachment: ChatAttachment,
  key: string | undefined,
  target: LastRecord,
  state: DialogState,
  logger: Logger,
): Promise<void> {
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
  const record = await turn.api.attachPhoto(target.id, photo, key ? { idempotencyKey: key } : {});
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
