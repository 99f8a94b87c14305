import { InProcessConversationStore, isoTimestampFromMicros, UploadCapacityError } from '../src';
import { describeConversationStoreContract } from './conversation-store.contract';

describeConversationStoreContract('InProcessConversationStore', () => {
  const store = new InProcessConversationStore();
  return Promise.resolve({ store, peer: store, cleanup: () => store.close() });
});

describe('InProcessConversationStore retention', () => {
  it('forgets a conversation, its log and attachments once the retention has passed since the last write', async () => {
    let now = 1_000_000;
    const store = new InProcessConversationStore({ retentionSeconds: 10, now: () => now });
    try {
      await store.create({ conversationId: 'c1', botId: 'b', createdAt: now });
      const attachment = await store.putAttachment('c1', { contentType: 'text/plain' }, Buffer.from('x'));
      now += 9_000;
      await store.append('c1', { type: 'message' });
      now += 9_000;
      expect(await store.read('c1')).toHaveLength(1);
      now += 1_000;
      expect(await store.get('c1')).toBeUndefined();
      expect(await store.read('c1')).toEqual([]);
      expect(await store.getAttachment('c1', attachment.attachmentId)).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe('InProcessConversationStore home conversations', () => {
  it('names a new home conversation once the one it named has expired', async () => {
    let now = 1_000_000;
    const store = new InProcessConversationStore({ retentionSeconds: 10, now: () => now });
    try {
      const first = await store.homeConversation({
        conversationId: 'h1',
        botId: 'b',
        createdAt: now,
        userId: 'u',
      });
      now += 9_000;
      expect(
        (await store.homeConversation({ conversationId: 'h2', botId: 'b', createdAt: now, userId: 'u' }))
          .conversationId,
      ).toBe(first.conversationId);
      now += 2_000; // h1 (last written at the start) has expired; the key, used 2 s ago, has not
      const second = await store.homeConversation({
        conversationId: 'h3',
        botId: 'b',
        createdAt: now,
        userId: 'u',
      });
      expect(second.conversationId).toBe('h3');
      expect(await store.get('h3')).toMatchObject({ userId: 'u' });
    } finally {
      await store.close();
    }
  });
});

describe('InProcessConversationStore append', () => {
  it('keeps timestamps strictly increasing when the clock stands still or steps back', async () => {
    let now = 1_700_000_000_000;
    const store = new InProcessConversationStore({ now: () => now });
    try {
      await store.create({ conversationId: 'c1', botId: 'b', createdAt: now });
      const first = await store.append('c1', { type: 'message' });
      const second = await store.append('c1', { type: 'message' });
      now -= 5_000;
      const third = await store.append('c1', { type: 'message' });
      now += 10_000;
      const fourth = await store.append('c1', { type: 'message' });
      expect([first, second, third, fourth].map((entry) => entry.activity.timestamp)).toEqual([
        isoTimestampFromMicros(1_700_000_000_000_000),
        isoTimestampFromMicros(1_700_000_000_000_001),
        isoTimestampFromMicros(1_700_000_000_000_002),
        isoTimestampFromMicros(1_700_000_005_000_000),
      ]);
    } finally {
      await store.close();
    }
  });

  it('hands out frozen entries: neither what was appended nor what was read can change what is stored', async () => {
    const store = new InProcessConversationStore();
    try {
      await store.create({ conversationId: 'c1', botId: 'b', createdAt: Date.now() });
      const activity = { type: 'message', channelData: { n: 1 } };
      const appended = await store.append('c1', activity);
      // The appended activity is handed over: what it holds is frozen with the entry.
      expect(() => {
        activity.channelData.n = 2;
      }).toThrow(TypeError);
      expect(() => {
        (appended.activity.channelData as { n: number }).n = 3;
      }).toThrow(TypeError);
      const [read] = await store.read('c1');
      expect(() => {
        (read.activity.channelData as { n: number }).n = 4;
      }).toThrow(TypeError);
      expect(() => {
        (read as { seq: number }).seq = 9;
      }).toThrow(TypeError);
      const record = await store.get('c1');
      expect(() => {
        (record as { botId: string }).botId = 'other';
      }).toThrow(TypeError);
      expect((await store.read('c1'))[0]).toEqual({
        seq: 0,
        activity: expect.objectContaining({ channelData: { n: 1 } }),
      });
      expect((await store.get('c1'))?.botId).toBe('b');
    } finally {
      await store.close();
    }
  });
});

describe('InProcessConversationStore upload capacity', () => {
  it('drops the oldest uploads to make room, refuses one larger than the capacity, never holds more', async () => {
    const store = new InProcessConversationStore({ maxUploadBytes: 1000 });
    try {
      await store.create({ conversationId: 'old', botId: 'b', createdAt: 1 });
      await store.create({ conversationId: 'new', botId: 'b', createdAt: 2 });
      const first = await store.putAttachment('old', { contentType: 'a/b' }, Buffer.alloc(400));
      const second = await store.putAttachment('old', { contentType: 'a/b' }, Buffer.alloc(400));
      expect(store.storedUploadBytes).toBe(800);
      const third = await store.putAttachment('new', { contentType: 'a/b' }, Buffer.alloc(400));
      expect(store.storedUploadBytes).toBe(800);
      expect(await store.getAttachment('old', first.attachmentId)).toBeUndefined();
      expect(await store.getAttachment('old', second.attachmentId)).toBeDefined();
      expect(await store.getAttachment('new', third.attachmentId)).toBeDefined();
      await expect(
        store.putAttachment('new', { contentType: 'a/b' }, Buffer.alloc(1001)),
      ).rejects.toBeInstanceOf(UploadCapacityError);
      await store.deleteAttachment('new', third.attachmentId);
      expect(store.storedUploadBytes).toBe(400);
    } finally {
      await store.close();
    }
  });

  it('releases the bytes of expired conversations', async () => {
    let now = 1_000_000;
    const store = new InProcessConversationStore({
      retentionSeconds: 10,
      maxUploadBytes: 1000,
      now: () => now,
    });
    try {
      await store.create({ conversationId: 'c1', botId: 'b', createdAt: now });
      await store.putAttachment('c1', { contentType: 'a/b' }, Buffer.alloc(700));
      now += 11_000;
      expect(await store.get('c1')).toBeUndefined();
      expect(store.storedUploadBytes).toBe(0);
    } finally {
      await store.close();
    }
  });
});
