import { type Device } from '../src';
import { exchange, type SignedInChat, signedInChat } from './support/directline-chat';
import { type PlainActivity as Activity } from '@fieldops/testing/directline-client';
import { INSPECTOR, type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

interface ItemCard {
  body?: Array<{ text?: string }>;
  actions?: Array<{ title: string; data?: Record<string, unknown> }>;
}

const cardsOf = (activity: Activity | undefined): ItemCard[] =>
  (activity?.attachments ?? []).map((attachment) => (attachment.content ?? {}) as ItemCard);

/** The submit data of an item card's status button, as Web Chat posts it (with the card's inputs). */
const tapOf = (card: ItemCard | undefined, status: string) => ({
  ...(card?.actions?.find((action) => action.data?.status === status)?.data ?? {}),
  value: '',
  note: '',
});

/**
 * A check's progress survives the bot: the stock DirectLineJS client, signed in on the chat page's routes, answers
 * one item of a check; the bot process restarts (its conversation state, kept in memory, is gone); in the same
 * conversation `check` shows the item answered (from inspection-api's records of the plan's period) and offers the
 * open ones, the next item is answered from the card shown before the restart, and a repeat of the first tap makes
 * no second record.
 */
describe("a check's progress from inspection-api across a bot restart (DirectLineJS against the real platform)", () => {
  let platform: RunningInspectionPlatform;
  let pump: Device;

  beforeAll(async () => {
    platform = await startInspectionPlatform();
    pump = (await platform.client.findDeviceByCode('PUMP-001')) as Device;
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
  });

  /** `check PUMP-001`: the intro line and the item cards. */
  async function check(chat: SignedInChat): Promise<{ intro: string; cards: ItemCard[] }> {
    const replies = await exchange(chat, { text: 'check PUMP-001' }, (reply) => cardsOf(reply).length > 0);
    const cardMessage = replies.find((reply) => cardsOf(reply).length > 0);
    return { intro: replies[0]?.text ?? '', cards: cardsOf(cardMessage) };
  }

  const recorded = (reply: Activity) => /^Recorded "/.test(reply.text ?? '');

  it('after a restart, `check` shows the item answered before it; the next item is answered once', async () => {
    const chat = await signedInChat(platform);
    try {
      const before = await platform.client.countRecords({ device: pump.id });
      const first = await check(chat);
      expect(first.intro).not.toMatch(/items answered/);
      const total = pump.check_items.length;
      expect(first.cards).toHaveLength(total);
      await exchange(chat, { value: tapOf(first.cards[0], 'ok') }, recorded);

      await platform.restartBot();

      const second = await check(chat);
      expect(second.intro).toMatch(new RegExp(`1 of ${total} items answered\\.$`));
      const [record] = await platform.client.lastRecords(pump.id, 1);
      expect(second.cards[0]?.body?.map((block) => block.text)).toEqual([
        pump.check_items[0]?.name,
        `ok · ${(record?.checked_at ?? '').slice(11, 16)} · ${INSPECTOR.username}`,
      ]);
      expect(second.cards[0]?.actions?.map((action) => action.title)).toEqual(['Add photo']);
      expect(second.cards[1]?.actions?.map((action) => action.title)).toEqual(['ok', 'warn', 'fail']);

      // The next item from the card shown before the restart: recorded.
      const replies = await exchange(chat, { value: tapOf(first.cards[1], 'warn') }, recorded);
      expect(replies.find(recorded)?.text).toMatch(/^Recorded "warn" for /);
      // The first tap again (a resend whose reply was lost): said, and no second record.
      const again = await exchange(chat, { value: tapOf(first.cards[0], 'ok') }, (reply) =>
        /already answered in this period/.test(reply.text ?? ''),
      );
      expect(again.map((reply) => reply.text)).toContain(
        `${pump.check_items[0]?.name} is already answered in this period: ${second.cards[0]?.body?.[1]?.text}. Nothing new was recorded.`,
      );
      expect(await platform.client.countRecords({ device: pump.id })).toBe(before + 2);

      const third = await check(chat);
      expect(third.intro).toMatch(new RegExp(`2 of ${total} items answered\\.$`));
    } finally {
      chat.client.end();
    }
  }, 180_000);
});
