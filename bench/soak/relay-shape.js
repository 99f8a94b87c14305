// The soak's `--shape relay`: the processes of the Redis-mode target (bench/relay/README.md, `bench.js --rate 2000`
// with REDIS_URL) run for as long as the soak lasts. relay-gateway from its build output (`dist/main.js`, as a
// container runs it) on a redis-server of its own with the append-only file on (fsync every second, no RDB
// snapshots: infra's RedisServerProcess, as the scale-out tests and the whole-stack soak run it), bench/relay's bot
// in a process of its own replying through that Redis (store and bus) as connector-gateway ingests a real bot's
// reply, and, unless `nginx: false`, Debian's nginx on the repository's template in front of the relay.
'use strict';

const { fork } = require('node:child_process');
const { once } = require('node:events');
const { mkdirSync, openSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const {
  AppProcess,
  NginxProcess,
  RedisServerProcess,
  freePort,
  renderNginxConfiguration,
  residentSetBytes,
} = require(path.join(root, 'infra/dist/index.js'));

const DIRECT_LINE_SECRET = 'soak-relay-shape-directline-secret';

/**
 * bench/relay/bot.js as a process of its own; resolves with its port once it listens. `environment` is its whole
 * environment (REDIS_URL, CONVERSATION_RETENTION_SECONDS, NODE_OPTIONS); its output goes to `logFile`.
 */
async function startBenchBot(environment, logFile) {
  const log = openSync(logFile, 'a');
  const child = fork(path.join(root, 'bench/relay/bot.js'), [], {
    env: environment,
    stdio: ['ignore', log, log, 'ipc'],
  });
  const [message] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`bench/relay/bot.js exited with ${code} during start-up`);
    }),
  ]);
  return {
    name: 'bench-bot',
    port: message.port,
    get pid() {
      return child.pid;
    },
    residentSetBytes: () => (child.exitCode === null ? residentSetBytes(child.pid) : undefined),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Starts the relay shape in `workDirectory`. `retentionSeconds` goes to the relay and the bot
 * (CONVERSATION_RETENTION_SECONDS); `nodeOptions` to both Node processes (heap snapshots); `nginx: false` sends the
 * clients to the relay directly; `portBase` takes Redis, the relay and nginx from that port up (default: free ports).
 * Returns what bench/soak/run.js reads of a stack: the public URL, the Direct Line secret, the relay (its /metrics),
 * every process with its RSS and CPU, and stop().
 */
async function startRelayShape({
  workDirectory,
  retentionSeconds,
  nodeOptions,
  nginx: withNginx = true,
  portBase,
}) {
  for (const directory of ['redis', 'nginx', 'logs'])
    mkdirSync(path.join(workDirectory, directory), { recursive: true });
  const port = async (offset) => (portBase ? portBase + offset : freePort());
  const started = [];
  const stop = async () => {
    for (const part of started.splice(0).reverse()) await part.stop().catch(() => undefined);
  };
  try {
    const redis = new RedisServerProcess({
      port: await port(0),
      directory: path.join(workDirectory, 'redis'),
    });
    await redis.start();
    started.push({ stop: () => redis.shutdown() });

    const shared = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      REDIS_URL: redis.url,
      ...(retentionSeconds ? { CONVERSATION_RETENTION_SECONDS: String(retentionSeconds) } : {}),
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
    };
    const bot = await startBenchBot(shared, path.join(workDirectory, 'logs', 'bench-bot.log'));
    started.push(bot);

    const platformConfig = path.join(workDirectory, 'platform.yaml');
    writeFileSync(
      platformConfig,
      [
        'bots:',
        '  - id: bench-bot',
        '    name: bench-bot',
        '    anonymous: true',
        `    messagingEndpoint: http://127.0.0.1:${bot.port}/api/messages`,
        `    directLine: { secrets: [${DIRECT_LINE_SECRET}] }`,
        'relay:',
        '  tokenSigningKeys: [soak-relay-shape-token-signing-key-0123456789]',
        '',
      ].join('\n'),
    );
    const relayPort = await port(1);
    const relay = new AppProcess({
      app: 'relay-gateway',
      name: 'relay-gateway',
      port: relayPort,
      repositoryRoot: root,
      logFile: path.join(workDirectory, 'logs', 'relay-gateway.log'),
      environment: {
        ...shared,
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        PLATFORM_CONFIG: platformConfig,
        RELAY_GATEWAY_PORT: String(relayPort),
        // Straight to the bot's endpoint (no connector-gateway in this shape), as bench/relay runs it.
        RELAY_BOT_DELIVERY: 'direct',
        // The soak measures the relay, not the abuse limits (as bench/relay's default).
        RELAY_RATE_LIMIT_PER_TOKEN: '0',
        RELAY_RATE_LIMIT_PER_CONVERSATION: '0',
      },
    });
    started.push(relay);
    await relay.start();

    let publicUrl = relay.url;
    let proxy;
    if (withNginx) {
      const nginxPort = await port(2);
      const prefix = path.join(workDirectory, 'nginx');
      const address = `127.0.0.1:${relayPort}`;
      // Only the relay's routes are used; the template's other upstreams need an address, so they name it too.
      const configuration = renderNginxConfiguration({
        repositoryRoot: root,
        prefix,
        listenPort: nginxPort,
        inspectionApi: [address],
        connectorGateway: [address],
        relayGateway: [address],
      });
      proxy = new NginxProcess(prefix, configuration);
      publicUrl = `http://127.0.0.1:${nginxPort}`;
      await proxy.start(`${publicUrl}/nginx-healthz`);
      started.push(proxy);
    }

    const processes = [
      ...(proxy ? [{ name: 'nginx', pid: proxy.pid, residentSetBytes: () => proxy.residentSetBytes() }] : []),
      { name: 'redis-server', pid: redis.pid, residentSetBytes: () => redis.residentSetBytes() },
      { name: 'relay-gateway', pid: relay.pid, residentSetBytes: () => relay.residentSetBytes() },
      { name: 'bench-bot', pid: bot.pid, residentSetBytes: () => bot.residentSetBytes() },
    ];
    return {
      publicUrl,
      redisUrl: redis.url,
      credentials: { directLineSecret: DIRECT_LINE_SECRET },
      relays: [relay],
      processes: () => processes,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

module.exports = { startRelayShape };
