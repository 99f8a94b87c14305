import { type ActivityEnvelope } from '@fieldops/contracts';
import { type ActivityBus, type BusSubscription } from '../src';

/** A subscription that records what it receives. */
export interface EnvelopeCollector {
  readonly received: ActivityEnvelope[];
  readonly subscription: BusSubscription;
  /** Sequence numbers received, in arrival order. */
  seqs(): number[];
}

export async function collectEnvelopes(bus: ActivityBus, conversationId: string): Promise<EnvelopeCollector> {
  const received: ActivityEnvelope[] = [];
  const subscription = await bus.subscribe(conversationId, (envelope) => {
    received.push(envelope);
  });
  return { received, subscription, seqs: () => received.map((envelope) => envelope.seq) };
}
