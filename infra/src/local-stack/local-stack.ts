import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppProcess, type AppName } from './app-process';
import { type EchoBot, startEchoBot } from './echo-bot';
import { NginxProcess, renderNginxConfiguration } from './nginx-process';
import { freePort } from './ports';
import { RedisServerProcess } from './redis-server-process';
import { TcpProxy } from './tcp-proxy';
import {
  RedisClusterDeployment,
  type RedisNode,
  RedisSentinelDeployment,
  type RedisTopologyKind,
} from './redis-topologies';

export interface LocalStackOptions {
  repositoryRoot: string;
  /** Everything the stack writes (Redis data, nginx prefix, logs, platform configuration) goes under here. */
  workDirectory: string;
  /**
   * PostgreSQL database inspection-api owns (migrated on its start). Without it inspection-api is not started (the
   * chat path — relays, connector, bot, Redis — does not use it; nginx then answers /api/ with 503).
   */
  databaseUrl?: string;
  /** How many relay-gateway processes run behind nginx. Default 2. */
  relayInstances?: number;
  /** One test-only nginx entrance per relay instance that reaches that instance first (the others as backups). */
  pinnedRelayEntrances?: boolean;
  /** LOG_LEVEL of every app. Default `warn`. */
  logLevel?: string;
  /**
   * Which Redis the gateways share: one redis-server with persistence (default), a 3-primary 3-replica Redis Cluster
   * (`redis+cluster://`), or a primary + replica under 3 sentinels (`redis+sentinel://`).
   */
  redisTopology?: RedisTopologyKind;
  /**
   * Cluster topology: the nodes' first port (6 consecutive ports, and their bus ports + 10000, all free); unset, a
   * free block below the ephemeral range.
   */
  redisClusterBasePort?: number;
  /**
   * Fault tests: each relay's link to the connector through a proxy of its own (`connectorLinks`); under Sentinel
   * every Redis link through a proxy per data node (see `RedisSentinelDeployment`); on one server each relay's link
   * to Redis through a proxy of its own (`redisLinks`).
   */
  proxiedLinks?: boolean;
  /** Extra variables per app (e.g. limits). */
  extraEnvironment?: Partial<Record<AppName, NodeJS.ProcessEnv>>;
}

/** The Direct Line secret and inspection-api's admin, as configured by the stack. */
export interface LocalStackCredentials {
  directLineSecret: string;
  adminUsername: string;
  adminPassword: string;
}

export interface LocalStack {
  /** nginx's public base URL (`http://127.0.0.1:<port>`). */
  publicUrl: string;
  /** The Direct Line domain clients use: `${publicUrl}/v3/directline`. */
  directLineDomain: string;
  /** Per relay instance (same order as `relays`): its pinned entrance's Direct Line domain, when enabled. */
  pinnedDirectLineDomains: string[];
  /** Per relay instance: the pinned entrance's access log (JSON lines: msec, method, uri, status, upstream). */
  pinnedAccessLogs: string[];
  /** The public entrance's access log (JSON lines: time, method, uri, status, upstream, …), bots' calls included. */
  accessLog: string;
  /** The single redis-server (`redisTopology: 'single'`, the default). */
  redis: RedisServerProcess | undefined;
  /** The cluster or the sentinel-managed pair, for the other topologies. */
  redisCluster: RedisClusterDeployment | undefined;
  redisSentinel: RedisSentinelDeployment | undefined;
  /** With `proxiedLinks`: per relay instance (same order as `relays`), its link to the connector. */
  connectorLinks: TcpProxy[];
  /** With `proxiedLinks` on one server: per relay instance, its link to Redis. */
  redisLinks: TcpProxy[];
  /** The REDIS_URL the gateways were given. */
  redisUrl: string;
  nginx: NginxProcess;
  inspectionApi: AppProcess | undefined;
  connectorGateway: AppProcess;
  relays: AppProcess[];
  bot: EchoBot;
  credentials: LocalStackCredentials;
  /** Every process of the stack with a label, for memory reports. */
  processes(): Array<{ name: string; pid: number | undefined; residentSetBytes(): number | undefined }>;
  stop(): Promise<void>;
}

function baseEnvironment(logLevel: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    LOG_LEVEL: logLevel,
    NODE_ENV: 'production',
  };
}

/**
 * The platform as a deployment runs it, on loopback: real nginx (the repository's template) in front of
 * inspection-api, connector-gateway and N relay-gateway processes, a redis-server with persistence on, and a stock
 * botbuilder echo bot. Each app is its own process started from its build output (`npm run build` first).
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const { repositoryRoot, workDirectory, databaseUrl } = options;
  const relayCount = options.relayInstances ?? 2;
  const logLevel = options.logLevel ?? 'warn';
  const extra = options.extraEnvironment ?? {};
  for (const directory of ['redis', 'nginx', 'logs', 'media'])
    mkdirSync(join(workDirectory, directory), { recursive: true });

  const started: Array<{ stop(): Promise<void> }> = [];
  const stopAll = async (): Promise<void> => {
    for (const part of started.splice(0).reverse()) await part.stop().catch(() => undefined);
  };
  try {
    const topology = options.redisTopology ?? 'single';
    let redis: RedisServerProcess | undefined;
    let redisCluster: RedisClusterDeployment | undefined;
    let redisSentinel: RedisSentinelDeployment | undefined;
    let redisUrl: string;
    if (topology === 'cluster') {
      const deployment = new RedisClusterDeployment(
        join(workDirectory, 'redis'),
        options.redisClusterBasePort,
      );
      redisCluster = deployment;
      started.push({ stop: () => deployment.stop() });
      await deployment.start();
      redisUrl = deployment.url;
    } else if (topology === 'sentinel') {
      const deployment = new RedisSentinelDeployment(join(workDirectory, 'redis'), options.proxiedLinks);
      redisSentinel = deployment;
      started.push({ stop: () => deployment.stop() });
      await deployment.start();
      redisUrl = deployment.url;
    } else {
      const port = await freePort();
      const server = new RedisServerProcess({ port, directory: join(workDirectory, 'redis') });
      redis = server;
      await server.start();
      started.push({ stop: () => server.shutdown() });
      redisUrl = server.url;
    }
    const redisNodes: RedisNode[] = [
      ...(redisCluster?.nodes ?? []),
      ...(redisSentinel ? [...redisSentinel.nodes, ...redisSentinel.sentinels] : []),
    ];

    // The apps' ports are picked once Redis listens, so none of them can be one a Redis node took meanwhile.
    const [inspectionPort, connectorPort, nginxPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
    ]);
    const relayPorts = await Promise.all(Array.from({ length: relayCount }, () => freePort()));
    const pinnedPorts = options.pinnedRelayEntrances
      ? await Promise.all(relayPorts.map(() => freePort()))
      : [];
    const publicUrl = `http://127.0.0.1:${nginxPort}`;
    const credentials: LocalStackCredentials = {
      directLineSecret: `local-stack-directline-${randomBytes(12).toString('hex')}`,
      adminUsername: 'soak-admin',
      adminPassword: `admin-${randomBytes(12).toString('hex')}`,
    };
    const internalKey = randomBytes(32).toString('base64url');

    const bot = await startEchoBot();
    started.push({ stop: () => bot.close() });

    const platformConfig = join(workDirectory, 'platform.yaml');
    writeFileSync(
      platformConfig,
      [
        'bots:',
        '  - id: echo-bot',
        '    appId: echo-bot-app-id',
        '    name: Echo bot',
        `    messagingEndpoint: ${bot.endpoint}`,
        '    anonymous: true',
        `    directLine: { secrets: [${credentials.directLineSecret}] }`,
        'relay:',
        `  tokenSigningKeys: [${randomBytes(32).toString('hex')}]`,
        '',
      ].join('\n'),
    );
    const gatewayState = { REDIS_URL: redisUrl, PLATFORM_CONFIG: platformConfig };
    const app = (name: string, appName: AppName, port: number, environment: NodeJS.ProcessEnv) =>
      new AppProcess({
        app: appName,
        name,
        port,
        repositoryRoot,
        logFile: join(workDirectory, 'logs', `${name.replace('#', '-')}.log`),
        environment: { ...baseEnvironment(logLevel), ...environment, ...extra[appName] },
      });
    const inspectionApi =
      databaseUrl === undefined
        ? undefined
        : app('inspection-api', 'inspection-api', inspectionPort, {
            INSPECTION_API_PORT: String(inspectionPort),
            DATABASE_URL: databaseUrl,
            INSPECTION_JWT_SIGNING_KEY: randomBytes(32).toString('hex'),
            INSPECTION_ADMIN_USERNAME: credentials.adminUsername,
            INSPECTION_ADMIN_PASSWORD: credentials.adminPassword,
            INSPECTION_MEDIA_ROOT: join(workDirectory, 'media'),
          });
    const connectorGateway = app('connector-gateway', 'connector-gateway', connectorPort, {
      ...gatewayState,
      CONNECTOR_GATEWAY_PORT: String(connectorPort),
      CONNECTOR_INTERNAL_KEY: internalKey,
      CONNECTOR_DEV_SIGNING_KEY_FILE: join(workDirectory, 'connector-dev-signing-key.pem'),
    });
    const connectorLinks = options.proxiedLinks
      ? await Promise.all(relayPorts.map(async () => new TcpProxy(await freePort(), connectorPort)))
      : [];
    for (const link of connectorLinks) {
      await link.start();
      started.push(link);
    }
    const redisLinks =
      options.proxiedLinks && redis
        ? await Promise.all(relayPorts.map(async () => new TcpProxy(await freePort(), redis.port)))
        : [];
    for (const link of redisLinks) {
      await link.start();
      started.push(link);
    }
    const relays = relayPorts.map((port, index) =>
      app(`relay-gateway#${index + 1}`, 'relay-gateway', port, {
        ...gatewayState,
        ...(redisLinks[index] && { REDIS_URL: `redis://${redisLinks[index].url}` }),
        RELAY_GATEWAY_PORT: String(port),
        RELAY_CONNECTOR_URL: connectorLinks[index]
          ? `http://${connectorLinks[index].url}`
          : connectorGateway.url,
        RELAY_CONNECTOR_KEY: internalKey,
        // Bots reply through the public entrance, as in a deployment.
        RELAY_BOT_SERVICE_URL: `${publicUrl}/`,
      }),
    );
    const apps = [...(inspectionApi ? [inspectionApi] : []), connectorGateway, ...relays];
    for (const appProcess of apps) started.push(appProcess);
    await Promise.all(apps.map((appProcess) => appProcess.start()));

    const prefix = join(workDirectory, 'nginx');
    const pinnedAccessLogs = pinnedPorts.map((_port, index) => join(prefix, `pinned-${index + 1}.log`));
    const address = (port: number) => `127.0.0.1:${port}`;
    const configuration = renderNginxConfiguration({
      repositoryRoot,
      prefix,
      listenPort: nginxPort,
      inspectionApi: [address(inspectionPort)],
      connectorGateway: [address(connectorPort)],
      relayGateway: relayPorts.map(address),
      pinnedRelayEntrances: pinnedPorts.map((listenPort, index) => ({
        listenPort,
        primary: address(relayPorts[index]),
        backups: relayPorts.filter((_port, other) => other !== index).map(address),
        accessLog: pinnedAccessLogs[index],
      })),
    });
    const nginx = new NginxProcess(prefix, configuration);
    await nginx.start(`${publicUrl}/nginx-healthz`);
    started.push(nginx);

    return {
      publicUrl,
      directLineDomain: `${publicUrl}/v3/directline`,
      pinnedDirectLineDomains: pinnedPorts.map((port) => `http://127.0.0.1:${port}/v3/directline`),
      pinnedAccessLogs,
      accessLog: join(prefix, 'access.log'),
      redis,
      redisCluster,
      redisSentinel,
      connectorLinks,
      redisLinks,
      redisUrl,
      nginx,
      inspectionApi,
      connectorGateway,
      relays,
      bot,
      credentials,
      processes: () => [
        { name: 'nginx', pid: nginx.pid, residentSetBytes: () => nginx.residentSetBytes() },
        ...(redis
          ? [{ name: 'redis-server', pid: redis.pid, residentSetBytes: () => redis.residentSetBytes() }]
          : []),
        ...redisNodes.map((node) => ({
          name: `redis-server:${node.port}`,
          pid: node.pid,
          residentSetBytes: () => node.residentSetBytes(),
        })),
        ...apps.map((appProcess) => ({
          name: appProcess.name,
          pid: appProcess.pid,
          residentSetBytes: () => appProcess.residentSetBytes(),
        })),
      ],
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
