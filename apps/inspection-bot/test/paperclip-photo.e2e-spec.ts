import { type CheckRecord, type Device } from '../src';
import { exchange, type SignedInChat, signedInChat } from './support/directline-chat';
import { type PlainActivity as Activity } from '@fieldops/testing/directline-client';
import { type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

interface ItemCard {
  actions?: Array<{ title: string; data?: Record<string, unknown> }>;
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** A photo chosen with the paperclip: DirectLineJS uploads it to the relay, the bot downloads it from there. */
const paperclipPhoto = (name: string): Partial<Activity> => ({
  attachments: [
    { contentType: 'image/png', contentUrl: `data:image/png;base64,${PNG.toString('base64')}`, name },
  ],
});

const cardsOf = (activity: Activity | undefined): ItemCard[] =>
  (activity?.attachments ?? []).map((attachment) => (attachment.content ?? {}) as ItemCard);

const tapOf = (card: ItemCard | undefined, status: string) => ({
  ...(card?.actions?.find((action) => action.data?.status === status)?.data ?? {}),
  value: '',
  note: '',
});

interface SuggestedAction {
  title: string;
  text?: string;
  value?: { command?: string; recordId?: number };
}

const suggestedActionsOf = (activity: Activity | undefined): SuggestedAction[] =>
  (activity as { suggestedActions?: { actions?: SuggestedAction[] } } | undefined)?.suggestedActions
    ?.actions ?? [];

/**
 * A photo sent with the paperclip after the bot restarted (its memory of the conversation's last record gone): its
 * record comes from inspection-api, the inspector's records of the last 12 hours without a photo. One is named and
 * gets it; two are asked as a choice, the photo kept until the inspector chooses, and the chosen one gets it.
 */
describe('the paperclip photo after a bot restart (DirectLineJS against the real platform)', () => {
  let platform: RunningInspectionPlatform;
  let pump: Device;

  beforeAll(async () => {
    platform = await startInspectionPlatform();
    pump = (await platform.client.findDeviceByCode('PUMP-001')) as Device;
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
  });

  const recorded = (reply: Activity) => /^Recorded "/.test(reply.text ?? '');
  const attached = (reply: Activity) => /^The photo is attached to the record of /.test(reply.text ?? '');
  const record = (id: number | undefined): Promise<CheckRecord> => platform.client.getRecord(id ?? 0);

  it('one record without a photo gets it and is named; with two the choice is asked and the chosen one gets it', async () => {
    const chat: SignedInChat = await signedInChat(platform);
    try {
      const replies = await exchange(chat, { text: 'check PUMP-001' }, (reply) => cardsOf(reply).length > 0);
      const cards = cardsOf(replies.find((reply) => cardsOf(reply).length > 0));
      const [outlet, bearing, leaks] = pump.check_items;

      // One answer, then a restart: the paperclip's photo goes to that answer's record, named.
      await exchange(chat, { value: tapOf(cards[0], 'ok') }, recorded);
      const [first] = await platform.client.lastRecords(pump.id, 1);
      await platform.restartBot();
      const one = await exchange(chat, paperclipPhoto('outlet.png'), attached);
      expect(one.find(attached)?.text).toBe(
        `The photo is attached to the record of ${outlet?.name} on ${pump.name}.`,
      );
      expect((await record(first?.id)).photo).toMatch(/\/media\/photos\//);

      // Two more answers, then a restart: the photo is kept and the choice asked; nothing is attached meanwhile.
      await exchange(chat, { value: tapOf(cards[1], 'warn') }, recorded);
      await exchange(chat, { value: tapOf(cards[2], 'fail') }, recorded);
      const [third, second] = await platform.client.lastRecords(pump.id, 2);
      await platform.restartBot();
      const asked = await exchange(chat, paperclipPhoto('bearing.png'), (reply) =>
        /^Which record is this photo for\?/.test(reply.text ?? ''),
      );
      const question = asked.find((reply) => suggestedActionsOf(reply).length > 0);
      const choices = suggestedActionsOf(question);
      expect(choices.map((choice) => choice.title.split(' · ').slice(0, 2).join(' · '))).toEqual([
        `${leaks?.name} · ${pump.name}`,
        `${bearing?.name} · ${pump.name}`,
      ]);
      expect(choices.map((choice) => choice.value?.recordId)).toEqual([third?.id, second?.id]);
      expect(asked.some(attached)).toBe(false);
      expect((await record(second?.id)).photo).toBeNull();
      expect((await record(third?.id)).photo).toBeNull();

      // The older one chosen: it gets the kept photo, the other none; a second tap on the choice attaches nothing.
      const choice = choices[1];
      const done = await exchange(chat, { text: choice.text ?? choice.title, value: choice.value }, attached);
      expect(done.find(attached)?.text).toBe(
        `The photo is attached to the record of ${bearing?.name} on ${pump.name}.`,
      );
      expect((await record(second?.id)).photo).toMatch(/\/media\/photos\//);
      expect((await record(third?.id)).photo).toBeNull();
      const again = await exchange(chat, { text: choices[0]?.title, value: choices[0]?.value }, (reply) =>
        /no longer kept/.test(reply.text ?? ''),
      );
      expect(again.some(attached)).toBe(false);
      expect((await record(third?.id)).photo).toBeNull();
    } finally {
      chat.client.end();
    }
  }, 180_000);
});
