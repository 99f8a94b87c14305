import { type Attachment, CardFactory, MessageFactory } from 'botbuilder';
import { type CheckRecord, type Device } from '../../inspection-api/inspection-api.types';
import { type ConversationTurn } from '../conversation-turn';

async function historyLine(turn: ConversationTurn, device: Device, record: CheckRecord): Promise<string> {
  const item = device.check_items.find((candidate) => candidate.id === record.item);
  const [status, anItem] = await turn.phrases([[record.status], ['anItem']]);
  const value = record.value ? await turn.phrase('historyValue', { value: record.value }) : '';
  return turn.phrase('historyLine', {
    date: record.checked_at.slice(0, 16).replace('T', ' '),
    status: status ?? record.status,
    item: item?.name ?? anItem ?? '',
    value,
    inspector: record.checked_by || '?',
  });
}

/** An Adaptive Card of the records that have a photo: a thumbnail beside each one's line. */
function thumbnailsCard(rows: Array<{ line: string; photo: string }>): Attachment {
  return CardFactory.adaptiveCard({
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.3',
    body: rows.map(({ line, photo }) => ({
      type: 'ColumnSet',
      columns: [
        {
          type: 'Column',
          width: 'auto',
          items: [{ type: 'Image', url: photo, size: 'Small', altText: line }],
        },
        {
          type: 'Column',
          width: 'stretch',
          verticalContentAlignment: 'Center',
          items: [{ type: 'TextBlock', text: line, wrap: true, size: 'Small' }],
        },
      ],
    })),
  });
}

/** `history <code>`: the device's last records, newest first, and thumbnails of those with a photo. */
export async function showHistory(turn: ConversationTurn, code: string | undefined): Promise<void> {
  if (!code) {
    await turn.reply('historyUsage', { example: 'PUMP-001' });
    return;
  }
  await turn.typing();
  const device = await turn.api.findDeviceByCode(code);
  if (!device) {
    await turn.reply('unknownDevice', { code });
    return;
  }
  const records = await turn.api.lastRecords(device.id, turn.settings.historySize);
  if (records.length === 0) {
    await turn.reply('historyNone', { device: device.name, code: device.code });
    return;
  }
  const lines = [await turn.phrase('historyIntro', { device: device.name, code: device.code })];
  const withPhotos: Array<{ line: string; photo: string }> = [];
  for (const record of records) {
    const line = await historyLine(turn, device, record);
    lines.push(`- ${line}`);
    if (record.photo) withPhotos.push({ line, photo: record.photo });
  }
  const message = MessageFactory.text(lines.join('\n'));
  if (withPhotos.length > 0) message.attachments = [thumbnailsCard(withPhotos)];
  await turn.context.sendActivity(message);
}
