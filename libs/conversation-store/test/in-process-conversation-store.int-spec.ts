import { InProcessConversationStore } from '../src';
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
