import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisActivityBus, type RedisActivityBusOptions } from '../src';
import { describeActivityBusContract } from './activity-bus.contract';
import { collectEnvelopes } from './envelope-collector';
import { makeEnvelope } from './make-envelope';
import { RecordingLogger } from './recording-logger';
import { waitUntil } from './wait-until';

const redisUrl = process.env['REDIS_URL'];
/** Unique per run so parallel runs against one Redis server never see each other's envelopes. */
const channelPrefix = `fieldops:test:${randomUUID()}:`;

describe(
  // The int tier always has a Redis: REDIS_URL, or the redis-server jest.services.js starts for the run.
  'RedisActivityBus against a real Redis server',
  () => {
    const url = redisUrl ?? '';
    const openBuses: RedisActivityBus[] = [];

    function openBus(options: Partial<RedisActivityBusOptions> = {}): RedisActivityBus {
      const bus = new RedisActivityBus({ redisUrl: url, channelPrefix, ...options });
      openBuses.push(bus);
      return bus;
    }

    afterEach(async () => {
      await Promise.all(openBuses.splice(0).map((bus) => bus.close()));
    });

    describeActivityBusContract('contract', () => {
      const handlerErrors: unknown[] = [];
      const onHandlerError = (error: unknown) => handlerErrors.push(error);
      const bus = openBus({ onHandlerError });
      const peer = openBus({ onHandlerError });
      return Promise.resolve({
        bus,
        peer,
        handlerErrors,
        cleanup: async () => {
          await Promise.all([bus.close(), peer.close()]);
        },
      });
    });

    describe('Redis specifics', () => {
      let admin: Redis;

      beforeEach(() => {
        admin = new Redis(url, { connectionName: 'fieldops-bus-test-admin' });
      });

      afterEach(async () => {
        await admin.quit();
      });

      async function clientIdByName(name: string): Promise<string> {
        const clients = (await admin.client('LIST', 'TYPE', 'PUBSUB')) as string;
        const line = clients.split('\n').find((client) => client.includes(` name=${name} `));
        const id = /^id=(\d+) /.exec(line ?? '')?.[1];
        if (!id) throw new Error(`No pub/sub client named ${name} in CLIENT LIST:\n${clients}`);
        return id;
      }

      it('keeps an existing subscription working after the subscriber connection is killed', async () => {
        const logger = new RecordingLogger();
        const connectionName = `fieldops-bus-test-${randomUUID()}`;
        const bus = openBus({ logger, connectionName });
        const publisher = openBus();
        const conversationId = randomUUID();
        const collector = await collectEnvelopes(bus, conversationId);
        let resubscribed = 0;
        bus.onResubscribed(() => (resubscribed += 1));
        await publisher.publish(makeEnvelope(conversationId, 0));
        await waitUntil(() => collector.received.length === 1, 'the envelope before the kill arrived');
        expect(resubscribed).toBe(0);

        // Kill only this bus's subscriber, so parallel runs on the same server keep their connections.
        const subscriberId = await clientIdByName(`${connectionName}-subscriber`);
        const killed = (await admin.client('KILL', 'TYPE', 'pubsub', 'ID', subscriberId)) as number;
        expect(killed).toBe(1);

        // Envelopes published while the subscriber is reconnecting are lost, so keep publishing until one lands.
        let seq = 0;
        await waitUntil(
          () => {
            seq += 1;
            // Fire and forget: a failed publish just means another attempt on the next poll.
            publisher.publish(makeEnvelope(conversationId, seq)).catch(() => undefined);
            return collector.seqs().some((received) => received > 0);
          },
          'an envelope published after the kill arrived',
          { timeoutMs: 10_000, intervalMs: 50 },
        );

        // Subscribers are told once the subscription holds again; from then on nothing is lost.
        await waitUntil(() => resubscribed === 1, 'the resubscribed notification');
        const afterNotification = seq + 1000;
        await publisher.publish(makeEnvelope(conversationId, afterNotification));
        await waitUntil(
          () => collector.seqs().includes(afterNotification),
          'the envelope published after the notification arrived',
        );

        await expect(bus.checkReady()).resolves.toBeUndefined();
        expect(logger.matching('warn', 'connection lost')).toHaveLength(1);
        await waitUntil(
          () => logger.matching('info', 'connection restored').length === 1,
          'the reconnection was logged',
        );
        expect(logger.matching('info', 'connection restored')[0]?.fields).toMatchObject({
          connection: 'subscriber',
        });
      });

      it('rejects checkReady quickly, logs sparingly and closes promptly when Redis is unreachable', async () => {
        const logger = new RecordingLogger();
        const bus = new RedisActivityBus({ redisUrl: 'redis://:secret@127.0.0.1:1', logger });
        try {
          const started = Date.now();
          await expect(bus.checkReady()).rejects.toThrow(
            /Redis activity bus is not ready: (publisher|subscriber) connection to redis:\/\/127\.0\.0\.1:1 .*ECONNREFUSED/,
          );
          expect(Date.now() - started).toBeLessThan(3_000);
          await expect(bus.publish(makeEnvelope(randomUUID(), 1))).rejects.toThrow();

          // Roughly a dozen retries per connection happened by now; each connection logged its outage once.
          const warnings = logger.matching('warn', 'connection failed');
          expect(warnings).toHaveLength(2);
          expect(JSON.stringify(logger.records)).not.toContain('secret');
        } finally {
          const closing = Date.now();
          await bus.close();
          expect(Date.now() - closing).toBeLessThan(2_000);
        }
      });

      it('publishes JSON on the prefixed channel of the conversation', async () => {
        const bus = openBus();
        const conversationId = randomUUID();
        const watcher = admin.duplicate();
        try {
          const messages: Array<[string, string]> = [];
          watcher.on('message', (channel: string, message: string) => messages.push([channel, message]));
          await watcher.subscribe(`${channelPrefix}${conversationId}`);

          await bus.publish(makeEnvelope(conversationId, 7));

          await waitUntil(() => messages.length === 1, 'the raw message arrived');
          expect(messages[0]?.[0]).toBe(`${channelPrefix}${conversationId}`);
          expect(JSON.parse(messages[0]?.[1] ?? '')).toEqual(makeEnvelope(conversationId, 7));
        } finally {
          await watcher.quit();
        }
      });

      it('logs and drops invalid messages, then keeps delivering', async () => {
        const logger = new RecordingLogger();
        const bus = openBus({ logger });
        const conversationId = randomUUID();
        const otherConversationId = randomUUID();
        const channel = `${channelPrefix}${conversationId}`;
        const collector = await collectEnvelopes(bus, conversationId);

        await admin.publish(channel, 'not json');
        await admin.publish(channel, JSON.stringify({ conversationId, seq: 'one' }));
        await admin.publish(channel, JSON.stringify(makeEnvelope(otherConversationId, 2)));
        await admin.publish(channel, JSON.stringify(makeEnvelope(conversationId, 3)));

        await waitUntil(() => collector.received.length === 1, 'the valid envelope arrived');
        expect(collector.seqs()).toEqual([3]);
        expect(logger.matching('warn', 'dropped an invalid message')).toHaveLength(2);
        expect(logger.matching('warn', 'another conversation')).toHaveLength(1);
      });

      it('subscribes a channel in Redis once per conversation and unsubscribes it with the last handler', async () => {
        const bus = openBus();
        const conversationId = randomUUID();
        const channel = `${channelPrefix}${conversationId}`;
        const subscriberCount = async () => {
          const [, count] = (await admin.pubsub('NUMSUB', channel)) as [string, number];
          return count;
        };

        const first = await collectEnvelopes(bus, conversationId);
        const second = await collectEnvelopes(bus, conversationId);
        expect(await subscriberCount()).toBe(1);

        await first.subscription.unsubscribe();
        expect(await subscriberCount()).toBe(1);

        await second.subscription.unsubscribe();
        expect(await subscriberCount()).toBe(0);
      });
    });
  },
);
