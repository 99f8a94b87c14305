import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from '@fieldops/database';
import {
  echoOf,
  type LocalStack,
  NGINX_BINARY,
  REDIS_SERVER_BINARY,
  type RedisTopologyKind,
  startLocalStack,
  waitUntil,
} from '../../src';
import { REPOSITORY_ROOT } from '../deployment-files';
import {
  ChatClient,
  ConnectionStatus,
  generateToken,
  readConversationLog,
  type ReceivedActivity,
  sequenceOf,
} from './direct-line-chat';

/** Conversations with one client pinned to each relay instance (cross-instance delivery), and round-robin ones. */
const PINNED_CONVERSATIONS = 4;
const ROUND_ROBIN_CONVERSATIONS = 4;
/** Pause between a client's sends (a closed loop: each send waits for the bot's answer first). */
const SEND_PAUSE_MS = 300;
/** DirectLineJS waits 3–15 s before reconnecting a dropped stream; allow for a loaded machine on top. */
const RECONNECT_TIMEOUT_MS = 60_000;

interface Conversation {
  id: string;
  token: string;
  clients: ChatClient[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How the scenario disturbs Redis mid-traffic, per topology. */
const REDIS_DISTURBANCE: Record<RedisTopologyKind, string> = {
  single: 'survives a Redis restart mid-traffic: relay and connector reconnect and delivery resumes',
  cluster:
    'survives a primary failover mid-traffic (SIGKILL of the primary owning a conversation; its replica is promoted)',
  sentinel:
    'survives a Sentinel failover mid-traffic (SIGKILL of the primary; the sentinels promote the replica)',
};

/**
 * The scale-out proof of issue #7: real nginx (the repository's template, both relay instances in its upstream),
 * real PostgreSQL and redis-server, inspection-api, connector-gateway and two relay-gateway processes, a stock
 * botbuilder bot, and stock DirectLineJS clients. Run on each Redis topology (issue #16): one server (restarted
 * mid-traffic), a 3-primary 3-replica Redis Cluster and a Sentinel-managed primary (a primary killed mid-traffic).
 */
export function describeScaleOut(redisTopology: RedisTopologyKind, title: string): void {
  const needsRedisServer = redisTopology !== 'single';
  if (needsRedisServer && !REDIS_SERVER_BINARY) {
    if (process.env.CI === 'true')
      throw new Error(`${title}: redis-server is not installed (required under CI)`);
    console.warn(`SKIPPED ${title}: redis-server is not installed (apt-get install redis-server)`);
  }
  (NGINX_BINARY && (!needsRedisServer || REDIS_SERVER_BINARY) ? describe : describe.skip)(title, () => {
    const workDirectory = mkdtempSync(join(tmpdir(), `fieldops-scale-out-${redisTopology}-`));
    let database: Awaited<ReturnType<typeof createScratchDatabase>>;
    let stack: LocalStack;
    const conversations: Conversation[] = [];
    const clients = () => conversations.flatMap((conversation) => conversation.clients);
    let traffic: Promise<void> | undefined;
    let trafficRunning = false;

    beforeAll(async () => {
      database = await createScratchDatabase(process.env.DATABASE_URL ?? '', 'scale_out_e2e');
      stack = await startLocalStack({
        repositoryRoot: REPOSITORY_ROOT,
        workDirectory,
        databaseUrl: database.url,
        relayInstances: 2,
        pinnedRelayEntrances: true,
        redisTopology,
        extraEnvironment: {
          'relay-gateway': { RELAY_RATE_LIMIT_PER_TOKEN: '0', RELAY_RATE_LIMIT_PER_CONVERSATION: '0' },
        },
      });
    }, 120_000);

    afterAll(async () => {
      trafficRunning = false;
      await traffic?.catch(() => undefined);
      for (const client of clients()) client.end();
      await stack?.stop();
      await database?.drop();
      rmSync(workDirectory, { recursive: true, force: true });
    }, 60_000);

    /** Every client sends in a closed loop until told to stop. */
    function startTraffic(): void {
      trafficRunning = true;
      traffic = Promise.all(
        clients().map(async (client) => {
          while (trafficRunning) {
            await client.send();
            await sleep(SEND_PAUSE_MS + Math.random() * SEND_PAUSE_MS);
          }
        }),
      ).then(() => undefined);
    }

    async function stopTraffic(): Promise<void> {
      trafficRunning = false;
      await traffic;
    }

    /** Whether the client has received the bot's answer to one of its sends acknowledged after `since`. */
    function answeredSince(client: ChatClient, acknowledgedBefore: Set<string>): boolean {
      return client.received.some(
        (activity) =>
          activity.from.id === 'echo-bot' &&
          activity.replyToId !== undefined &&
          client.acknowledged.has(activity.replyToId) &&
          !acknowledgedBefore.has(activity.replyToId),
      );
    }

    async function everyClientAnsweredAfterNow(what: string): Promise<void> {
      const before = new Map(clients().map((client) => [client, new Set(client.acknowledged.keys())]));
      await waitUntil(
        () => clients().every((client) => answeredSince(client, before.get(client)!)),
        what,
        RECONNECT_TIMEOUT_MS,
        200,
      );
    }

    it('delivers messages posted through one relay instance to WebSocket streams held by the other', async () => {
      const [viaRelay1, viaRelay2] = stack.pinnedDirectLineDomains as [string, string];
      for (let index = 0; index < PINNED_CONVERSATIONS; index += 1) {
        const { token, conversationId } = await generateToken(viaRelay1, stack.credentials.directLineSecret);
        const first = new ChatClient({ name: `pinned${index}-relay1`, domain: viaRelay1, token });
        await waitUntil(() => first.status === ConnectionStatus.Online, 'the first client online', 30_000);
        const second = new ChatClient({
          name: `pinned${index}-relay2`,
          domain: viaRelay2,
          token,
          conversationId,
        });
        await waitUntil(() => second.status === ConnectionStatus.Online, 'the second client online', 30_000);
        conversations.push({ id: conversationId, token, clients: [first, second] });
      }
      for (let index = 0; index < ROUND_ROBIN_CONVERSATIONS; index += 1) {
        const { token, conversationId } = await generateToken(
          stack.directLineDomain,
          stack.credentials.directLineSecret,
        );
        const client = new ChatClient({ name: `roundrobin${index}`, domain: stack.directLineDomain, token });
        await waitUntil(() => client.status === ConnectionStatus.Online, 'a client online', 30_000);
        conversations.push({ id: conversationId, token, clients: [client] });
      }

      // Each pinned client sends once; the other client of its conversation must see the message and the answer.
      for (const conversation of conversations.slice(0, PINNED_CONVERSATIONS)) {
        const [first, second] = conversation.clients as [ChatClient, ChatClient];
        const fromRelay1 = await first.send();
        const fromRelay2 = await second.send();
        expect(fromRelay1).toMatch(/\|\d{7}$/);
        expect(fromRelay2).toMatch(/\|\d{7}$/);
        await waitUntil(
          () =>
            [fromRelay1, fromRelay2].every((id) =>
              [first, second].every(
                (client) =>
                  client.received.some((activity) => activity.id === id) &&
                  client.received.some((activity) => activity.replyToId === id),
              ),
            ),
          'cross-instance delivery of both messages and both answers',
          30_000,
        );
      }
      if (stack.redisCluster) {
        // One hash tag per conversation: its keys and its shard channel live on the primary owning the tag's slot, and
        // the bus uses sharded pub/sub there (no classic channel anywhere).
        const { id } = conversations[0];
        const owner = await stack.redisCluster.primaryOf(`{${id}}`);
        expect((await owner.cli('PUBSUB', 'SHARDCHANNELS')).split('\n')).toContain(
          `fieldops:conversation:{${id}}`,
        );
        expect((await owner.cli('--scan', '--pattern', `*{${id}}*`)).split('\n').sort()).toEqual([
          `fieldops:store:conversation:{${id}}`,
          `fieldops:store:conversation:{${id}}:log`,
        ]);
        for (const node of stack.redisCluster.nodes) expect(await node.cli('PUBSUB', 'CHANNELS')).toBe('');
      }
      // The entrances really pinned: every request so far reached its own instance.
      const relayAddresses = stack.relays.map((relay) => relay.url.replace('http://', ''));
      for (const [index, log] of stack.pinnedAccessLogs.entries()) {
        const upstreams = accessLogEntries(log).map((entry) => entry.upstream);
        expect(upstreams.length).toBeGreaterThan(0);
        expect(new Set(upstreams)).toEqual(new Set([relayAddresses[index]]));
      }
    }, 120_000);

    let killedAt = 0;
    let reconnectsAfterKill = 0;
    /** Messages acknowledged before Redis went down: the log read back after the restart must hold them all. */
    const acknowledgedBeforeRedisRestart = new Set<string>();
    it('survives a SIGKILL of one relay instance mid-traffic: its clients reconnect through nginx to the other', async () => {
      startTraffic();
      await everyClientAnsweredAfterNow('traffic before the kill');
      killedAt = Date.now();
      await stack.relays[0].stop('SIGKILL');
      await everyClientAnsweredAfterNow('every client answered after the kill');
      // The first instance's clients came back with their watermark (a reconnect GET through the pinned entrance).
      const reconnects = accessLogEntries(stack.pinnedAccessLogs[0]).filter(
        (entry) =>
          entry.msec * 1000 > killedAt &&
          entry.method === 'GET' &&
          /\/conversations\/[^/?]+\?watermark=\d+/.test(entry.uri),
      );
      expect(reconnects.length).toBeGreaterThanOrEqual(PINNED_CONVERSATIONS);
      reconnectsAfterKill = reconnects.length;
      for (const client of clients()) expect(client.status).toBe(ConnectionStatus.Online);
    }, 120_000);

    it(
      REDIS_DISTURBANCE[redisTopology],
      async () => {
        for (const client of clients())
          for (const id of client.acknowledged.keys()) acknowledgedBeforeRedisRestart.add(id);
        if (stack.redisCluster) {
          const cluster = stack.redisCluster;
          // The primary holding the first conversation's keys (one hash tag: one slot) dies like a crashed host.
          const primary = await cluster.primaryOf(`{${conversations[0].id}}`);
          await primary.kill();
          await waitUntil(
            async () =>
              (await cluster.primaryOf(`{${conversations[0].id}}`).catch(() => primary)) !== primary,
            'a replica promoted in place of the killed primary',
            30_000,
            200,
          );
          // The crashed host comes back (as an orchestrator restarts it) and rejoins as the new primary's replica: the
          // appends wait for one replica (STORE_REPLICA_ACKS defaults to 1 on a cluster).
          await primary.start();
          await cluster.waitUntilHealthy();
        } else if (stack.redisSentinel) {
          const sentinel = stack.redisSentinel;
          const primary = await sentinel.primary();
          await primary.kill();
          await waitUntil(
            async () => (await sentinel.primary().catch(() => primary)) !== primary,
            'the sentinels to promote the replica',
            30_000,
            200,
          );
          // The crashed host comes back; the sentinels make it the new primary's replica (appends wait for one).
          await primary.start();
        } else {
          await stack.redis!.shutdown();
          await sleep(1_000);
          await stack.redis!.start();
        }
        await everyClientAnsweredAfterNow(`every client answered after: ${REDIS_DISTURBANCE[redisTopology]}`);
        for (const service of [stack.relays[1], stack.connectorGateway]) {
          expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
        }
      },
      120_000,
    );

    it('delivered every activity of every log exactly once, in order, to every client', async () => {
      await stopTraffic();
      const logs = new Map<string, ReceivedActivity[]>();
      await waitUntil(
        async () => {
          for (const conversation of conversations) {
            logs.set(
              conversation.id,
              await readConversationLog(stack.directLineDomain, conversation.id, conversation.token),
            );
          }
          return conversations.every((conversation) =>
            conversation.clients.every(
              (client) => client.received.length >= (logs.get(conversation.id)?.length ?? 0),
            ),
          );
        },
        'every client caught up with its conversation log',
        30_000,
        500,
      );

      const counts = {
        conversations: conversations.length,
        clients: clients().length,
        relayInstances: stack.relays.length,
        logActivities: 0,
        userMessagesAcknowledged: 0,
        sendsInterrupted: 0,
        interruptedSendsStored: 0,
        botAnswers: 0,
        activitiesReceived: 0,
        duplicates: 0,
        gaps: 0,
        outOfOrder: 0,
        missingAnswers: 0,
        failedSends: 0,
        streamErrors: 0,
        botTurnsFailed: stack.bot.failedTurns,
      };
      for (const conversation of conversations) {
        const log = logs.get(conversation.id) ?? [];
        counts.logActivities += log.length;
        // The log itself: increasing sequence numbers (an append its replicas never confirmed leaves a voided seq).
        log.forEach((activity, index) => {
          if (index > 0) expect(sequenceOf(activity)).toBeGreaterThan(sequenceOf(log[index - 1]));
        });
        const logIds = log.map((activity) => activity.id);
        for (const client of conversation.clients) {
          const ids = client.received.map((activity) => activity.id ?? '');
          counts.activitiesReceived += ids.length;
          counts.duplicates += ids.length - new Set(ids).size;
          const sequences = client.received.map(sequenceOf);
          counts.outOfOrder += sequences.filter(
            (seq, index) => index > 0 && seq <= sequences[index - 1],
          ).length;
          // Log entries the client never received.
          const receivedIds = new Set(ids);
          counts.gaps += logIds.filter((id) => !receivedIds.has(id ?? '')).length;
          expect(ids).toEqual(logIds);

          counts.userMessagesAcknowledged += client.acknowledged.size;
          counts.sendsInterrupted += client.interrupted.length;
          counts.failedSends += client.failed.length;
          counts.streamErrors += client.streamErrors.length;
          for (const [id, text] of client.acknowledged) {
            const echo = log.filter((activity) => activity.id === id);
            expect(echo.map((activity) => activity.text)).toEqual([text]);
            const answers = log.filter((activity) => activity.replyToId === id);
            if (answers.length !== 1) counts.missingAnswers += 1;
            expect(answers.map((activity) => activity.text)).toEqual([echoOf(text)]);
          }
          for (const text of client.interrupted) {
            if (log.some((activity) => activity.text === text)) counts.interruptedSendsStored += 1;
          }
        }
        counts.botAnswers += log.filter((activity) => activity.from.id === 'echo-bot').length;
      }
      const loggedIds = new Set([...logs.values()].flat().map((activity) => activity.id));
      const report = {
        redisTopology,
        ...counts,
        reconnectsThroughNginxAfterKill: reconnectsAfterKill,
        acknowledgedBeforeRedisRestart: acknowledgedBeforeRedisRestart.size,
        lostAcrossRedisRestart: [...acknowledgedBeforeRedisRestart].filter((id) => !loggedIds.has(id)).length,
        relayKilledAt: new Date(killedAt).toISOString(),
      };
      mkdirSync(join(__dirname, '..', '..', '.reports'), { recursive: true });
      writeFileSync(
        join(
          __dirname,
          '..',
          '..',
          '.reports',
          redisTopology === 'single' ? 'scale-out.json' : `scale-out-${redisTopology}.json`,
        ),
        `${JSON.stringify(report, null, 2)}\n`,
      );
      console.log(`scale-out proof: ${JSON.stringify(report)}`);
      expect(report.lostAcrossRedisRestart).toBe(0);
      expect(counts).toMatchObject({
        duplicates: 0,
        gaps: 0,
        outOfOrder: 0,
        missingAnswers: 0,
        failedSends: 0,
      });
      expect(counts.userMessagesAcknowledged).toBeGreaterThan(clients().length * 3);
    }, 120_000);
  });
}

function accessLogEntries(
  path: string,
): Array<{ msec: number; method: string; uri: string; status: number; upstream: string }> {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map(
      (line) =>
        JSON.parse(line) as { msec: number; method: string; uri: string; status: number; upstream: string },
    );
}
