import { MessageFactory, type StatePropertyAccessor } from 'botbuilder';
import { type Logger } from '@fieldops/platform';
import { type ConversationTurn } from '../conversation-turn';
import { downloadAttachment, PhotoDownloadError } from '../photo-download';
import { type LastRecord } from './record.command';

/**
 * A photo (Web Chat's paperclip): downloaded from the relay, uploaded as the photo of the user's last record in this
 * conversation; the confirmation shows the stored photo (the record's `photo` URL) as a picture.
 */
export async function attachPhoto(
  turn: ConversationTurn,
  attachment: { contentUrl: string; contentType: string; name: string },
  lastRecord: StatePropertyAccessor<LastRecord | undefined>,
  logger: Logger,
): Promise<void> {
  const last = await lastRecord.get(turn.context);
  if (!last) {
    await turn.reply('photoWithoutRecord');
    return;
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
  const record = await turn.api.attachPhoto(last.id, photo);
  const text = await turn.phrase('photoAttached', { item: last.item, device: last.device });
  const reply = MessageFactory.text(text);
  if (record.photo) {
    reply.attachments = [{ contentType: photo.contentType, contentUrl: record.photo, name: text }];
  }
  await turn.context.sendActivity(reply);
}
