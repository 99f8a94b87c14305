import { existsSync, readFileSync } from 'node:fs';
import {
  checkHistory,
  type CheckResult,
  type ConversationHistory,
  type LocalStack,
  type RedisTopologyKind,
  type StatusCount,
  waitUntil,
} from '../../../src';
import {
  ChatClient,
  ConnectionStatus,
  generateToken,
  readConversationLog,
  type ReceivedActivity,
} from '../../support/direct-line-chat';

/** The faults the nemesis injects, in turn. */
export type FaultKind =
  | 'kill-relay'
  | 'partition-relay-connector'
  // Sentinel
  | 'promote-lagging-replica'
  | 'partition-redis-primary'
  // one server
  | 'restart-redis'
  | 'partition-relay-redis'
  // Cluster
  | 'kill-redis-primary';

/** The faults each Redis topology's run injects. */
export const FAULTS_BY_TOPOLOGY: Record<RedisTopologyKind, FaultKind[]> = {
  sentinel: ['kill-relay', 'promote-lagging-replica', 'partition-relay-connector', 'partition-redis-primary'],
  single: ['kill-relay', 'restart-redis', 'partition-relay-redis', 'partition-relay-connector'],
  cluster: ['kill-relay', 'kill-redis-primary', 'partition-relay-connector'],
};

export interface FaultRunOptions {
  /** How long the nemesis keeps injecting faults, each at least once (the workload runs throughout, then drains). */
  durationMs: number;
  /** Conversations, each with one client on each relay instance. */
  conversations: number;
  faults: FaultKind[];
  /** Called with one line per event (faults, healing), for the report. */
  log?: (line: string) => void;
}

export interface FaultRunReport extends CheckResult {
  faultsInjected: Record<string, number>;
  durationMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Pause between a client's sends (a closed loop: each send waits for its answer first). */
const SEND_PAUSE_MS = 250;
/** DirectLineJS waits 3–15 s before reconnecting a dropped stream; allow for a loaded machine on top. */
const HEAL_TIMEOUT_MS = 60_000;

/**
 * A Jepsen-style run on a local stack (two relays behind pinned nginx entrances, a connector, a stock botbuilder bot,
 * Redis — one server, Sentinel or Cluster — with the links the faults need behind proxies): stock DirectLineJS clients
 * send in closed loops while a nemesis injects the given faults in turn, each followed by a quiet period in which the
 * stack must serve again; then the workload stops, every client catches up, and {@link checkHistory} judges the
 * recorded history.
 */
export async function runFaults(stack: LocalStack, options: FaultRunOptions): Promise<FaultRunReport> {
  if (stack.connectorLinks.length === 0) throw new Error('runFaults needs a stack started with proxiedLinks');
  const [domain1, domain2] = stack.pinnedDirectLineDomains as [string, string];
  const conversations: Array<{ id: string; token: string; clients: ChatClient[] }> = [];
  // Every client made is ended however the run ends (a failed wait included), so no stream or poll outlives it.
  const made: ChatClient[] = [];
  try {
    for (let index = 0; index < options.conversations; index += 1) {
      const { token, conversationId } = await generateToken(domain1, stack.credentials.directLineSecret);
      const first = new ChatClient({ name: `c${index}-relay1`, domain: domain1, token });
      made.push(first);
      await waitUntil(() => first.status === ConnectionStatus.Online, 'a client online', 30_000);
      const second = new ChatClient({ name: `c${index}-relay2`, domain: domain2, token, conversationId });
      made.push(second);
      await waitUntil(() => second.status === ConnectionStatus.Online, 'a client online', 30_000);
      conversations.push({ id: conversationId, token, clients: [first, second] });
    }
    return await runWorkload(stack, options, conversations);
  } finally {
    for (const client of made) client.end();
  }
}

/** The workload, the nemesis and the check, on clients that are online. */
async function runWorkload(
  stack: LocalStack,
  options: FaultRunOptions,
  conversations: Array<{ id: string; token: string; clients: ChatClient[] }>,
): Promise<FaultRunReport> {
  const log = options.log ?? (() => undefined);
  const clients = conversations.flatMap((conversation) => conversation.clients);

  let running = true;
  const workload = Promise.all(
    clients.map(async (client) => {
      while (running) {
        await client.send();
        await sleep(SEND_PAUSE_MS + Math.random() * SEND_PAUSE_MS);
      }
    }),
  );

  /** Every client got the bot's answer to a send acknowledged after now: the stack serves again. */
  const healed = async (what: string) => {
    const before = new Map(clients.map((client) => [client, new Set(client.acknowledged.keys())]));
    await waitUntil(
      () =>
        clients.every((client) =>
          client.received.some(
            (activity) =>
              activity.replyToId !== undefined &&
              client.acknowledged.has(activity.replyToId) &&
              !before.get(client)!.has(activity.replyToId),
          ),
        ),
      `every client served again after ${what}`,
      HEAL_TIMEOUT_MS,
      200,
    );
  };

  const faultsInjected: Record<string, number> = {};
  const started = Date.now();
  try {
    await healed('start');
    // Every fault at least once, then in turn until the duration is spent.
    for (let turn = 0; turn < options.faults.length || Date.now() - started < options.durationMs; turn += 1) {
      const fault = options.faults[turn % options.faults.length];
      faultsInjected[fault] = (faultsInjected[fault] ?? 0) + 1;
      log(`${new Date().toISOString()} ${fault}`);
      await inject(stack, fault, turn);
      await healed(fault);
      await sleep(1_000);
    }
  } finally {
    running = false;
    await workload;
  }

  // Drain: every client holds everything its conversation's log holds (or the wait times out and the check says why).
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
        conversation.clients.every((client) => {
          const ids = new Set(client.received.map((activity) => activity.id));
          return (logs.get(conversation.id) ?? []).every((activity) => ids.has(activity.id));
        }),
      );
    },
    'every client caught up with its conversation log',
    HEAL_TIMEOUT_MS,
    500,
  ).catch(() => undefined);

  const history: ConversationHistory[] = conversations.map((conversation) => ({
    conversationId: conversation.id,
    log: (logs.get(conversation.id) ?? []).map((activity) => ({
      id: activity.id ?? '',
      text: activity.text,
    })),
    clients: conversation.clients.map((client) => ({
      name: client.name,
      received: client.received.map((activity) => ({ id: activity.id ?? '', text: activity.text })),
      acknowledged: client.acknowledged,
      unknown: [...client.interrupted, ...client.failed.map((failure) => failure.split(':')[0])],
      open: client.streamErrors.length === 0,
    })),
  }));
  const result = checkHistory(history, entranceStatuses([...stack.pinnedAccessLogs, stack.accessLog]));
  return { ...result, faultsInjected, durationMs: Date.now() - started };
}

async function inject(stack: LocalStack, fault: FaultKind, turn: number): Promise<void> {
  switch (fault) {
    case 'kill-relay': {
      // A crash (SIGKILL: no drain), then the orchestrator's restart on the same port.
      const relay = stack.relays[turn % stack.relays.length];
      await relay.stop('SIGKILL');
      await sleep(1_000);
      await relay.start();
      return;
    }
    case 'promote-lagging-replica': {
      // The replication link stops forwarding; writes go on (answered 503 when the store waits for a replica, which
      // never answers); the primary crashes; the sentinels promote the replica that lags; the crashed host restarts
      // and rejoins as the new primary's replica.
      const sentinel = stack.redisSentinel!;
      const primary = await sentinel.primary();
      const proxy = sentinel.proxies[sentinel.nodes.indexOf(primary)];
      if ((await sentinel.freezeReplicationFrom(primary)) === 0)
        throw new Error('no replication link to freeze');
      await sleep(1_500);
      await primary.kill();
      await waitUntil(
        async () => (await sentinel.primary().catch(() => primary)) !== primary,
        'the sentinels to promote the lagging replica',
        30_000,
        200,
      );
      proxy.cutFrozen();
      await sentinel.restartAsReplica(primary);
      await waitUntil(
        async () =>
          /connected_slaves:[1-9]/.test(await (await sentinel.primary()).cli('INFO', 'replication')),
        'the restarted node to rejoin as a replica',
        60_000,
        250,
      );
      return;
    }
    case 'partition-relay-connector': {
      // One relay cannot reach the connector for 3 s (its deliveries wait), then the link heals.
      const link = stack.connectorLinks[turn % stack.connectorLinks.length];
      link.freeze();
      await sleep(3_000);
      link.thaw();
      return;
    }
    case 'restart-redis': {
      // One server: a crash (SIGKILL) and a restart on its append-only file; every connection reconnects.
      const redis = stack.redis;
      if (!redis) throw new Error('restart-redis needs the single-server topology');
      await redis.kill();
      await sleep(500);
      await redis.start();
      return;
    }
    case 'partition-relay-redis': {
      // One relay cannot reach Redis for 3 s (its commands and its bus stall), then the link heals.
      const link = stack.redisLinks[turn % Math.max(stack.redisLinks.length, 1)];
      if (!link) throw new Error('partition-relay-redis needs the single-server topology with proxiedLinks');
      link.freeze();
      await sleep(3_000);
      link.thaw();
      return;
    }
    case 'kill-redis-primary': {
      // Cluster: a primary SIGKILLed; its replica takes over after cluster-node-timeout; the crashed node restarts
      // (its nodes.conf kept, its data not) and rejoins as the new primary's replica.
      const cluster = stack.redisCluster;
      if (!cluster) throw new Error('kill-redis-primary needs the cluster topology');
      const primaries = await cluster.primaries();
      const victim = primaries[turn % primaries.length];
      await victim.kill();
      await waitUntil(
        () => cluster.failedOver(victim).catch(() => false),
        'a replica to take over the killed primary',
        30_000,
        200,
      );
      await cluster.waitUntilHealthy();
      await victim.start();
      await waitUntil(
        async () => /role:slave/.test(await victim.cli('INFO', 'replication').catch(() => '')),
        'the restarted node to rejoin as a replica',
        60_000,
        250,
      );
      return;
    }
    case 'partition-redis-primary': {
      // Everyone (relays, connector, replica, sentinels) is cut off from the primary for less than the sentinels'
      // down-after period: commands stall, nothing fails over.
      const sentinel = stack.redisSentinel!;
      const proxy = sentinel.proxies[sentinel.nodes.indexOf(await sentinel.primary())];
      proxy.freeze();
      await sleep(700);
      proxy.thaw();
      return;
    }
  }
}

/**
 * HTTP statuses the entrances answered (their JSON access logs: the pinned ones the clients use, the public one the
 * bot replies through), with a few examples of each 5xx.
 */
function entranceStatuses(accessLogs: string[]): StatusCount[] {
  const counts = new Map<number, StatusCount>();
  for (const path of accessLogs) {
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const entry = JSON.parse(line) as {
        status: number;
        method: string;
        uri: string;
        upstream: string;
        msec?: number;
        time?: string;
      };
      const count = counts.get(entry.status) ?? { status: entry.status, count: 0, examples: [] };
      count.count += 1;
      if (entry.status >= 500 && count.examples!.length < 5) {
        const at = entry.time ?? new Date((entry.msec ?? 0) * 1000).toISOString();
        count.examples!.push(`${at} ${entry.method} ${entry.uri} via ${entry.upstream || '-'}`);
      }
      counts.set(entry.status, count);
    }
  }
  return [...counts.values()];
}
