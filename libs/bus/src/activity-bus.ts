import { type ActivityEnvelope } from '@fieldops/contracts';

/** Receives each envelope published to a conversation the handler is subscribed to. */
export type ActivityEnvelopeHandler = (envelope: ActivityEnvelope) => void;

/** A handler's registration on the bus; one per `subscribe()` call. */
export interface BusSubscription {
  /** Stops delivery to this handler only. Idempotent; never rejects. */
  unsubscribe(): Promise<void>;
}

/**
 * Publishes and subscribes activity envelopes per conversation. A wake-up signal between relay-gateway
 * and connector-gateway instances: delivery is at-most-once and the conversation store stays the source
 * of truth, so a subscriber that may have missed envelopes re-reads the store from its watermark.
 *
 * Guarantees of every implementation: handlers run asynchronously (never inside `publish()`), envelopes
 * of one conversation arrive in publish order (per publishing instance), each subscription receives each
 * envelope once, and a throwing handler does not stop delivery to the others.
 */
export interface ActivityBus {
  /** Which implementation this is: Redis pub/sub (multi-instance) or in-process (single process). */
  readonly kind: 'redis' | 'in-process';

  /** Sends the envelope to every subscriber of `envelope.conversationId`. Rejects for an invalid envelope or a closed bus. */
  publish(envelope: ActivityEnvelope): Promise<void>;

  /** Registers a handler for one conversation; resolves once envelopes published afterwards will reach it. */
  subscribe(conversationId: string, handler: ActivityEnvelopeHandler): Promise<BusSubscription>;

  /**
   * Registers a listener called each time the bus was cut off from its broker and is subscribed again: envelopes
   * published in between may be lost, so a subscriber re-reads the store from its watermark. Envelopes published
   * after the call reach every subscription. Returns a function that removes the listener. (Never called in-process.)
   */
  onResubscribed(listener: () => void): () => void;

  /** Resolves when the bus can deliver; otherwise rejects with a message saying why (for readiness probes). */
  checkReady(): Promise<void>;

  /** Releases connections and drops all subscriptions. Idempotent; afterwards publish/subscribe reject. */
  close(): Promise<void>;
}

/** Nest injection token for the application's {@link ActivityBus}. */
export const ACTIVITY_BUS = Symbol('ACTIVITY_BUS');
