import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import { parseRedisUrl, type RedisTopology } from './redis-url';

/** A connection to any of the supported topologies; both share the command interface. */
export type RedisClient = Redis | Cluster;

export interface CreateRedisClientOptions {
  /** Shown by CLIENT LIST on every node. */
  connectionName: string;
  /** Commands issued in the same tick go out in one write. Default false. */
  enableAutoPipelining?: boolean;
  /**
   * Cluster only: SSUBSCRIBE through one subscriber connection per primary (sharded pub/sub). Set for a connection
   * that subscribes; leave unset for one that only sends commands (it saves a connection per shard).
   */
  shardedSubscribers?: boolean;
  /** Commands fail after this many reconnection attempts of their connection. Default 3. */
  maxRetriesPerRequest?: number;
  /**
   * Once the connection has been ready, a command issued while it is down (reconnecting, or connected but not ready)
   * fails at once with ioredis's "Stream isn't writeable" error — a 503 with Retry-After for the request that needed
   * it — instead of waiting in the offline queue for reconnection attempts (seconds, or for ever when the server
   * accepts connections but does not answer). Commands issued before the first connection still wait for it (start-up
   * needs no ordering with Redis). Single servers and Sentinel; a Cluster keeps retrying and redirecting through its
   * own failovers. Default true; false for a connection that only subscribes (ioredis re-subscribes after a
   * reconnection, and a SUBSCRIBE issued meanwhile waits for it).
   */
  failFast?: boolean;
  connectTimeoutMs?: number;
}

/**
 * The one factory of Redis connections from a REDIS_URL (see {@link parseRedisUrl}): a single server, a Redis Cluster
 * (ioredis `Cluster`, seed nodes from the URL) or a Sentinel-managed primary (ioredis `Redis` with `sentinels`). Every
 * connection retries forever with a capped backoff; commands queued while it is down fail after a few attempts.
 */
export function createRedisClient(redisUrl: string, options: CreateRedisClientOptions): RedisClient {
  return createRedisClientFor(parseRedisUrl(redisUrl), options);
}

export function createRedisClientFor(
  topology: RedisTopology,
  options: CreateRedisClientOptions,
): RedisClient {
  const base: RedisOptions & { disconnectTimeout: number } = {
    connectionName: options.connectionName,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    enableAutoPipelining: options.enableAutoPipelining ?? false,
    maxRetriesPerRequest: options.maxRetriesPerRequest ?? 3,
    retryStrategy: (attempt: number) => Math.min(100 * attempt, 2_000),
    // Read by ioredis 5 but missing from its types: how long disconnect() waits for the socket's 'close' before
    // destroying it. The 2 s default also runs when the socket is already gone and keeps the process alive.
    disconnectTimeout: 500,
  };
  const failFast = options.failFast ?? true;
  switch (topology.kind) {
    case 'single':
      return failFastOnceReady(new Redis(topology.url, base), failFast);
    case 'sentinel':
      return failFastOnceReady(
        new Redis({
          ...base,
          sentinels: topology.sentinels,
          name: topology.primaryName,
          db: topology.db,
          username: topology.username,
          password: topology.password,
          sentinelPassword: topology.sentinelPassword,
          ...(topology.tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
          // After a failover the old primary may still accept a connection as a replica: reconnect to the new one.
          reconnectOnError: (error: Error) => error.message.startsWith('READONLY'),
          sentinelRetryStrategy: (attempt: number) => Math.min(100 * attempt, 2_000),
        }),
        failFast,
      );
    case 'cluster': {
      const { enableAutoPipelining, maxRetriesPerRequest, ...nodeOptions } = base;
      const clusterOptions: ClusterOptions = {
        enableAutoPipelining,
        shardedSubscribers: options.shardedSubscribers ?? false,
        clusterRetryStrategy: (attempt: number) => Math.min(100 * attempt, 2_000),
        // A primary that stops answering is replaced by its replica within the cluster's node timeout: keep
        // redirecting and retrying commands meanwhile instead of failing them at once.
        retryDelayOnFailover: 200,
        retryDelayOnClusterDown: 200,
        retryDelayOnTryAgain: 100,
        maxRedirections: 32,
        slotsRefreshTimeout: 2_000,
        slotsRefreshInterval: 2_000,
        redisOptions: {
          ...nodeOptions,
          maxRetriesPerRequest,
          username: topology.username,
          password: topology.password,
          ...(topology.tls ? { tls: {} } : {}),
        },
      };
      return new Cluster(topology.nodes, clusterOptions);
    }
  }
}

/** See CreateRedisClientOptions.failFast: from the first `ready` on, no offline queue. */
function failFastOnceReady(client: Redis, failFast: boolean): Redis {
  if (failFast) {
    client.once('ready', () => {
      client.options.enableOfflineQueue = false;
    });
  }
  return client;
}

/** Whether the client speaks to a Redis Cluster (sharded pub/sub, hash-tagged keys) rather than one primary. */
export function isClusterClient(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

/** QUIT politely when connected; otherwise (or when QUIT does not answer in time) drop the connection. */
export async function closeRedisClient(client: RedisClient, timeoutMs = 1_000): Promise<void> {
  if (client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.quit(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('QUIT timed out')), timeoutMs);
      }),
    ]);
  } catch {
    client.disconnect();
  } finally {
    clearTimeout(timer);
  }
}
