import { randomUUID } from 'node:crypto';
import { InProcessActivityBus } from '@fieldops/bus';
import { type ActivityEnvelope } from '@fieldops/contracts';
import {
  ConversationLog,
  DIRECT_LINE_CHANNEL_ID,
  stampBotActivity,
  stampClientActivity,
  stampHistoryActivity,
} from './conversation-log';
import { UnknownConversationError } from './conversation-store';
import { InProcessConversationStore } from './in-process-conversation-store';

const bot = { id: 'inspection-bot', name: 'Inspection bot' };

describe('stamping', () => {
  const conversationId = 'conv-1';

  it('a client activity: channel, conversation, serviceUrl, the bot as recipient, the token user as sender', () => {
    const activity = {
      type: 'message',
      id: 'client-id',
      timestamp: '2020-01-01T00:00:00Z',
      channelId: 'webchat',
      serviceUrl: 'http://evil.example/',
      from: { id: 'typed-id', name: 'Ann' },
      recipient: { id: 'someone-else' },
      conversation: { id: 'other', name: 'kept' },
      text: 'hi',
      channelData: { clientActivityID: 'x' },
    };
    const stamped = stampClientActivity(conversationId, activity, {
      bot,
      userId: 'dl_token-user',
      serviceUrl: 'http://connector/',
    });
    expect(stamped).toEqual({
      type: 'message',
      channelId: DIRECT_LINE_CHANNEL_ID,
      serviceUrl: 'http://connector/',
      from: { id: 'dl_token-user', name: 'Ann' },
      recipient: { id: 'inspection-bot', name: 'Inspection bot', role: 'bot' },
      conversation: { id: conversationId, name: 'kept' },
      text: 'hi',
      channelData: { clientActivityID: 'x' },
    });
    expect(activity.from.id).toBe('typed-id');
  });

  it('a client activity without a token user keeps the sender id it gave', () => {
    const stamped = stampClientActivity(
      conversationId,
      { type: 'message', from: { id: 'typed-id' }, conversation: 'not an object' as never },
      { bot, serviceUrl: 'http://connector/' },
    );
    expect(stamped.from).toEqual({ id: 'typed-id' });
    expect(stamped.conversation).toEqual({ id: conversationId });
  });

  it("a bot's own activity: always from the bot, its name unless the bot gave one", () => {
    expect(
      stampBotActivity(
        conversationId,
        { type: 'message', id: 'x', timestamp: 't', from: { id: 'dl_user', role: 'user' }, text: 'yo' },
        bot,
      ),
    ).toEqual({
      type: 'message',
      channelId: DIRECT_LINE_CHANNEL_ID,
      from: { id: 'inspection-bot', name: 'Inspection bot', role: 'bot' },
      conversation: { id: conversationId },
      text: 'yo',
    });
    expect(
      stampBotActivity(conversationId, { type: 'message', from: { id: 'b', name: 'Inspector Bob' } }, bot)
        .from,
    ).toEqual({ id: 'inspection-bot', name: 'Inspector Bob', role: 'bot' });
    expect(stampBotActivity(conversationId, { type: 'typing' }, bot).from).toEqual({
      id: 'inspection-bot',
      name: 'Inspection bot',
      role: 'bot',
    });
  });

  it("a history activity keeps its sender (a transcript holds the user's activities too)", () => {
    expect(
      stampHistoryActivity(conversationId, {
        type: 'message',
        id: 'old-id',
        timestamp: '2020-01-01T00:00:00Z',
        channelId: 'msteams',
        from: { id: 'dl_user', role: 'user' },
        conversation: { id: 'elsewhere' },
        text: 'earlier',
      }),
    ).toEqual({
      type: 'message',
      channelId: DIRECT_LINE_CHANNEL_ID,
      from: { id: 'dl_user', role: 'user' },
      conversation: { id: conversationId },
      text: 'earlier',
    });
  });
});

describe('ConversationLog', () => {
  let store: InProcessConversationStore;
  let bus: InProcessActivityBus;
  let warnings: Array<{ obj: object; msg?: string }>;
  let log: ConversationLog;
  let conversationId: string;

  beforeEach(async () => {
    store = new InProcessConversationStore();
    bus = new InProcessActivityBus();
    warnings = [];
    log = new ConversationLog(store, bus, { warn: (obj, msg) => warnings.push({ obj, msg }) });
    conversationId = `c-${randomUUID()}`;
    await store.create({ conversationId, botId: bot.id, createdAt: Date.now() });
  });

  afterEach(async () => {
    await Promise.all([store.close(), bus.close()]);
  });

  async function collect(): Promise<ActivityEnvelope[]> {
    const received: ActivityEnvelope[] = [];
    await bus.subscribe(conversationId, (envelope) => received.push(envelope));
    return received;
  }

  async function settled(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
  }

  it('appends to the store first, then publishes exactly what was stored', async () => {
    const received = await collect();
    let storedWhenPublished: number | undefined;
    await bus.subscribe(conversationId, () => {
      void store.lastSeq(conversationId).then((seq) => (storedWhenPublished = seq));
    });
    const stored = await log.append(
      stampBotActivity(conversationId, { type: 'message', text: 'one' }, bot),
      'corr-1',
    );
    await settled();
    expect(stored.seq).toBe(0);
    expect(stored.activity).toMatchObject({ id: `${conversationId}|0000000`, text: 'one' });
    expect(await store.read(conversationId)).toEqual([stored]);
    expect(received).toEqual([
      { conversationId, seq: 0, activity: stored.activity, correlationId: 'corr-1' },
    ]);
    expect(storedWhenPublished).toBe(0);
  });

  it('takes the conversation from the stamped activity and makes up a correlation id', async () => {
    const received = await collect();
    await log.append(stampHistoryActivity(conversationId, { type: 'message', text: 'a' }));
    const second = await log.appendFromBot(conversationId, { type: 'message', text: 'b' }, bot);
    await settled();
    expect(second.seq).toBe(1);
    expect(second.activity.from).toEqual({ id: bot.id, name: bot.name, role: 'bot' });
    expect(received.map((envelope) => envelope.seq)).toEqual([0, 1]);
    expect(received[0].correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(received[0].correlationId).not.toBe(received[1].correlationId);
  });

  it('keeps an appended activity when the publish fails, and says so in the log', async () => {
    await bus.close();
    const stored = await log.appendFromBot(conversationId, { type: 'message', text: 'kept' }, bot);
    expect(await store.read(conversationId)).toEqual([stored]);
    expect(warnings).toEqual([
      {
        obj: expect.objectContaining({ conversationId, seq: 0, err: expect.any(Error) }),
        msg: 'bus publish failed after append',
      },
    ]);
  });

  it('refuses an unknown conversation and publishes nothing', async () => {
    const other = `c-${randomUUID()}`;
    const received: ActivityEnvelope[] = [];
    await bus.subscribe(other, (envelope) => received.push(envelope));
    await expect(log.appendFromBot(other, { type: 'message' }, bot)).rejects.toBeInstanceOf(
      UnknownConversationError,
    );
    await settled();
    expect(received).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
