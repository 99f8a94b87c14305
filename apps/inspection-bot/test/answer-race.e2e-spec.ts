import { type PlainActivity as Activity } from '@fieldops/testing/directline-client';
import { type RunningService } from '@fieldops/platform';
import { exchange, type SignedInChat, signedInChat } from './support/directline-chat';
import { type ForwardingProxy, type ProxiedRequest, startForwardingProxy } from './support/forwarding-proxy';
import { freePort, type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

type Reply = Activity & { suggestedActions?: { actions: Array<{ title: string; value: unknown }> } };

/**
 * Two inspectors' phones answer one item at the same moment through TWO bot instances (one registration, one connector and
 * relay; the platform delivers each conversation to its own instance, as a load balancer with sticky conversations
 * does; DirectLineJS clients). Between the bots and inspection-api a hop holds the record creates until both have
 * arrived, so both answers have passed the bots' "already answered?" read: only inspection-api's conditional create
 * can keep the second out. Exactly one record; the other phone is told "already answered" with Record … as well.
 */
describe('two phones, two bot instances, one item', () => {
  let platform: RunningInspectionPlatform;
  let messaging: ForwardingProxy;
  let apiHop: ForwardingProxy;
  const instances: RunningService[] = [];
  /** Conversation id → the bot instance it is delivered to (in order of first sight). */
  const delivery = new Map<string, RunningService>();
  /** While set, record creates wait here until `expected` of them have arrived. */
  let lineUp: { expected: number; arrived: number; release: () => void; all: Promise<void> } | undefined;
  let createsSeen = 0;

  beforeAll(async () => {
    messaging = await startForwardingProxy((request: ProxiedRequest) => {
      const { conversation } = JSON.parse(request.body.toString() || '{}') as {
        conversation?: { id?: string };
      };
      const id = conversation?.id ?? '';
      if (instances.length === 0) return platform.bot.url;
      let instance = delivery.get(id);
      if (!instance) {
        instance = instances[delivery.size % instances.length];
        delivery.set(id, instance);
      }
      return instance.url;
    });
    platform = await startInspectionPlatform({
      messagingEndpoint: () => `${messaging.url}/api/messages`,
    });
    apiHop = await startForwardingProxy(async (request: ProxiedRequest) => {
      if (request.method === 'POST' && request.path.startsWith('/api/records/')) {
        createsSeen += 1;
        const gate = lineUp;
        if (gate) {
          gate.arrived += 1;
          if (gate.arrived >= gate.expected) gate.release();
          await gate.all;
        }
      }
      return platform.api.url;
    });
    for (let index = 0; index < 2; index += 1)
      instances.push(
        await platform.startBotLike({
          INSPECTION_BOT_PORT: String(await freePort()),
          INSPECTION_API_URL: apiHop.url,
        }),
      );
  });

  afterAll(async () => {
    lineUp?.release();
    await platform?.close();
    await apiHop?.close();
    await messaging?.close();
  });

  const texts = (replies: readonly Activity[]): string[] => replies.map((reply) => reply.text ?? '');

  it('records the first answer once and tells the other phone "already answered", with Record … as well', async () => {
    await platform.clearRecords();
    const pump = await platform.client.findDeviceByCode('PUMP-001');
    const item = pump?.check_items[0];
    if (!pump || !item) throw new Error('demo data: PUMP-001 and its first item');
    const chats: SignedInChat[] = [];
    // Two inspectors: a person's phones share their home conversation (and so one bot instance).
    const other = { username: 'ben.race', password: 'ben-race-password-1' };
    await platform.createAccount(other.username, other.password);
    chats.push(await signedInChat(platform), await signedInChat(platform, other));
    try {
      // Each conversation went to its own instance.
      expect(new Set(delivery.values()).size).toBe(2);
      for (const chat of chats)
        await exchange(chat, { text: 'check PUMP-001' }, (reply) => (reply.attachments?.length ?? 0) > 0);

      let release = (): void => undefined;
      const all = new Promise<void>((resolve) => {
        release = resolve;
      });
      lineUp = { expected: 2, arrived: 0, release, all };
      const before = createsSeen;
      const tap = { action: 'record', device: pump.id, item: item.id, status: 'ok', value: '', note: '' };
      const said = (reply: Activity) =>
        /^Recorded "ok"/.test(reply.text ?? '') || /already answered in this period/.test(reply.text ?? '');
      const [first, second] = await Promise.all(
        chats.map((chat) => exchange(chat, { text: '', value: tap }, said) as Promise<Reply[]>),
      );
      lineUp = undefined;
      // Both answers passed their bot's read and reached inspection-api at once.
      expect(createsSeen - before).toBe(2);

      const outcomes = [first, second].map((replies) =>
        texts(replies ?? []).find((text) => said({ text } as Activity)),
      );
      const recorded = outcomes.filter((text) => text?.startsWith('Recorded "ok"'));
      const refused = outcomes.filter((text) => text?.includes('already answered in this period'));
      expect([recorded.length, refused.length]).toEqual([1, 1]);
      expect(await platform.client.countRecords({ device: pump.id })).toBe(1);
      const [record] = await platform.client.lastRecords(pump.id, 1);
      expect(refused[0]).toBe(
        `${item.name} is already answered in this period: ok · ${record?.checked_at.slice(11, 16)} · ${record?.checked_by}. Nothing new was recorded.`,
      );

      // The phone that was refused confirms: its answer is recorded as well (a second record, on purpose).
      const loser = outcomes.indexOf(refused[0]);
      const offer = [first, second][loser]?.find((reply) => reply.suggestedActions);
      const button = offer?.suggestedActions?.actions[0];
      expect(button?.title).toBe('Record ok as well');
      const confirmed = await exchange(chats[loser], { text: button?.title, value: button?.value }, (reply) =>
        /^Recorded "ok"/.test(reply.text ?? ''),
      );
      expect(texts(confirmed).some((text) => text.startsWith('Recorded "ok"'))).toBe(true);
      expect(await platform.client.countRecords({ device: pump.id })).toBe(2);
    } finally {
      for (const chat of chats) chat.client.end();
    }
  });
});
