import { randomUUID } from 'node:crypto';
import { type ActivityEnvelope } from '@fieldops/contracts';
import { type ActivityBus } from '../src';
import { collectEnvelopes, type EnvelopeCollector } from './envelope-collector';
import { makeEnvelope } from './make-envelope';
import { waitUntil } from './wait-until';

export interface ActivityBusContractFixture {
  /** The bus under test. */
  bus: ActivityBus;
  /** A second bus on the same backend (another relay/connector instance); the same object for in-process. */
  peer: ActivityBus;
  /** Errors the buses reported for throwing handlers, when the fixture captures them. */
  handlerErrors?: readonly unknown[];
  cleanup(): Promise<void>;
}

/** Behaviour every {@link ActivityBus} implementation must show; run once per implementation. */
export function describeActivityBusContract(
  name: string,
  factory: () => Promise<ActivityBusContractFixture>,
): void {
  describe(name, () => {
    let fixture: ActivityBusContractFixture;
    let bus: ActivityBus;
    let peer: ActivityBus;

    beforeEach(async () => {
      fixture = await factory();
      ({ bus, peer } = fixture);
    });

    afterEach(async () => {
      await fixture.cleanup();
    });

    /** Publishes a marker and waits until every collector has it: anything published earlier has arrived by then. */
    async function flush(publisher: ActivityBus, conversationId: string, collectors: EnvelopeCollector[]) {
      const markerSeq = Number.MAX_SAFE_INTEGER;
      await publisher.publish(makeEnvelope(conversationId, markerSeq));
      await waitUntil(
        () => collectors.every((collector) => collector.seqs().includes(markerSeq)),
        'every subscriber received the flush marker',
      );
      for (const collector of collectors) collector.received.pop();
    }

    it('delivers 200 envelopes to a subscriber in publish order', async () => {
      const conversationId = randomUUID();
      const collector = await collectEnvelopes(bus, conversationId);
      const seqs = Array.from({ length: 200 }, (_, index) => index + 1);

      await Promise.all(seqs.map((seq) => bus.publish(makeEnvelope(conversationId, seq))));

      await waitUntil(() => collector.received.length >= 200, '200 envelopes arrived');
      expect(collector.seqs()).toEqual(seqs);
      expect(collector.received[0]).toEqual(makeEnvelope(conversationId, 1));
    });

    it('keeps conversations apart', async () => {
      const first = randomUUID();
      const second = randomUUID();
      const firstCollector = await collectEnvelopes(bus, first);
      const secondCollector = await collectEnvelopes(bus, second);

      for (let seq = 1; seq <= 5; seq += 1) {
        await bus.publish(makeEnvelope(first, seq));
        await bus.publish(makeEnvelope(second, 100 + seq));
      }
      await flush(bus, first, [firstCollector]);
      await flush(bus, second, [secondCollector]);

      expect(firstCollector.seqs()).toEqual([1, 2, 3, 4, 5]);
      expect(secondCollector.seqs()).toEqual([101, 102, 103, 104, 105]);
      expect(firstCollector.received.every((envelope) => envelope.conversationId === first)).toBe(true);
      expect(secondCollector.received.every((envelope) => envelope.conversationId === second)).toBe(true);
    });

    it('gives each of several subscribers of one conversation every envelope exactly once', async () => {
      const conversationId = randomUUID();
      const collectors = await Promise.all([1, 2, 3].map(() => collectEnvelopes(bus, conversationId)));
      const sameHandlerTwice: ActivityEnvelope[] = [];
      const recordTwice = (envelope: ActivityEnvelope) => sameHandlerTwice.push(envelope);
      await bus.subscribe(conversationId, recordTwice);
      await bus.subscribe(conversationId, recordTwice);

      for (let seq = 1; seq <= 10; seq += 1) await bus.publish(makeEnvelope(conversationId, seq));
      await flush(bus, conversationId, collectors);

      for (const collector of collectors) {
        expect(collector.seqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      }
      // Two subscriptions with one function are two subscribers.
      await waitUntil(
        () => sameHandlerTwice.length >= 22,
        'the doubly subscribed handler got 11 envelopes twice',
      );
      expect(sameHandlerTwice).toHaveLength(22);
    });

    it('delivers what one instance publishes to subscribers on its peer, both ways', async () => {
      const conversationId = randomUUID();
      const onPeer = await collectEnvelopes(peer, conversationId);
      const onBus = await collectEnvelopes(bus, conversationId);

      await bus.publish(makeEnvelope(conversationId, 1));
      await peer.publish(makeEnvelope(conversationId, 2));

      await waitUntil(
        () => onPeer.received.length >= 2 && onBus.received.length >= 2,
        'both instances got both',
      );
      expect(onPeer.seqs()).toEqual([1, 2]);
      expect(onBus.seqs()).toEqual([1, 2]);
    });

    it('stops delivery to an unsubscribed handler only', async () => {
      const conversationId = randomUUID();
      const leaving = await collectEnvelopes(bus, conversationId);
      const staying = await collectEnvelopes(bus, conversationId);
      await bus.publish(makeEnvelope(conversationId, 1));
      await flush(bus, conversationId, [leaving, staying]);

      await leaving.subscription.unsubscribe();
      await leaving.subscription.unsubscribe(); // idempotent
      await bus.publish(makeEnvelope(conversationId, 2));
      await flush(bus, conversationId, [staying]);

      expect(leaving.seqs()).toEqual([1]);
      expect(staying.seqs()).toEqual([1, 2]);
    });

    it('delivers again after the last handler left and a new one subscribed', async () => {
      const conversationId = randomUUID();
      const first = await collectEnvelopes(bus, conversationId);
      await first.subscription.unsubscribe();

      const second = await collectEnvelopes(bus, conversationId);
      await peer.publish(makeEnvelope(conversationId, 1));
      await flush(peer, conversationId, [second]);

      expect(first.seqs()).toEqual([]);
      expect(second.seqs()).toEqual([1]);
    });

    it('keeps a subscription that races with the previous last unsubscribe', async () => {
      for (let round = 0; round < 20; round += 1) {
        const conversationId = randomUUID();
        const leaving = await collectEnvelopes(bus, conversationId);
        // Alternate which of the two operations is issued first.
        const arriving =
          round % 2 === 0
            ? (
                await Promise.all([leaving.subscription.unsubscribe(), collectEnvelopes(bus, conversationId)])
              )[1]
            : (
                await Promise.all([collectEnvelopes(bus, conversationId), leaving.subscription.unsubscribe()])
              )[0];
        await peer.publish(makeEnvelope(conversationId, round));
        await flush(peer, conversationId, [arriving]);
        expect(arriving.seqs()).toEqual([round]);
        await arriving.subscription.unsubscribe();
      }
    });

    it('keeps delivering to other handlers when one throws or rejects', async () => {
      const conversationId = randomUUID();
      const before = await collectEnvelopes(bus, conversationId);
      await bus.subscribe(conversationId, () => {
        throw new Error('handler exploded');
      });
      await bus.subscribe(conversationId, () => Promise.reject(new Error('async handler exploded')) as never);
      const after = await collectEnvelopes(bus, conversationId);

      await bus.publish(makeEnvelope(conversationId, 1));
      await bus.publish(makeEnvelope(conversationId, 2));
      await flush(bus, conversationId, [before, after]);

      expect(before.seqs()).toEqual([1, 2]);
      expect(after.seqs()).toEqual([1, 2]);
      const { handlerErrors } = fixture;
      if (handlerErrors) {
        await waitUntil(() => handlerErrors.length >= 6, 'six handler failures were reported');
        const messages = handlerErrors.map((error) => (error as Error).message);
        expect(messages.filter((message) => message === 'handler exploded')).toHaveLength(3);
        expect(messages.filter((message) => message === 'async handler exploded')).toHaveLength(3);
      }
    });

    it('never calls handlers inside publish()', async () => {
      const conversationId = randomUUID();
      let publishing = false;
      const calledWhilePublishing: boolean[] = [];
      await bus.subscribe(conversationId, () => calledWhilePublishing.push(publishing));

      publishing = true;
      const published = bus.publish(makeEnvelope(conversationId, 1));
      publishing = false;
      await published;

      await waitUntil(() => calledWhilePublishing.length === 1, 'the handler ran');
      expect(calledWhilePublishing).toEqual([false]);
    });

    it('delivers the envelope as it was when published', async () => {
      const conversationId = randomUUID();
      const collector = await collectEnvelopes(bus, conversationId);
      const envelope = makeEnvelope(conversationId, 1);

      const published = bus.publish(envelope);
      // A bus copies the envelope (Redis) or freezes it (in-process: the write throws); either way it cannot change.
      let refused: unknown;
      try {
        envelope.activity.text = 'changed after publish';
      } catch (error) {
        refused = error;
      }
      await published;

      await waitUntil(() => collector.received.length === 1, 'the envelope arrived');
      const received = collector.received[0];
      expect(received?.activity.text).toBe('message 1');
      expect(refused === undefined || refused instanceof TypeError).toBe(true);
      expect(received !== envelope || Object.isFrozen(received.activity)).toBe(true);
    });

    it('resolves a publish nobody listens to', async () => {
      await expect(bus.publish(makeEnvelope(randomUUID(), 1))).resolves.toBeUndefined();
    });

    it('rejects an invalid envelope', async () => {
      const invalid = { conversationId: '', seq: 1, correlationId: 'c', activity: { type: 'message' } };
      await expect(bus.publish(invalid)).rejects.toThrow(/conversationId/);
      await expect(
        bus.publish({ ...makeEnvelope(randomUUID(), 1), activity: null } as never),
      ).rejects.toThrow(/activity/);
      await expect(bus.subscribe('', () => undefined)).rejects.toThrow(/conversationId/);
    });

    it('reports ready', async () => {
      await expect(bus.checkReady()).resolves.toBeUndefined();
      await expect(peer.checkReady()).resolves.toBeUndefined();
    });

    it('rejects publish, subscribe and checkReady after close, and closes idempotently', async () => {
      const conversationId = randomUUID();
      const collector = await collectEnvelopes(bus, conversationId);

      await bus.close();
      await bus.close();

      await expect(bus.publish(makeEnvelope(conversationId, 1))).rejects.toThrow(/closed/);
      await expect(bus.subscribe(conversationId, () => undefined)).rejects.toThrow(/closed/);
      await expect(bus.checkReady()).rejects.toThrow(/closed/);
      await expect(collector.subscription.unsubscribe()).resolves.toBeUndefined();
    });
  });
}
