import { type Attachment, AttachmentLayoutTypes, MessageFactory } from 'botbuilder';
import { type ConversationTurn } from '../conversation-turn';
import { itemAdaptiveCard } from '../presenters/item-card.presenter';

/** `check <code>` (a device card's button): one item card per check item, with ok / warn / fail. */
export async function showDevice(turn: ConversationTurn, code: string): Promise<void> {
  await turn.typing();
  const device = await turn.api.findDeviceByCode(code);
  if (!device) {
    await turn.reply('unknownDevice', { code });
    return;
  }
  if (device.check_items.length === 0) {
    await turn.reply('noItems', { device: device.name, code: device.code });
    return;
  }
  const [intro, valuePlaceholder, notePlaceholder, ok, warn, fail] = await turn.phrases([
    ['deviceIntro', { device: device.name, code: device.code }],
    ['valuePlaceholder'],
    ['notePlaceholder'],
    ['ok'],
    ['warn'],
    ['fail'],
  ]);
  const cards: Attachment[] = [];
  for (const item of device.check_items) {
    const expected = item.expected_value
      ? await turn.phrase('expectedValue', { expected: item.expected_value })
      : await turn.phrase('noExpectedValue');
    cards.push(
      itemAdaptiveCard(device, item, {
        expected,
        valuePlaceholder: valuePlaceholder ?? '',
        notePlaceholder: notePlaceholder ?? '',
        statuses: { ok: ok ?? 'ok', warn: warn ?? 'warn', fail: fail ?? 'fail' },
      }),
    );
  }
  const message = MessageFactory.carousel(cards, intro);
  message.attachmentLayout = AttachmentLayoutTypes.List;
  await turn.context.sendActivity(message);
}
