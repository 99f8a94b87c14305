import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisConversationStore } from '../src';
import { describeConversationStoreContract } from './conversation-store.contract';

const redisUrl = process.env['REDIS_URL'];
const describeWithRedis = redisUrl ? describe : describe.skip;
/** Unique per run so parallel runs against one Redis server never see each other's keys. */
const keyPrefix = `fieldops:test:${randomUUID()}:`;

describeWithRedis(
  redisUrl
    ? `RedisConversationStore against ${redisUrl}`
    : 'RedisConversationStore (set REDIS_URL to run against a real Redis server)',
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
