import { randomUUID } from 'node:crypto';
import { type ConversationRecord, type ConversationStore, UnknownConversationError } from '../src';

export interface ConversationStoreContractFixture {
  store: ConversationStore;
  /** A second store on the same backend (another instance); the same object for in-process. */
  peer: ConversationStore;
  cleanup(): Promise<void>;
}

function newConversation(overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  return { conversationId: `c-${randomUUID()}`, botId: 'bot-1', createdAt: Date.now(), ...overrides };
}

/** Behaviour every {@link ConversationStore} implementation must show; run once per implementation. */
export function describeConversationStoreContract(
  name: string,
  factory: () => Promise<ConversationStoreContractFixture>,
): void {
  describe(name, () => {
    let fixture: ConversationStoreContractFixture;
    let store: ConversationStore;
    let peer: ConversationStore;

    beforeEach(async () => {
      fixture = await factory();
      ({ store, peer } = fixture);
    });

    afterEach(() => fixture.cleanup());

    it('creates a conversation once and reads its record from any instance', async () => {
      const record = newConversation({ userId: 'dl_user', userName: 'Ann', locale: 'en-GB' });
      expect(await store.create(record)).toBe(true);
      expect(await peer.create({ ...record, botId: 'other' })).toBe(false);
      expect(await peer.get(record.conversationId)).toEqual(record);
      expect(await store.get(`c-${randomUUID()}`)).toBeUndefined();
      expect(await store.lastSeq(record.conversationId)).toBe(-1);
      expect(await store.lastSeq(`c-${randomUUID()}`)).toBeUndefined();
    });

    it('sets the user only when none is set', async () => {
      const record = newConversation();
      await store.create(record);
      expect(
        await store.setUserIfUnset(record.conversationId, { userId: 'u1', userName: 'One' }),
      ).toMatchObject({ userId: 'u1', userName: 'One' });
      expect(await peer.setUserIfUnset(record.conversationId, { userId: 'u2' })).toMatchObject({
        userId: 'u1',
      });
      expect(await store.setUserIfUnset(`c-${randomUUID()}`, { userId: 'u' })).toBeUndefined();
    });

    it('keeps one home conversation per bot and user, whatever the callers and instances', async () => {
      const userId = `dl_${randomUUID()}`;
      const candidates = [store, peer, store, peer].map((instance) =>
        instance.homeConversation({ ...newConversation({ userId, userName: 'Ann' }), userId }),
      );
      const homes = await Promise.all(candidates);
      const [home] = homes;
      expect(new Set(homes.map((record) => record.conversationId)).size).toBe(1);
      expect(home).toMatchObject({ botId: 'bot-1', userId, userName: 'Ann' });
      expect(await peer.get(home.conversationId)).toMatchObject({ userId });
      // Asked again with another candidate: the same conversation; another bot or user has its own.
      const again = await peer.homeConversation({ ...newConversation({ userId }), userId });
      expect(again.conversationId).toBe(home.conversationId);
      const otherBot = await store.homeConversation({
        ...newConversation({ userId, botId: 'bot-2' }),
        userId,
      });
      const otherUser = await store.homeConversation({
        ...newConversation({ userId: `${userId}x` }),
        userId: `${userId}x`,
      });
      expect(otherBot.conversationId).not.toBe(home.conversationId);
      expect(otherUser.conversationId).not.toBe(home.conversationId);
      expect(otherBot.conversationId).not.toBe(otherUser.conversationId);
    });

    it('lets exactly one caller claim each milestone', async () => {
      const record = newConversation();
      await store.create(record);
      const claims = await Promise.all([
        store.claimMilestone(record.conversationId, 'started'),
        peer.claimMilestone(record.conversationId, 'started'),
        store.claimMilestone(record.conversationId, 'started'),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await peer.claimMilestone(record.conversationId, 'userJoined')).toBe(true);
      await expect(store.claimMilestone(`c-${randomUUID()}`, 'started')).rejects.toBeInstanceOf(
        UnknownConversationError,
      );
    });

    it('records the latest join: true for a new one, false for the latest again, true for an earlier one after another', async () => {
      const record = newConversation();
      await store.create(record);
      const claims = await Promise.all([
        store.claimJoin(record.conversationId, 'join-a'),
        peer.claimJoin(record.conversationId, 'join-a'),
        store.claimJoin(record.conversationId, 'join-a'),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await peer.claimJoin(record.conversationId, 'join-b')).toBe(true);
      expect(await store.claimJoin(record.conversationId, 'join-b')).toBe(false);
      expect(await store.claimJoin(record.conversationId, 'join-a')).toBe(true);
      // The record is unchanged by it.
      expect(await peer.get(record.conversationId)).toEqual(record);
      await expect(store.claimJoin(`c-${randomUUID()}`, 'join-a')).rejects.toBeInstanceOf(
        UnknownConversationError,
      );
    });

    it('appends with sequence numbers from 0, stamping ids and strictly increasing timestamps', async () => {
      const { conversationId } = newConversation();
      await store.create(newConversation({ conversationId }));
      const first = await store.append(conversationId, {
        type: 'message',
        id: 'client-chosen',
        text: 'one',
        channelData: { clientActivityID: 'x', nested: [1, { deep: true }] },
        unknownField: 'kept',
      });
      const second = await peer.append(conversationId, { type: 'typing' });
      expect(first.seq).toBe(0);
      expect(second.seq).toBe(1);
      expect(first.activity).toMatchObject({
        id: `${conversationId}|0000000`,
        text: 'one',
        channelData: { clientActivityID: 'x', nested: [1, { deep: true }] },
        unknownField: 'kept',
      });
      expect(second.activity.id).toBe(`${conversationId}|0000001`);
      expect(first.activity.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
      expect(second.activity.timestamp! > first.activity.timestamp!).toBe(true);
      expect(Math.abs(Date.parse(first.activity.timestamp!) - Date.now())).toBeLessThan(5_000);
      expect(await store.lastSeq(conversationId)).toBe(1);
    });

    it('reads back exactly what append returned, after a watermark and in pages', async () => {
      const { conversationId } = newConversation();
      await store.create(newConversation({ conversationId }));
      const appended = [];
      for (let index = 0; index < 5; index += 1) {
        appended.push(await store.append(conversationId, { type: 'message', text: `m${index}` }));
      }
      expect(await peer.read(conversationId)).toEqual(appended);
      expect(await peer.read(conversationId, 2)).toEqual(appended.slice(3));
      expect(await peer.read(conversationId, 0, 2)).toEqual(appended.slice(1, 3));
      expect(await peer.read(conversationId, -1)).toEqual(appended);
      expect(await peer.read(conversationId, 4)).toEqual([]);
      expect(await peer.read(`c-${randomUUID()}`)).toEqual([]);
    });

    it('never loses or repeats a sequence number under concurrent appends from several instances', async () => {
      const { conversationId } = newConversation();
      await store.create(newConversation({ conversationId }));
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, index) =>
          (index % 2 ? store : peer).append(conversationId, { type: 'message', text: String(index) }),
        ),
      );
      const seqs = results.map((result) => result.seq).sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: 60 }, (_, index) => index));
      const log = await store.read(conversationId);
      expect(log.map((entry) => entry.seq)).toEqual(seqs);
      const timestamps = log.map((entry) => entry.activity.timestamp!);
      expect([...timestamps].sort()).toEqual(timestamps);
      expect(new Set(timestamps).size).toBe(60);
    });

    it('sets a user name only together with the user, and keeps the record free of its counters', async () => {
      const record = newConversation();
      await store.create(record);
      await store.append(record.conversationId, { type: 'message' });
      await store.claimMilestone(record.conversationId, 'started');
      expect(await peer.get(record.conversationId)).toEqual(record);
      expect(await store.setUserIfUnset(record.conversationId, { userId: 'u1' })).toEqual({
        ...record,
        userId: 'u1',
      });
      expect(await peer.setUserIfUnset(record.conversationId, { userId: 'u2', userName: 'Two' })).toEqual({
        ...record,
        userId: 'u1',
      });
      expect(await peer.get(record.conversationId)).toEqual({ ...record, userId: 'u1' });
    });

    it('round-trips any JSON an activity holds, byte for byte', async () => {
      const { conversationId } = newConversation();
      await store.create(newConversation({ conversationId }));
      const activity = {
        type: 'message',
        timestamp: '2001-01-01T00:00:00Z',
        text: 'quotes " \\ backslash, 中文, emoji 🛠️, separators \u2028\u2029, nul \u0000, "},"a":{',
        value: { empty: '', zero: 0, negative: -1.5, big: 1e21, yes: true, no: false, nothing: null },
        entities: [{ type: 'e', list: [[], {}, [null]] }],
      };
      const appended = await store.append(conversationId, activity);
      const [read] = await peer.read(conversationId);
      expect(read).toEqual(appended);
      const { timestamp: _timestamp, ...rest } = activity;
      expect(read.activity).toEqual({
        ...rest,
        id: `${conversationId}|0000000`,
        timestamp: read.activity.timestamp,
      });
      expect(read.activity.timestamp).not.toBe(activity.timestamp);
    });

    it('refuses to append to an unknown conversation', async () => {
      await expect(store.append(`c-${randomUUID()}`, { type: 'message' })).rejects.toBeInstanceOf(
        UnknownConversationError,
      );
    });

    it('stores attachments with their metadata, readable from any instance', async () => {
      const { conversationId } = newConversation();
      await store.create(newConversation({ conversationId }));
      const data = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
      const attachment = await store.putAttachment(
        conversationId,
        { contentType: 'image/png', name: 'a.png' },
        data,
      );
      expect(attachment).toMatchObject({ conversationId, contentType: 'image/png', name: 'a.png', size: 7 });
      const read = await peer.getAttachment(conversationId, attachment.attachmentId);
      expect(read?.attachment).toEqual(attachment);
      expect(read?.data.equals(data)).toBe(true);
      expect(await peer.getAttachment(conversationId, randomUUID())).toBeUndefined();
      await expect(
        store.putAttachment(`c-${randomUUID()}`, { contentType: 'text/plain' }, Buffer.from('x')),
      ).rejects.toBeInstanceOf(UnknownConversationError);
      await peer.deleteAttachment(conversationId, attachment.attachmentId);
      expect(await store.getAttachment(conversationId, attachment.attachmentId)).toBeUndefined();
      await store.deleteAttachment(conversationId, attachment.attachmentId);
    });

    it('reports ready, and closes idempotently', async () => {
      await expect(store.checkReady()).resolves.toBeUndefined();
      await store.close();
      await store.close();
      await expect(store.checkReady()).rejects.toThrow();
    });
  });
}
