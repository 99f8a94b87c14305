import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { encodeActivityEnvelope, InProcessActivityBus, RedisActivityBus } from '@fieldops/bus';
import { type ActivityEnvelope } from '@fieldops/contracts';
import { Redis } from 'ioredis';
import {
  ConversationLog,
  LUA_ISO_TIMESTAMP,
  isoTimestampFromMicros,
  RedisConversationStore,
  stampBotActivity,
  type StoredActivity,
} from '../src';

const redisUrl = process.env['REDIS_URL'];
/** Unique per run so parallel runs against one Redis server never see each other's keys and channels. */
const runPrefix = `fieldops:test:${randomUUID()}:`;
const keyPrefix = `${runPrefix}store:`;
const channelPrefix = `${runPrefix}bus:`;
const bot = { id: 'inspection-bot', name: 'Inspection bot' };
const quiet = { warn: () => undefined };

async function waitFor(condition: () => boolean, description: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${description}`);
    await delay(5);
  }
}

/**
 * A TCP proxy in front of the Redis server that can swallow what Redis answers (`dropReplies`) and cut its clients'
 * connections: a command that ran but whose reply was lost, as when a connection drops at the wrong moment.
 */
async function startReplyDroppingProxy(target: URL) {
  const clients = new Set<Socket>();
  const proxy = {
    url: '',
    dropReplies: false,
    cutClients: () => {
      for (const client of clients) client.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((client) => {
    clients.add(client);
    const upstream = connect(Number(target.port || 6379), target.hostname);
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (!proxy.dropReplies) client.write(chunk);
    });
    const end = () => {
      clients.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = new URL(target.href);
  address.hostname = '127.0.0.1';
  address.port = String((server.address() as AddressInfo).port);
  proxy.url = address.href;
  return proxy;
}

describe(
  // The int tier always has a Redis: REDIS_URL, or the redis-server jest.services.js starts for the run.
  'ConversationLog on one Redis (append and publish in one script)',
  () => {
    const url = redisUrl ?? '';
    let admin: Redis;
    let listener: Redis;
    let store: RedisConversationStore;
    let bus: RedisActivityBus;
    /** Raw messages per channel, as a subscriber connection receives them. */
    let received: Map<string, string[]>;

    beforeEach(async () => {
      admin = new Redis(url);
      listener = new Redis(url);
      received = new Map();
      listener.on('pmessage', (_pattern: string, channel: string, message: string) => {
        received.set(channel, [...(received.get(channel) ?? []), message]);
      });
      await listener.psubscribe(`${channelPrefix}*`);
      store = new RedisConversationStore({
        redisUrl: url,
        keyPrefix,
        connectionName: `log-test-${randomUUID()}`,
      });
      bus = new RedisActivityBus({ redisUrl: url, channelPrefix });
    });

    afterEach(async () => {
      await Promise.all([store.close(), bus.close(), admin.quit(), listener.quit()]);
    });

    async function newConversation(conversationId = `c-${randomUUID()}`): Promise<string> {
      await store.create({ conversationId, botId: bot.id, createdAt: Date.now() });
      return conversationId;
    }

    it('publishes, in the append script, exactly the envelope the bus would, for any id and activity', async () => {
      const log = new ConversationLog(store, bus, quiet);
      const ids = [`c-${randomUUID()}`, `c-"quoted"\\slash\u2028é中{tag}|${randomUUID()}`];
      for (const conversationId of ids) {
        await newConversation(conversationId);
        const appended: Array<{ stored: StoredActivity; correlationId: string }> = [];
        const activities = [
          {
            type: 'message',
            text: 'hi "there" \u2028 中文 😀',
            from: { id: 'u' },
            attachments: [],
            value: {},
          },
          { type: 'typing' },
          { type: 'event', name: 'x', value: [1, 2.5, 0, 1e21, null, true, { deep: [[]] }] },
        ];
        for (const activity of activities) {
          const correlationId = randomUUID();
          const stored = await log.append(stampBotActivity(conversationId, activity, bot), correlationId);
          appended.push({ stored, correlationId });
        }
        const channel = bus.publishRouteFor(conversationId).channel;
        await waitFor(() => (received.get(channel) ?? []).length === activities.length, 'all published');
        expect(received.get(channel)).toEqual(
          appended.map(({ stored, correlationId }) =>
            encodeActivityEnvelope({
              conversationId,
              seq: stored.seq,
              activity: stored.activity,
              correlationId,
            }),
          ),
        );
        expect(await store.read(conversationId)).toEqual(appended.map(({ stored }) => stored));
      }
    });

    it('publishes in seq order, whichever instance appends', async () => {
      const peerStore = new RedisConversationStore({ redisUrl: url, keyPrefix });
      const peerBus = new RedisActivityBus({ redisUrl: url, channelPrefix });
      try {
        const logs = [new ConversationLog(store, bus, quiet), new ConversationLog(peerStore, peerBus, quiet)];
        const conversationId = await newConversation();
        await Promise.all(
          Array.from({ length: 100 }, (_, index) =>
            logs[index % 2].appendFromBot(conversationId, { type: 'message', text: String(index) }, bot),
          ),
        );
        const channel = bus.publishRouteFor(conversationId).channel;
        await waitFor(() => (received.get(channel) ?? []).length === 100, 'all published');
        const seqs = received.get(channel)!.map((message) => (JSON.parse(message) as ActivityEnvelope).seq);
        expect(seqs).toEqual(Array.from({ length: 100 }, (_, index) => index));
      } finally {
        await Promise.all([peerStore.close(), peerBus.close()]);
      }
    });

    it('publishes through the bus itself when the bus is not on the store’s Redis', async () => {
      const inProcess = new InProcessActivityBus();
      const log = new ConversationLog(store, inProcess, quiet);
      const conversationId = await newConversation();
      const envelopes: ActivityEnvelope[] = [];
      await inProcess.subscribe(conversationId, (envelope) => envelopes.push(envelope));
      const stored = await log.appendFromBot(conversationId, { type: 'message', text: 'a' }, bot, 'corr');
      await waitFor(() => envelopes.length === 1, 'delivered in process');
      expect(envelopes[0]).toEqual({
        conversationId,
        seq: 0,
        activity: stored.activity,
        correlationId: 'corr',
      });
      expect(received.size).toBe(0);
      await inProcess.close();
    });

    it('an append run twice with one idempotency key appends and publishes once', async () => {
      const conversationId = await newConversation();
      const route = bus.publishRouteFor(conversationId);
      const activity = stampBotActivity(conversationId, { type: 'message', text: 'once' }, bot);
      const first = await store.appendAndPublish(
        conversationId,
        activity,
        { route, correlationId: 'c' },
        'key-1',
      );
      const again = await store.appendAndPublish(
        conversationId,
        activity,
        { route, correlationId: 'c' },
        'key-1',
      );
      const other = await store.appendAndPublish(
        conversationId,
        activity,
        { route, correlationId: 'c' },
        'key-2',
      );
      expect(first.duplicate).toBe(false);
      expect(again).toEqual({ stored: first.stored, duplicate: true });
      expect(other.stored.seq).toBe(1);
      expect((await store.read(conversationId)).map((entry) => entry.seq)).toEqual([0, 1]);
      await waitFor(() => (received.get(route.channel) ?? []).length === 2, 'two published');
      await delay(50);
      expect(received.get(route.channel)).toHaveLength(2);
    });

    it('never appends twice when a connection drops after the scripts ran, and ioredis re-sends them', async () => {
      const proxy = await startReplyDroppingProxy(new URL(url));
      const proxied = new RedisConversationStore({ redisUrl: proxy.url, keyPrefix });
      try {
        const conversationId = await newConversation();
        const route = bus.publishRouteFor(conversationId);
        const append = (text: string) =>
          proxied.appendAndPublish(
            conversationId,
            stampBotActivity(conversationId, { type: 'message', text }, bot),
            { route, correlationId: text },
          );
        await append('warm-up');
        // The scripts reach Redis and run; their replies are lost with the connection, so ioredis re-sends them.
        proxy.dropReplies = true;
        const sends = Array.from({ length: 50 }, (_, index) => append(`m${index}`));
        const logKey = `${keyPrefix}conversation:${conversationId}:log`;
        for (let tries = 0; (await admin.llen(logKey)) < 51; tries += 1) {
          if (tries > 500) throw new Error('the scripts never ran');
          await delay(10);
        }
        proxy.cutClients();
        proxy.dropReplies = false;
        const outcomes = await Promise.all(sends);

        const log = await store.read(conversationId);
        expect(log.map((entry) => entry.activity.text)).toEqual([
          'warm-up',
          ...Array.from({ length: 50 }, (_, index) => `m${index}`),
        ]);
        expect(outcomes.map((outcome) => outcome.stored)).toEqual(log.slice(1));
        expect(outcomes.every((outcome) => outcome.duplicate)).toBe(true);
        await waitFor(() => (received.get(route.channel) ?? []).length >= 51, 'all published');
        await delay(50);
        expect(received.get(route.channel)).toHaveLength(51);
      } finally {
        await proxied.close();
        await proxy.close();
      }
    });

    it('stamps in Lua as isoTimestampFromMicros does, across leap days, centuries and the epoch', async () => {
      const samples = [0, 999_999, 951_782_400_000_000, 951_868_799_999_999, 951_868_800_000_000];
      samples.push(4_107_542_400_000_000, 4_107_628_800_123_456, 1_700_000_000_123_456);
      for (let index = 0; index < 300; index += 1) {
        samples.push(Math.floor(Math.random() * 4_102_444_800) * 1_000_000 + Math.floor(Math.random() * 1e6));
      }
      const stamped = await Promise.all(
        samples.map((micros) =>
          admin.eval(`${LUA_ISO_TIMESTAMP} return isoTimestamp(tonumber(ARGV[1]))`, 0, String(micros)),
        ),
      );
      expect(stamped).toEqual(samples.map(isoTimestampFromMicros));
    });
  },
);
