import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  AppendNotReplicatedError,
  homeDigest,
  isoTimestampFromMicros,
  RedisConversationStore,
  UnknownConversationError,
} from '../src';
import { describeConversationStoreContract } from './conversation-store.contract';

const redisUrl = process.env['REDIS_URL'];
/** Unique per run so parallel runs against one Redis server never see each other's keys. */
const keyPrefix = `fieldops:test:${randomUUID()}:`;

describe(
  // The int tier always has a Redis: REDIS_URL, or the redis-server jest.services.js starts for the run.
  'RedisConversationStore against a real Redis server',
  () => {
    const url = redisUrl ?? '';

    describeConversationStoreContract('contract', () => {
      const store = new RedisConversationStore({ redisUrl: url, keyPrefix });
      const peer = new RedisConversationStore({ redisUrl: url, keyPrefix });
      return Promise.resolve({
        store,
        peer,
        cleanup: async () => {
          await Promise.all([store.close(), peer.close()]);
        },
      });
    });

    describe('Redis specifics', () => {
      let admin: Redis;
      beforeEach(() => {
        admin = new Redis(url);
      });
      afterEach(async () => {
        await admin.quit();
      });

      it('names a new home conversation when the one its key names has expired, the key with the retention as its time to live', async () => {
        const store = new RedisConversationStore({ redisUrl: url, keyPrefix, retentionSeconds: 120 });
        try {
          const userId = `dl_${randomUUID()}`;
          const first = await store.homeConversation({
            conversationId: `c-${randomUUID()}`,
            botId: 'b',
            createdAt: Date.now(),
            userId,
          });
          const homeKey = `${keyPrefix}home:${homeDigest('b', userId)}`;
          expect(await admin.get(homeKey)).toBe(first.conversationId);
          expect(await admin.ttl(homeKey)).toBeGreaterThan(100);
          await admin.del(`${keyPrefix}conversation:${first.conversationId}`); // as the retention would
          const second = await store.homeConversation({
            conversationId: `c-${randomUUID()}`,
            botId: 'b',
            createdAt: Date.now(),
            userId,
          });
          expect(second.conversationId).not.toBe(first.conversationId);
          expect(await admin.get(homeKey)).toBe(second.conversationId);
        } finally {
          await store.close();
        }
      });

      it('gives every key of a conversation the retention as its time to live', async () => {
        const store = new RedisConversationStore({ redisUrl: url, keyPrefix, retentionSeconds: 120 });
        try {
          const conversationId = `c-${randomUUID()}`;
          await store.create({ conversationId, botId: 'b', createdAt: Date.now() });
          await store.append(conversationId, { type: 'message' });
          const attachment = await store.putAttachment(
            conversationId,
            { contentType: 'a/b' },
            Buffer.from('x'),
          );
          const keys = await admin.keys(`${keyPrefix}conversation:${conversationId}*`);
          expect(keys.length).toBe(4);
          expect(keys.join()).toContain(attachment.attachmentId);
          for (const key of keys) {
            const ttl = await admin.ttl(key);
            expect(ttl).toBeGreaterThan(100);
            expect(ttl).toBeLessThanOrEqual(120);
          }
        } finally {
          await store.close();
        }
      });

      /** A store on its own prefix, a conversation in it, and the keys its scripts write. */
      async function conversationIn(store: RedisConversationStore, prefix: string) {
        const conversationId = `c-${randomUUID()}`;
        const record = { conversationId, botId: 'b', createdAt: Date.now() };
        await store.create(record);
        const meta = `${prefix}conversation:${conversationId}`;
        return { conversationId, record, meta, log: `${meta}:log` };
      }

      it('append: the log entry holds seq, Redis time and the activity without id or timestamp', async () => {
        const store = new RedisConversationStore({ redisUrl: url, keyPrefix });
        try {
          const { conversationId, meta, log } = await conversationIn(store, keyPrefix);
          const before = Date.now() * 1000;
          const first = await store.append(conversationId, {
            type: 'message',
            id: 'x',
            timestamp: 'y',
            text: 'a',
          });
          await store.append(conversationId, { type: 'typing' });
          const raw = (await admin.lrange(log, 0, -1)).map(
            (entry) => JSON.parse(entry) as { s: number; t: number; a: unknown },
          );
          expect(raw.map((entry) => [entry.s, entry.a])).toEqual([
            [0, { type: 'message', text: 'a' }],
            [1, { type: 'typing' }],
          ]);
          expect(raw[0].t).toBeGreaterThanOrEqual(before - 1_000_000);
          expect(raw[1].t).toBeGreaterThan(raw[0].t);
          expect(await admin.hmget(meta, 'seq', 'lastMicros')).toEqual(['2', String(raw[1].t)]);
          expect(first.activity.timestamp).toBe(isoTimestampFromMicros(raw[0].t));
        } finally {
          await store.close();
        }
      });

      it('append: a timestamp stays above the last one when the Redis clock is behind it', async () => {
        const store = new RedisConversationStore({ redisUrl: url, keyPrefix });
        try {
          const { conversationId, meta } = await conversationIn(store, keyPrefix);
          const ahead = (Date.now() + 3_600_000) * 1000;
          await admin.hset(meta, 'lastMicros', String(ahead));
          const first = await store.append(conversationId, { type: 'message' });
          const second = await store.append(conversationId, { type: 'message' });
          expect(first.activity.timestamp).toBe(isoTimestampFromMicros(ahead + 1));
          expect(second.activity.timestamp).toBe(isoTimestampFromMicros(ahead + 2));
        } finally {
          await store.close();
        }
      });

      it('append, claim and set-user start the retention again; create leaves an existing conversation alone', async () => {
        const store = new RedisConversationStore({ redisUrl: url, keyPrefix, retentionSeconds: 120 });
        try {
          const { conversationId, record, meta, log } = await conversationIn(store, keyPrefix);
          await store.append(conversationId, { type: 'message' });
          const shorten = () => Promise.all([admin.expire(meta, 10), admin.expire(log, 10)]);

          await shorten();
          await store.append(conversationId, { type: 'message' });
          expect(await admin.ttl(meta)).toBeGreaterThan(100);
          expect(await admin.ttl(log)).toBeGreaterThan(100);

          await shorten();
          await store.claimMilestone(conversationId, 'started');
          expect(await admin.ttl(meta)).toBeGreaterThan(100);

          await shorten();
          await store.setUserIfUnset(conversationId, { userId: 'u' });
          expect(await admin.ttl(meta)).toBeGreaterThan(100);

          await shorten();
          expect(await store.create({ ...record, botId: 'other' })).toBe(false);
          expect(await admin.ttl(meta)).toBeLessThanOrEqual(10);
          expect((await store.get(conversationId))?.botId).toBe('b');
        } finally {
          await store.close();
        }
      });

      it('an expired conversation refuses appends and claims and has no user to set', async () => {
        const store = new RedisConversationStore({ redisUrl: url, keyPrefix });
        try {
          const { conversationId, meta, log } = await conversationIn(store, keyPrefix);
          await store.append(conversationId, { type: 'message' });
          await admin.del(meta);
          await expect(store.append(conversationId, { type: 'message' })).rejects.toBeInstanceOf(
            UnknownConversationError,
          );
          await expect(store.claimMilestone(conversationId, 'started')).rejects.toBeInstanceOf(
            UnknownConversationError,
          );
          expect(await store.setUserIfUnset(conversationId, { userId: 'u' })).toBeUndefined();
          expect(await store.lastSeq(conversationId)).toBeUndefined();
          expect(await admin.llen(log)).toBe(1);
          expect(await admin.exists(meta)).toBe(0);
        } finally {
          await store.close();
        }
      });

      it('replicaAcks: an append no replica confirmed is voided, hidden from readers and the bus, answered 503', async () => {
        const replicas = Number(/connected_slaves:(\d+)/.exec(await admin.info('replication'))?.[1] ?? 0);
        const store = new RedisConversationStore({
          redisUrl: url,
          keyPrefix,
          replicaAcks: replicas + 1,
          replicaAckTimeoutMs: 50,
        });
        const plain = new RedisConversationStore({ redisUrl: url, keyPrefix });
        const subscriber = new Redis(url);
        const published: string[] = [];
        try {
          const { conversationId, meta } = await conversationIn(store, keyPrefix);
          const channel = `${keyPrefix}channel:${conversationId}`;
          subscriber.on('message', (_channel: string, message: string) => published.push(message));
          await subscriber.subscribe(channel);
          const first = await plain.append(conversationId, { type: 'message', text: 'seen' });
          const unconfirmed = store.appendAndPublish(
            conversationId,
            { type: 'message', text: 'unknown' },
            { route: { channel, command: 'PUBLISH' }, correlationId: 'c' },
          );
          await expect(unconfirmed).rejects.toBeInstanceOf(AppendNotReplicatedError);
          await expect(unconfirmed).rejects.toMatchObject({
            code: 'ServiceError',
            extra: { headers: { 'Retry-After': '1' } },
          });
          const refusal = (await unconfirmed.catch((error: unknown) => error)) as AppendNotReplicatedError;
          expect(refusal.status).toBe(503);
          // In the log (seq 1) but not visible: readers and lastSeq stop at the last confirmed entry.
          expect(await admin.hmget(meta, 'seq', 'acked')).toEqual(['2', '0']);
          expect((await store.read(conversationId)).map((entry) => entry.activity.id)).toEqual([
            first.activity.id,
          ]);
          expect(await store.read(conversationId, 0)).toEqual([]);
          expect(await store.lastSeq(conversationId)).toBe(0);
          // Voided: its seq is never used again, and readers skip it (a retry of the send is not a second copy).
          expect(await admin.lindex(`${meta}:log`, 1)).toBe('{"v":1}');
          const later = await plain.append(conversationId, { type: 'message', text: 'later' });
          expect(later.seq).toBe(2);
          expect((await store.read(conversationId, 0)).map((entry) => entry.seq)).toEqual([2]);
          expect((await store.read(conversationId, undefined, 1)).map((entry) => entry.seq)).toEqual([0]);
          expect((await store.read(conversationId, 0, 1)).map((entry) => entry.seq)).toEqual([2]);
          expect((await plain.read(conversationId)).map((entry) => entry.seq)).toEqual([0, 2]);
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(published).toEqual([]);
        } finally {
          subscriber.disconnect();
          await Promise.all([store.close(), plain.close()]);
        }
      });

      it('reports not ready when Redis is unreachable', async () => {
        const store = new RedisConversationStore({ redisUrl: 'redis://127.0.0.1:1' });
        try {
          await expect(store.checkReady()).rejects.toThrow(/conversation store/);
        } finally {
          await store.close();
        }
      });
    });
  },
);
