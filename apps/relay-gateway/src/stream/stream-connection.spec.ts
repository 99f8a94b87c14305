import { type ActivityBus, type ActivityEnvelopeHandler, type BusSubscription } from '@fieldops/bus';
import { type ActivityEnvelope, type ActivitySet } from '@fieldops/contracts';
import { activityIdFor, type ConversationStore, type StoredActivity } from '@fieldops/conversation-store';
import { type Logger } from '@fieldops/platform';
import { type WebSocket } from 'ws';
import { StreamConnection } from './stream-connection';

const CONVERSATION = 'conv-1';

function entry(seq: number): StoredActivity {
  return {
    seq,
    activity: { type: 'message', id: activityIdFor(CONVERSATION, seq), text: `m${seq}` },
  };
}

function envelope(seq: number): ActivityEnvelope {
  return { conversationId: CONVERSATION, seq, activity: entry(seq).activity, correlationId: `c${seq}` };
}

/** The socket side a StreamConnection uses: readyState, send, close. */
class FakeSocket {
  readonly OPEN = 1;
  readyState = 1;
  readonly frames: ActivitySet[] = [];
  closedWith: { code: number; reason: string } | undefined;

  send(data: string): void {
    this.frames.push(JSON.parse(data) as ActivitySet);
  }

  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  /** The seq of every frame sent, in order (one activity per frame). */
  seqs(): number[] {
    return this.frames.map((frame) => Number(frame.watermark));
  }
}

/** A conversation log in memory whose reads can be held back or made to fail. */
class FakeStore {
  readonly log: StoredActivity[] = [];
  readonly reads: Array<{ afterSeq: number | undefined; limit: number | undefined }> = [];
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;
  failNextRead = false;
  /** The conversation no longer exists (a Redis restarted without persistence). */
  gone = false;

  get(conversationId: string): Promise<{ conversationId: string } | undefined> {
    return Promise.resolve(this.gone ? undefined : { conversationId });
  }

  appended(...seqs: number[]): void {
    for (const seq of seqs) this.log.push(entry(seq));
  }

  /** Reads wait until `release()`. */
  hold(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }

  release(): void {
    this.openGate?.();
    this.gate = undefined;
  }

  async read(conversationId: string, afterSeq?: number, limit?: number): Promise<StoredActivity[]> {
    expect(conversationId).toBe(CONVERSATION);
    this.reads.push({ afterSeq, limit });
    await this.gate;
    if (this.failNextRead) {
      this.failNextRead = false;
      throw new Error('store unavailable');
    }
    const after = afterSeq ?? -1;
    return this.log.filter((stored) => stored.seq > after).slice(0, limit);
  }
}

/** A bus whose deliveries and re-subscriptions the test triggers. */
class FakeBus {
  readonly handlers: ActivityEnvelopeHandler[] = [];
  readonly resubscribedListeners = new Set<() => void>();
  unsubscribed = 0;
  private subscribeGate: Promise<void> | undefined;
  private openSubscribeGate: (() => void) | undefined;

  holdSubscribe(): void {
    this.subscribeGate = new Promise((resolve) => (this.openSubscribeGate = resolve));
  }

  releaseSubscribe(): void {
    this.openSubscribeGate?.();
  }

  async subscribe(conversationId: string, handler: ActivityEnvelopeHandler): Promise<BusSubscription> {
    expect(conversationId).toBe(CONVERSATION);
    await this.subscribeGate;
    this.handlers.push(handler);
    return {
      unsubscribe: () => {
        this.unsubscribed += 1;
        this.handlers.splice(this.handlers.indexOf(handler), 1);
        return Promise.resolve();
      },
    };
  }

  onResubscribed(listener: () => void): () => void {
    this.resubscribedListeners.add(listener);
    return () => this.resubscribedListeners.delete(listener);
  }

  deliver(...seqs: number[]): void {
    for (const seq of seqs) for (const handler of [...this.handlers]) handler(envelope(seq));
  }

  resubscribed(): void {
    for (const listener of this.resubscribedListeners) listener();
  }
}

/** Lets every pending promise chain (reads, drains) run to its end. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('StreamConnection', () => {
  let socket: FakeSocket;
  let store: FakeStore;
  let bus: FakeBus;
  let warnings: unknown[];

  beforeEach(() => {
    socket = new FakeSocket();
    store = new FakeStore();
    bus = new FakeBus();
    warnings = [];
  });

  function connection(afterSeq?: number): StreamConnection {
    const logger = { warn: (details: unknown) => warnings.push(details) } as unknown as Logger;
    return new StreamConnection(
      socket as unknown as WebSocket,
      CONVERSATION,
      afterSeq,
      store as unknown as ConversationStore,
      bus as unknown as ActivityBus,
      logger,
    );
  }

  it('replays the whole log without a watermark, one activity per frame with its seq as the watermark', async () => {
    store.appended(0, 1, 2);
    await connection().open();
    expect(socket.frames).toEqual(
      [0, 1, 2].map((seq) => ({ activities: [entry(seq).activity], watermark: String(seq) })),
    );
  });

  it('replays only what follows the watermark', async () => {
    store.appended(0, 1, 2, 3);
    await connection(1).open();
    expect(socket.seqs()).toEqual([2, 3]);
    expect(store.reads[0]).toEqual({ afterSeq: 1, limit: 500 });
  });

  it('subscribes before it reads the store, so what is published meanwhile is neither lost nor sent twice', async () => {
    store.appended(0, 1);
    store.hold();
    const opening = connection().open();
    await settle();
    expect(bus.handlers).toHaveLength(1);
    expect(store.reads).toHaveLength(1);
    // Appended and published while the replay read is under way: the read sees 2, the inbox holds 2 and 3.
    store.appended(2, 3);
    bus.deliver(2, 3);
    store.release();
    await opening;
    await settle();
    expect(socket.seqs()).toEqual([0, 1, 2, 3]);
  });

  it('sends the next seq straight from the bus, without reading the store', async () => {
    store.appended(0);
    await connection().open();
    const readsAfterReplay = store.reads.length;
    store.appended(1, 2);
    bus.deliver(1, 2);
    await settle();
    expect(socket.seqs()).toEqual([0, 1, 2]);
    expect(store.reads).toHaveLength(readsAfterReplay);
    expect(socket.frames[1]).toEqual({ activities: [entry(1).activity], watermark: '1' });
  });

  it('reads the gap from the store when an envelope is missing, and drops the late one', async () => {
    store.appended(0);
    await connection().open();
    store.appended(1, 2, 3);
    bus.deliver(3);
    await settle();
    expect(socket.seqs()).toEqual([0, 1, 2, 3]);
    expect(store.reads.at(-1)).toEqual({ afterSeq: 0, limit: 500 });
    bus.deliver(1, 2, 3);
    await settle();
    expect(socket.seqs()).toEqual([0, 1, 2, 3]);
  });

  it('never sends a seq twice: duplicated and replayed envelopes are dropped without reading the store', async () => {
    store.appended(0, 1);
    await connection(-1).open();
    const readsAfterReplay = store.reads.length;
    bus.deliver(0, 1, 1);
    store.appended(2);
    bus.deliver(2, 2, 0);
    await settle();
    expect(socket.seqs()).toEqual([0, 1, 2]);
    expect(store.reads).toHaveLength(readsAfterReplay);
  });

  it('catches up from the store when the bus re-subscribed after losing its broker', async () => {
    store.appended(0);
    await connection().open();
    // Published while the bus was cut off: the envelopes are lost, the store has them.
    store.appended(1, 2);
    await settle();
    expect(socket.seqs()).toEqual([0]);
    bus.resubscribed();
    await settle();
    expect(socket.seqs()).toEqual([0, 1, 2]);
    store.appended(3);
    bus.deliver(3);
    await settle();
    expect(socket.seqs()).toEqual([0, 1, 2, 3]);
  });

  it('closes the socket with 4404 when the bus re-subscribed and the conversation is gone', async () => {
    store.appended(0);
    await connection().open();
    store.gone = true;
    bus.resubscribed();
    await settle();
    expect(socket.closedWith).toEqual({ code: 4404, reason: 'conversation not found' });
    expect(socket.seqs()).toEqual([0]);
  });

  it('replays a long log page by page, in order', async () => {
    store.appended(...Array.from({ length: 1_203 }, (_, seq) => seq));
    await connection().open();
    expect(socket.seqs()).toEqual(Array.from({ length: 1_203 }, (_, seq) => seq));
    expect(store.reads.map((read) => read.afterSeq)).toEqual([-1, 499, 999]);
  });

  it('closes the socket with 1011 when the store cannot be read', async () => {
    store.appended(0);
    store.failNextRead = true;
    await connection().open();
    expect(socket.closedWith).toEqual({ code: 1011, reason: 'catch-up failed' });
    expect(socket.frames).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it('stops sending once the socket is no longer open, and does not count what it could not send', async () => {
    store.appended(0);
    const stream = connection();
    await stream.open();
    socket.readyState = 2;
    store.appended(1);
    bus.deliver(1);
    await settle();
    expect(socket.seqs()).toEqual([0]);
    await stream.close();
  });

  it('unsubscribes on close and ignores whatever arrives afterwards', async () => {
    store.appended(0);
    const stream = connection();
    await stream.open();
    await stream.close();
    expect(bus.unsubscribed).toBe(1);
    expect(bus.resubscribedListeners.size).toBe(0);
    store.appended(1);
    bus.deliver(1);
    bus.resubscribed();
    await settle();
    expect(socket.seqs()).toEqual([0]);
  });

  it('closed before its subscription completed: unsubscribes at once and replays nothing', async () => {
    store.appended(0);
    bus.holdSubscribe();
    const stream = connection();
    const opening = stream.open();
    await stream.close();
    bus.releaseSubscribe();
    await opening;
    expect(bus.unsubscribed).toBe(1);
    expect(store.reads).toEqual([]);
    expect(socket.frames).toEqual([]);
  });
});
