import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisConversationStore, type StoredActivity } from '@fieldops/conversation-store';
import { freePort, REDIS_SERVER_BINARY, RedisNode, TcpProxy, waitUntil } from '../../src';

if (!REDIS_SERVER_BINARY && process.env.CI === 'true') {
  throw new Error('the store failover test needs redis-server (required under CI)');
}

/** What a test client learnt about one append: acknowledged with an id, or an unknown outcome (an error). */
type Outcome = { text: string; id: string; seq: number } | { text: string; error: string };

const acknowledged = (outcomes: Outcome[]) =>
  outcomes.filter((outcome): outcome is { text: string; id: string; seq: number } => 'id' in outcome);

/**
 * Issue #22 item 13 with the project's own store: a primary, a replica whose replication link goes through a TCP proxy
 * that stops forwarding, appends acknowledged while the link holds, the primary SIGKILLed, the lagging replica promoted
 * (REPLICAOF NO ONE, what Sentinel does). The invariant: an acknowledged activity id is never lost or reused, a reader
 * never sees an entry a failover can take back (its watermark is never past the promoted log), and the bus never
 * carries one either. The appends are concurrent, so they share `WAIT`s (group commit): one `WAIT` per batch, and
 * still no acknowledgement before the batch is replicated.
 */
(REDIS_SERVER_BINARY ? describe : describe.skip)(
  'conversation store across the failover of a lagging replica',
  () => {
    const directory = mkdtempSync(join(tmpdir(), 'fieldops-store-failover-'));
    let primary: RedisNode;
    let replica: RedisNode;
    let link: TcpProxy;

    beforeAll(async () => {
      const [primaryPort, replicaPort, linkPort] = await Promise.all([freePort(), freePort(), freePort()]);
      const common = ['appendonly no', 'save ""', 'repl-diskless-sync-delay 0'];
      primary = new RedisNode(primaryPort, join(directory, 'primary'), common);
      await primary.start();
      link = new TcpProxy(linkPort, primaryPort);
      await link.start();
      replica = new RedisNode(replicaPort, join(directory, 'replica'), [
        ...common,
        `replicaof 127.0.0.1 ${linkPort}`,
      ]);
      await replica.start();
      await waitUntil(
        async () => (await replica.cli('INFO', 'replication')).includes('master_link_status:up'),
        'the replica to sync with the primary through the proxy',
        30_000,
        100,
      );
    }, 60_000);

    afterAll(async () => {
      await link?.stop();
      await Promise.all([primary?.kill(), replica?.kill()]);
      rmSync(directory, { recursive: true, force: true });
    });

    it('never loses, reuses or shows too early an acknowledged id when the promoted replica lagged', async () => {
      const keyPrefix = `fieldops:failover:${randomUUID()}:`;
      const conversationId = `c-${randomUUID()}`;
      const channel = `fieldops:failover:conversation:${conversationId}`;
      const options = { keyPrefix, replicaAcks: 1, replicaAckTimeoutMs: 300 };
      const store = new RedisConversationStore({ ...options, redisUrl: `redis://127.0.0.1:${primary.port}` });
      const subscriber = new Redis(primary.port, '127.0.0.1');
      const published: number[] = [];
      subscriber.on('message', (_channel: string, message: string) =>
        published.push((JSON.parse(message) as { seq: number }).seq),
      );
      await subscriber.subscribe(channel);
      let promoted: RedisConversationStore | undefined;
      try {
        await store.create({ conversationId, botId: 'b', createdAt: Date.now() });
        const outcomes: Outcome[] = [];
        let sent = 0;
        const send = async (on: RedisConversationStore) => {
          const text = `message ${sent++}`;
          try {
            const { stored } = await on.appendAndPublish(
              conversationId,
              { type: 'message', text },
              { route: { channel, command: 'PUBLISH' }, correlationId: randomUUID() },
            );
            outcomes.push({ text, id: stored.activity.id!, seq: stored.seq });
          } catch (error) {
            outcomes.push({ text, error: String((error as Error).message) });
          }
        };

        const waits = async () =>
          Number(/cmdstat_wait:calls=(\d+)/.exec(await primary.cli('INFO', 'commandstats'))?.[1] ?? 0);
        const together = (on: RedisConversationStore, count: number) =>
          Promise.all(Array.from({ length: count }, () => send(on)));

        // 5 appends issued together: one batch, one WAIT, all acknowledged once the replica holds them.
        let waitsBefore = await waits();
        await together(store, 5);
        expect(acknowledged(outcomes)).toHaveLength(5);
        expect((await waits()) - waitsBefore).toBe(1);
        await waitUntil(() => published.length === 5, 'the first 5 published', 10_000, 20);

        // The replication link stops forwarding; 5 appends together, and 5 more while their WAIT is under way: they
        // share the next WAIT. None is acknowledged.
        link.freeze();
        waitsBefore = await waits();
        const first = together(store, 5);
        await new Promise((resolve) => setImmediate(resolve));
        await Promise.all([first, together(store, 5)]);
        expect((await waits()) - waitsBefore).toBe(2);
        expect(acknowledged(outcomes)).toHaveLength(5);
        // What readers (polling, stream replays) and the bus saw before the failover: their watermark.
        const readBefore = await store.read(conversationId);
        const lastSeqBefore = await store.lastSeq(conversationId);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const watermark = Math.max(
          ...readBefore.map((entry) => entry.seq),
          ...published,
          lastSeqBefore ?? -1,
        );

        // The primary crashes; the lagging replica is promoted.
        await primary.kill();
        link.cut();
        await replica.cli('REPLICAOF', 'NO', 'ONE');
        await waitUntil(
          async () => (await replica.cli('INFO', 'replication')).includes('role:master'),
          'the replica promoted',
          10_000,
          50,
        );
        promoted = new RedisConversationStore({
          ...options,
          replicaAcks: 0,
          redisUrl: `redis://127.0.0.1:${replica.port}`,
        });
        for (let index = 0; index < 3; index += 1) await send(promoted);

        const log: StoredActivity[] = await promoted.read(conversationId);
        const byId = new Map(log.map((entry) => [entry.activity.id!, entry.activity.text]));
        const report = {
          acknowledged: acknowledged(outcomes).map((outcome) => outcome.id.split('|')[1]),
          unknown: outcomes.length - acknowledged(outcomes).length,
          watermarkBeforeFailover: watermark,
          promotedLog: log.map((entry) => `${entry.seq}:${String(entry.activity.text)}`),
        };
        // Every acknowledged append is in the promoted log under its id, with its own text.
        const lost = acknowledged(outcomes).filter((outcome) => byId.get(outcome.id) !== outcome.text);
        expect({ lost: lost.map((outcome) => outcome.id), report }).toEqual({ lost: [], report });
        // No id acknowledged twice.
        const ids = acknowledged(outcomes).map((outcome) => outcome.id);
        expect(new Set(ids).size).toBe(ids.length);
        // No reader or bus subscriber was told of a seq the promoted log does not hold as it was: its stream would
        // skip what is appended under that seq next.
        expect(watermark).toBeLessThan(log.length);
        // The log is consecutive from 0, and holds the appends after the failover.
        log.forEach((entry, index) => expect(entry.seq).toBe(index));
        expect(
          acknowledged(outcomes)
            .slice(-3)
            .map((outcome) => outcome.text),
        ).toEqual(['message 15', 'message 16', 'message 17']);
      } finally {
        subscriber.disconnect();
        await store.close();
        await promoted?.close();
      }
    }, 60_000);
  },
);
