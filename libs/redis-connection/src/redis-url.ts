import { createHash } from 'node:crypto';

/**
 * The Redis topologies the platform connects to, all named by one URL (REDIS_URL), so every app, process launcher,
 * compose file and manifest passes a single setting through unchanged:
 *
 * - `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS): one Redis server;
 * - `redis+cluster://[user:password@]host:port[,host:port…]` (or `rediss+cluster://`): a Redis Cluster, given by
 *   one or more seed nodes (the client discovers the others);
 * - `redis+sentinel://[user:password@]host:port[,host:port…]/primary-name[/db][?sentinelPassword=…]` (or
 *   `rediss+sentinel://`): a primary managed by Redis Sentinel, given by its sentinels and the name they monitor it
 *   under; the credentials are the data nodes', `sentinelPassword` the sentinels' own when they require one.
 */
export type RedisTopology =
  | { kind: 'single'; url: string }
  | {
      kind: 'cluster';
      nodes: RedisNodeAddress[];
      username?: string;
      password?: string;
      tls: boolean;
    }
  | {
      kind: 'sentinel';
      sentinels: RedisNodeAddress[];
      primaryName: string;
      db: number;
      username?: string;
      password?: string;
      sentinelPassword?: string;
      tls: boolean;
    };

export interface RedisNodeAddress {
  host: string;
  port: number;
}

/** The URL schemes {@link parseRedisUrl} accepts, for messages and documentation. */
export const REDIS_URL_SCHEMES = [
  'redis',
  'rediss',
  'redis+cluster',
  'rediss+cluster',
  'redis+sentinel',
  'rediss+sentinel',
] as const;

const MULTI_HOST_URL =
  /^(rediss?)\+(cluster|sentinel):\/\/(?:([^@/?#]*)@)?([^/?#]+)(\/[^?#]*)?(?:\?([^#]*))?$/;
const ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/;

/** Reads a Redis URL into its topology; throws an Error saying what is wrong (never echoing the password). */
export function parseRedisUrl(redisUrl: string): RedisTopology {
  const trimmed = redisUrl.trim();
  const scheme = /^([a-z+]+):\/\//i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === 'redis' || scheme === 'rediss') {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new Error('is not a valid URL');
    }
    if (!url.hostname) throw new Error('names no host');
    return { kind: 'single', url: trimmed };
  }
  const match = MULTI_HOST_URL.exec(trimmed);
  if (!match) {
    throw new Error(
      `must start with one of ${REDIS_URL_SCHEMES.map((s) => `${s}://`).join(', ')} and name host:port pairs`,
    );
  }
  const [, base, kind, userInfo, hostList, path = '', query = ''] = match;
  const tls = base === 'rediss';
  const nodes = hostList.split(',').map((entry) => parseAddress(entry.trim()));
  const credentials = parseUserInfo(userInfo);
  const params = new URLSearchParams(query);
  if (kind === 'cluster') {
    if (path !== '' && path !== '/')
      throw new Error('a cluster URL has no path (a cluster has only database 0)');
    if ([...params.keys()].length > 0) throw new Error('a cluster URL takes no query parameters');
    return { kind: 'cluster', nodes, ...credentials, tls };
  }
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.length === 0 || segments.length > 2) {
    throw new Error('a sentinel URL names the monitored primary as its path: /primary-name[/db]');
  }
  const primaryName = decodeURIComponent(segments[0]);
  const db = segments[1] === undefined ? 0 : Number(segments[1]);
  if (!Number.isInteger(db) || db < 0)
    throw new Error('the database after the primary name must be a number');
  const unknown = [...params.keys()].filter((key) => key !== 'sentinelPassword');
  if (unknown.length > 0)
    throw new Error(`unknown query parameter(s): ${unknown.join(', ')} (only sentinelPassword)`);
  const sentinelPassword = params.get('sentinelPassword') ?? undefined;
  return {
    kind: 'sentinel',
    sentinels: nodes,
    primaryName,
    db,
    ...credentials,
    ...(sentinelPassword ? { sentinelPassword } : {}),
    tls,
  };
}

function parseAddress(entry: string): RedisNodeAddress {
  const match = ADDRESS.exec(entry);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65_535) throw new Error(`"${entry}" is not a host:port pair`);
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

function parseUserInfo(userInfo: string | undefined): { username?: string; password?: string } {
  if (!userInfo) return {};
  const colon = userInfo.indexOf(':');
  const username = decodeURIComponent(colon === -1 ? userInfo : userInfo.slice(0, colon));
  const password = colon === -1 ? undefined : decodeURIComponent(userInfo.slice(colon + 1));
  return { ...(username ? { username } : {}), ...(password ? { password } : {}) };
}

/** The Redis URL without credentials, safe to put in logs and error messages. */
export function redactRedisUrl(redisUrl: string): string {
  let topology: RedisTopology;
  try {
    topology = parseRedisUrl(redisUrl);
  } catch {
    return '<unparseable Redis URL>';
  }
  if (topology.kind === 'single') {
    const url = new URL(topology.url);
    url.username = '';
    url.password = '';
    return url.toString();
  }
  const scheme = `${topology.tls ? 'rediss' : 'redis'}+${topology.kind}`;
  const hosts = (topology.kind === 'cluster' ? topology.nodes : topology.sentinels)
    .map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`)
    .join(',');
  const path =
    topology.kind === 'sentinel' ? `/${encodeURIComponent(topology.primaryName)}/${topology.db}` : '';
  return `${scheme}://${hosts}${path}`;
}

/**
 * The hash tag of a value: Redis Cluster places every key (and shard channel) containing the same `{…}` on one
 * shard, so one conversation's keys can be used together in a script or transaction. A value containing braces
 * (never one of ours; possibly a client's guess) is tagged by its SHA-1 instead, as its braces would end the tag early.
 */
export function hashTag(value: string): string {
  if (value.includes('{') || value.includes('}'))
    return `{#${createHash('sha1').update(value).digest('hex')}}`;
  return `{${value}}`;
}
