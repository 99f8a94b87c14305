import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clusterPorts, freePort, waitUntil } from './ports';
import { residentSetBytes } from './process-memory';
import { TcpProxy } from './tcp-proxy';

const run = promisify(execFile);

/** Debian's redis-server (also the sentinel, with `--sentinel`), when installed. */
export const REDIS_SERVER_BINARY = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) =>
  existsSync(path),
);
const REDIS_CLI_BINARY = ['/usr/bin/redis-cli', '/usr/local/bin/redis-cli'].find((path) => existsSync(path));

/** Which Redis the local stack runs: one server, a 3-primary 3-replica cluster, or a primary + replica under Sentinel. */
export type RedisTopologyKind = 'single' | 'cluster' | 'sentinel';

/** One redis-server (or sentinel) process of a topology, killable like a crashed host. */
export class RedisNode {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    readonly directory: string,
    private readonly extraArguments: string[],
    private readonly sentinel = false,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the node; `replicaOf` (a port on loopback) starts it as that node's replica, whatever it was before. */
  async start(replicaOf?: number): Promise<void> {
    mkdirSync(this.directory, { recursive: true });
    const configuration = join(this.directory, this.sentinel ? 'sentinel.conf' : 'redis.conf');
    const lines = ['bind 127.0.0.1', `port ${this.port}`, `dir ${this.directory}`, 'daemonize no'];
    const extra =
      replicaOf === undefined
        ? this.extraArguments
        : [
            ...this.extraArguments.filter((line) => !line.startsWith('replicaof ')),
            `replicaof 127.0.0.1 ${replicaOf}`,
          ];
    lines.push('logfile redis.log', ...extra);
    writeFileSync(configuration, `${lines.join('\n')}\n`);
    const child = spawn(
      REDIS_SERVER_BINARY ?? 'redis-server',
      [configuration, ...(this.sentinel ? ['--sentinel'] : [])],
      {
        stdio: 'ignore',
      },
    );
    this.child = child;
    await waitUntil(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`redis-server on ${this.port} exited with ${child.exitCode}`);
        return (await this.cli('PING').catch(() => '')) === 'PONG';
      },
      `redis-server on port ${this.port}`,
      15_000,
    );
  }

  /** A crash: SIGKILL, no shutdown, nothing flushed. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** One redis-cli command against this node; resolves with its raw output. */
  async cli(...command: string[]): Promise<string> {
    const { stdout } = await run(REDIS_CLI_BINARY ?? 'redis-cli', ['-p', String(this.port), ...command], {
      timeout: 5_000,
    });
    return stdout.trim();
  }

  residentSetBytes(): number | undefined {
    return residentSetBytes(this.child?.pid);
  }
}

/** Redis started for a test on loopback, named by the REDIS_URL the apps receive. */
export interface RedisDeployment {
  kind: RedisTopologyKind;
  /** What the apps get as REDIS_URL (`redis://…`, `redis+cluster://…` or `redis+sentinel://…`). */
  url: string;
  nodes: RedisNode[];
  stop(): Promise<void>;
}

/** A Redis Cluster of 3 primaries with one replica each (`redis-cli --cluster create`), with a 1 s node timeout. */
export class RedisClusterDeployment implements RedisDeployment {
  readonly kind = 'cluster' as const;
  readonly nodes: RedisNode[] = [];
  url = '';

  /** `basePort`: the nodes' ports are basePort…basePort+5 (bus ports + 10000); unset, a free block below 32768. */
  constructor(
    private readonly directory: string,
    private readonly basePort?: number,
  ) {}

  async start(): Promise<void> {
    const ports = await clusterPorts(6, this.basePort);
    for (const port of ports) {
      this.nodes.push(
        new RedisNode(port, join(this.directory, `node-${port}`), [
          'cluster-enabled yes',
          'cluster-config-file nodes.conf',
          'cluster-node-timeout 1000',
          // A replica whose primary died takes over however long it was cut off (the test kills primaries).
          'cluster-replica-validity-factor 0',
          'appendonly no',
          'save ""',
        ]),
      );
    }
    await Promise.all(this.nodes.map((node) => node.start()));
    await run(
      REDIS_CLI_BINARY ?? 'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ],
      { timeout: 60_000 },
    );
    await this.waitUntilHealthy();
    this.url = `redis+cluster://${ports.map((port) => `127.0.0.1:${port}`).join(',')}`;
  }

  /** Every running node sees the cluster as ok, with 3 reachable primaries each having a synced replica. */
  async waitUntilHealthy(timeoutMs = 60_000): Promise<void> {
    await waitUntil(
      async () => {
        for (const node of this.nodes.filter((candidate) => candidate.running)) {
          const info = await node.cli('CLUSTER', 'INFO').catch(() => '');
          if (!info.includes('cluster_state:ok')) return false;
        }
        return true;
      },
      'the Redis Cluster to report cluster_state:ok',
      timeoutMs,
      200,
    );
  }

  /** The nodes the cluster currently names as primaries (not failed), as a live node sees it. */
  async primaries(): Promise<RedisNode[]> {
    const live = this.nodes.find((node) => node.running)!;
    const primaries: RedisNode[] = [];
    for (const line of (await live.cli('CLUSTER', 'NODES')).split('\n')) {
      const fields = line.split(' ');
      if (!fields[2]?.includes('master') || fields[2].includes('fail')) continue;
      const port = Number(fields[1].split('@')[0].split(':')[1]);
      const node = this.nodes.find((candidate) => candidate.port === port);
      if (node?.running) primaries.push(node);
    }
    return primaries;
  }

  /**
   * Whether the cluster has failed `victim` over: as a live node sees it, every slot range is served by a primary not
   * marked failed, and none of them is `victim`. (Its process being down is not enough: until the others mark it
   * failed after cluster-node-timeout and its replica takes over, it still owns its slots, and if it comes back
   * first it simply resumes as their primary.)
   */
  async failedOver(victim: RedisNode): Promise<boolean> {
    const live = this.nodes.find((node) => node.running && node !== victim);
    if (!live) return false;
    const serving = (await live.cli('CLUSTER', 'NODES'))
      .split('\n')
      .map((line) => line.split(' '))
      .filter((fields) => fields[2]?.includes('master') && !fields[2].includes('fail') && fields.length > 8);
    const ports = serving.map((fields) => Number(fields[1].split('@')[0].split(':')[1]));
    return serving.length === 3 && !ports.includes(victim.port);
  }

  /** The node currently serving `key`'s slot as primary. */
  async primaryOf(key: string): Promise<RedisNode> {
    const live = this.nodes.find((node) => node.running)!;
    const slot = Number(await live.cli('CLUSTER', 'KEYSLOT', key));
    const nodesText = await live.cli('CLUSTER', 'NODES');
    for (const line of nodesText.split('\n')) {
      const fields = line.split(' ');
      if (!fields[2]?.includes('master') || fields[2].includes('fail')) continue;
      const owns = fields.slice(8).some((range) => {
        const [from, to = from] = range.split('-').map(Number);
        return slot >= from && slot <= to;
      });
      if (owns) {
        const port = Number(fields[1].split('@')[0].split(':')[1]);
        return this.nodes.find((node) => node.port === port)!;
      }
    }
    throw new Error(`no primary serves the slot of ${key}`);
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.kill()));
  }
}

/** Name under which the sentinels monitor the primary. */
export const SENTINEL_PRIMARY_NAME = 'fieldops';

/**
 * A primary, one replica and 3 sentinels (quorum 2) that fail over 3 s after the primary stops answering (with 1 s,
 * a loaded 2-core machine made the sentinels fail over a primary they had just promoted). `proxied`:
 * everyone (replica, sentinels, apps) reaches each data node through a {@link TcpProxy} of its own (the node announces
 * the proxy's port), so a fault test can freeze the replication link alone and make the replica lag.
 */
export class RedisSentinelDeployment implements RedisDeployment {
  readonly kind = 'sentinel' as const;
  readonly nodes: RedisNode[] = [];
  readonly sentinels: RedisNode[] = [];
  /** With `proxied`: each data node's proxy, in the order of `nodes`. */
  readonly proxies: TcpProxy[] = [];
  url = '';

  constructor(
    private readonly directory: string,
    private readonly proxied = false,
  ) {}

  /** The port everyone reaches a data node at: its proxy's when proxied. */
  addressPort(node: RedisNode): number {
    const index = this.nodes.indexOf(node);
    return this.proxied ? this.proxies[index].listenPort : node.port;
  }

  async start(): Promise<void> {
    const [primaryPort, replicaPort, ...sentinelPorts] = await Promise.all(
      Array.from({ length: 5 }, () => freePort()),
    );
    if (this.proxied) {
      const proxyPorts = await Promise.all([freePort(), freePort()]);
      this.proxies.push(new TcpProxy(proxyPorts[0], primaryPort), new TcpProxy(proxyPorts[1], replicaPort));
      await Promise.all(this.proxies.map((proxy) => proxy.start()));
    }
    const announce = (index: number) =>
      this.proxied
        ? ['replica-announce-ip 127.0.0.1', `replica-announce-port ${this.proxies[index].listenPort}`]
        : [];
    const common = ['appendonly no', 'save ""', 'repl-diskless-sync-delay 0'];
    const primaryAddress = this.proxied ? this.proxies[0].listenPort : primaryPort;
    const primary = new RedisNode(primaryPort, join(this.directory, `node-${primaryPort}`), [
      ...common,
      ...announce(0),
    ]);
    const replica = new RedisNode(replicaPort, join(this.directory, `node-${replicaPort}`), [
      ...common,
      ...announce(1),
      `replicaof 127.0.0.1 ${primaryAddress}`,
    ]);
    this.nodes.push(primary, replica);
    await Promise.all(this.nodes.map((node) => node.start()));
    await waitUntil(
      async () => (await replica.cli('INFO', 'replication')).includes('master_link_status:up'),
      'the replica to sync with the primary',
      30_000,
      200,
    );
    for (const port of sentinelPorts) {
      this.sentinels.push(
        new RedisNode(
          port,
          join(this.directory, `sentinel-${port}`),
          [
            `sentinel monitor ${SENTINEL_PRIMARY_NAME} 127.0.0.1 ${primaryAddress} 2`,
            `sentinel down-after-milliseconds ${SENTINEL_PRIMARY_NAME} 3000`,
            `sentinel failover-timeout ${SENTINEL_PRIMARY_NAME} 5000`,
            `sentinel parallel-syncs ${SENTINEL_PRIMARY_NAME} 1`,
          ],
          true,
        ),
      );
    }
    await Promise.all(this.sentinels.map((sentinel) => sentinel.start()));
    await waitUntil(
      async () => {
        const answers = await Promise.all(
          this.sentinels.map((sentinel) =>
            sentinel.cli('SENTINEL', 'REPLICAS', SENTINEL_PRIMARY_NAME).catch(() => ''),
          ),
        );
        return answers.every((answer) =>
          answer.includes(String(this.proxied ? this.proxies[1].listenPort : replicaPort)),
        );
      },
      'every sentinel to know the replica',
      30_000,
      200,
    );
    this.url = `redis+sentinel://${sentinelPorts.map((port) => `127.0.0.1:${port}`).join(',')}/${SENTINEL_PRIMARY_NAME}`;
  }

  /** The data node the sentinels currently name as primary. */
  async primary(): Promise<RedisNode> {
    const sentinel = this.sentinels.find((candidate) => candidate.running)!;
    const answer = await sentinel.cli('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_PRIMARY_NAME);
    const port = Number(answer.split('\n')[1]);
    return this.nodes.find((node) => this.addressPort(node) === port)!;
  }

  /**
   * Restarts a crashed data node the way a deployment must: once every sentinel names the primary that replaced it,
   * as that primary's replica (a node without persistence restarted as a primary would serve an empty data set until
   * the sentinels demote it: conversations gone, sends 404).
   */
  async restartAsReplica(node: RedisNode): Promise<void> {
    let current: RedisNode | undefined;
    await waitUntil(
      async () => {
        const named = await Promise.all(
          this.sentinels.map((sentinel) =>
            sentinel
              .cli('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_PRIMARY_NAME)
              .then((answer) => Number(answer.split('\n')[1]))
              .catch(() => -1),
          ),
        );
        current = this.nodes.find((candidate) => this.addressPort(candidate) === named[0]);
        return current !== undefined && current !== node && named.every((port) => port === named[0]);
      },
      'every sentinel to name the new primary',
      30_000,
      200,
    );
    await node.start(this.addressPort(current!));
  }

  /**
   * Freezes the replication links out of `primary` (found with CLIENT LIST TYPE replica: the proxy's upstream ports),
   * so its replicas stop receiving its writes while they, the sentinels and the apps still see everyone up.
   */
  async freezeReplicationFrom(primary: RedisNode): Promise<number> {
    const proxy = this.proxies[this.nodes.indexOf(primary)];
    if (!proxy) throw new Error('freezeReplicationFrom needs a proxied deployment');
    const clients = await primary.cli('CLIENT', 'LIST', 'TYPE', 'replica');
    const ports = [...clients.matchAll(/addr=127\.0\.0\.1:(\d+)/g)].map((match) => Number(match[1]));
    return proxy.freezeUpstreamPorts(ports);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sentinels, ...this.nodes].map((node) => node.kill()));
    await Promise.all(this.proxies.map((proxy) => proxy.stop()));
  }
}
