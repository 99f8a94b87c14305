import { type ActivityBus, type BusSubscription } from '@fieldops/bus';
import { type ActivityEnvelope } from '@fieldops/contracts';
import { type ConversationStore } from '@fieldops/conversation-store';
import { type Logger } from '@fieldops/platform';
import { type Writable } from 'node:stream';
import { type WebSocket } from 'ws';
import { encodeFrame, frameOfEnvelope, TEXT_FRAME } from './activity-frame';
import { batchWritesOfThisTick } from './tick-write-batch';

const REPLAY_PAGE_SIZE = 500;

/**
 * The close code of a stream whose conversation no longer exists (a Redis restarted without persistence, the
 * conversation's retention run out): 4404, in the private-use range (4000–4999), read as HTTP's 404. The real service
 * documents no such code; DirectLineJS reconnects after any close, and its reconnection (`GET /conversations/{id}`)
 * then gets the 404 that ends the conversation on the client's side.
 */
export const CONVERSATION_GONE_CLOSE_CODE = 4404;
export const CONVERSATION_GONE_CLOSE_REASON = 'conversation not found';

const RECONNECT_LOOKUPS = 20;
const RECONNECT_LOOKUP_PAUSE_MS = 250;

/**
 * One client socket of a conversation. Subscribes to the bus first (envelopes wait in the inbox), replays the store
 * after the watermark, then sends live: the next seq straight from the envelope, anything after a gap (an envelope
 * lost or overtaken on the bus) from the store, and anything at or below the last sent seq never again.
 *
 * Every frame carries exactly one activity (and its seq as the watermark). DirectLineJS emits the activities of one
 * frame on separate turns of its async scheduler and merges frames with flatMap, so the activities of a replay frame
 * interleave with those of the live frames that arrive meanwhile: one activity per frame is what keeps its order.
 */
export class StreamConnection {
  private lastSent: number;
  private readonly inbox: ActivityEnvelope[] = [];
  private draining = false;
  private needsCatchUp = true;
  private subscription: BusSubscription | undefined;
  private stopCatchingUpAfterReconnects: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    readonly conversationId: string,
    afterSeq: number | undefined,
    private readonly store: ConversationStore,
    private readonly bus: ActivityBus,
    private readonly logger: Logger,
    /** The socket under the WebSocket: when given, the frames of one tick leave in one write. */
    private readonly transport?: Writable,
  ) {
    this.lastSent = afterSeq ?? -1;
  }

  async open(): Promise<void> {
    this.subscription = await this.bus.subscribe(this.conversationId, (envelope) => this.receive(envelope));
    if (this.closed) {
      await this.subscription.unsubscribe();
      return;
    }
    // Envelopes published while the bus was cut off are lost: read the store once it is subscribed again — unless the
    // conversation went with the Redis that came back (restarted without persistence): then the stream is closed.
    this.stopCatchingUpAfterReconnects = this.bus.onResubscribed(() => void this.afterReconnect());
    await this.drain();
  }

  /**
   * After the bus reconnected: a stream whose conversation is gone is closed with {@link CONVERSATION_GONE_CLOSE_CODE};
   * any other catches up from the store. The store's own connection may come back a moment after the bus's: a lookup
   * that fails is tried again (RECONNECT_LOOKUPS times, RECONNECT_LOOKUP_PAUSE_MS apart) before catching up anyway.
   */
  private async afterReconnect(): Promise<void> {
    for (let attempt = 0; attempt < RECONNECT_LOOKUPS && !this.closed; attempt += 1) {
      let exists: boolean;
      try {
        exists = (await this.store.get(this.conversationId)) !== undefined;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_LOOKUP_PAUSE_MS));
        continue;
      }
      if (!exists && !this.closed) {
        this.logger.warn(
          { conversationId: this.conversationId },
          'the conversation of an open stream is gone; closing the stream',
        );
        this.socket.close(CONVERSATION_GONE_CLOSE_CODE, CONVERSATION_GONE_CLOSE_REASON);
        return;
      }
      break;
    }
    if (this.closed) return;
    this.needsCatchUp = true;
    await this.drain();
  }

  close(): Promise<void> {
    this.closed = true;
    this.inbox.length = 0;
    this.stopCatchingUpAfterReconnects?.();
    return this.subscription?.unsubscribe() ?? Promise.resolve();
  }

  private receive(envelope: ActivityEnvelope): void {
    if (this.closed || envelope.seq <= this.lastSent) return;
    // The common case, what drain() would do first, without its promise: the next seq, nothing pending.
    const next = envelope.seq === this.lastSent + 1;
    if (next && !this.draining && !this.needsCatchUp && this.inbox.length === 0) {
      this.send(envelope.seq, frameOfEnvelope(envelope));
      return;
    }
    this.inbox.push(envelope);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (!this.closed) {
        if (this.needsCatchUp) {
          this.needsCatchUp = false;
          await this.catchUp();
          continue;
        }
        const envelope = this.inbox.shift();
        if (!envelope) break;
        if (envelope.seq <= this.lastSent) continue;
        if (envelope.seq === this.lastSent + 1) {
          this.send(envelope.seq, frameOfEnvelope(envelope));
        } else {
          this.needsCatchUp = true;
        }
      }
    } catch (error) {
      this.logger.warn(
        { err: error, conversationId: this.conversationId },
        'stream catch-up failed; closing',
      );
      this.socket.close(1011, 'catch-up failed');
    } finally {
      this.draining = false;
    }
  }

  /** Sends everything the store holds after the last sent seq. */
  private async catchUp(): Promise<void> {
    for (;;) {
      const entries = await this.store.read(this.conversationId, this.lastSent, REPLAY_PAGE_SIZE);
      if (this.closed || entries.length === 0) return;
      // One frame per activity, in seq order (see the class comment).
      for (const entry of entries) {
        if (this.socket.readyState !== this.socket.OPEN) return;
        this.send(entry.seq, encodeFrame(entry));
      }
      if (entries.length < REPLAY_PAGE_SIZE) return;
    }
  }

  private send(seq: number, frame: Buffer): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.lastSent = seq;
    if (this.transport) batchWritesOfThisTick(this.transport);
    this.socket.send(frame, TEXT_FRAME);
  }
}
