// The platform as the capacity benches measure it: a redis-server of the bench's own (append-only file on, as
// infra's local stack runs it), connector-gateway and relay-gateway each in its own Node process started from its
// build output (`apps/<app>/dist/main.js`, LOG_LEVEL=warn, NODE_ENV=production, the production default limits), and
// an external bot over HTTP (bot.js, a process of its own) that authenticates with its app password and replies
// through connector-gateway. The relay delivers through connector-gateway (RELAY_CONNECTOR_URL), as a deployment
// does. Nothing here needs PostgreSQL: neither gateway uses it.
'use strict';

const { fork } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

const root = path.resolve(__dirname, '..', '..');
const { AppProcess, RedisServerProcess } = require(path.join(root, 'infra/dist/index.js'));
const Redis = require(require.resolve('ioredis', { paths: [path.join(root, 'libs/redis-connection')] }));

/** The bench's port block (see bench/capacity/README.md): apps from 9600, Redis from 9650. */
const PORTS = { connector: 9601, relay: 9610, bot: 9620, inspector: 9630, redis: 9650 };

const BOT = {
  id: 'capacity-bot',
  appId: 'capacity-bot-app-id',
  password: `capacity-bot-password-${randomBytes(8).toString('hex')}`,
};
const SECRET = `capacity-directline-${randomBytes(12).toString('hex')}`;

/**
 * Starts the platform. `relayEnvironment` is added to the relay's variables (e.g. a higher limit);
 * `inspectRelays` opens each relay's inspector on loopback (inspector.js); `redisPort`/`appPort` move the port block.
 */
async function startPlatform(options = {}) {
  const relayCount = options.relays ?? 1;
  const redisPort = options.redisPort ?? PORTS.redis;
  const base = options.appPort ?? PORTS.connector - 1;
  const ports = {
    connector: base + (PORTS.connector - 9600),
    relays: Array.from({ length: relayCount }, (_, index) => base + (PORTS.relay - 9600) + index),
    bot: base + (PORTS.bot - 9600),
    inspectors: Array.from({ length: relayCount }, (_, index) => base + (PORTS.inspector - 9600) + index),
  };
  const directory = mkdtempSync(path.join(tmpdir(), 'fieldops-capacity-'));
  const stops = [];
  const stop = async () => {
    for (const part of stops.splice(0).reverse()) await part().catch(() => undefined);
    // CAPACITY_KEEP_LOGS=1 keeps the apps' logs (and Redis's) for a look after the run.
    if (process.env.CAPACITY_KEEP_LOGS) process.stdout.write(`logs kept in ${directory}\n`);
    else rmSync(directory, { recursive: true, force: true });
  };
  try {
    const redis = new RedisServerProcess({ port: redisPort, directory });
    await redis.start();
    stops.push(() => redis.shutdown());

    const bot = fork(path.join(__dirname, 'bot.js'), [], {
      env: { ...process.env, CAPACITY_BOT: JSON.stringify({ ...BOT, port: ports.bot }) },
    });
    stops.push(
      () =>
        new Promise((resolve) => {
          if (bot.exitCode !== null) return resolve();
          bot.once('exit', resolve);
          bot.kill('SIGTERM');
        }),
    );
    await new Promise((resolve, reject) => {
      bot.once('message', resolve);
      bot.once('exit', (code) => reject(new Error(`the bench bot exited with ${code}`)));
    });

    const platformConfig = path.join(directory, 'platform.yaml');
    writeFileSync(
      platformConfig,
      [
        'bots:',
        `  - id: ${BOT.id}`,
        `    appId: ${BOT.appId}`,
        `    appPassword: ${BOT.password}`,
        `    messagingEndpoint: http://127.0.0.1:${ports.bot}/api/messages`,
        `    directLine: { secrets: [${SECRET}] }`,
        'relay:',
        `  tokenSigningKeys: [${randomBytes(32).toString('hex')}]`,
        '',
      ].join('\n'),
    );
    const internalKey = randomBytes(32).toString('base64url');
    const common = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      REDIS_URL: redis.url,
      PLATFORM_CONFIG: platformConfig,
    };
    const app = (name, appName, port, environment) =>
      new AppProcess({
        app: appName,
        name,
        port,
        repositoryRoot: root,
        logFile: path.join(directory, `${name.replace('#', '-')}.log`),
        environment: { ...common, ...environment },
      });
    const connector = app('connector-gateway', 'connector-gateway', ports.connector, {
      CONNECTOR_GATEWAY_PORT: String(ports.connector),
      CONNECTOR_INTERNAL_KEY: internalKey,
      CONNECTOR_DEV_SIGNING_KEY_FILE: path.join(directory, 'connector-dev-signing-key.pem'),
      ...options.connectorEnvironment,
    });
    const relays = ports.relays.map((port, index) =>
      app(`relay-gateway#${index + 1}`, 'relay-gateway', port, {
        RELAY_GATEWAY_PORT: String(port),
        RELAY_CONNECTOR_URL: connector.url,
        RELAY_CONNECTOR_KEY: internalKey,
        RELAY_BOT_SERVICE_URL: `${connector.url}/`,
        // The bench's window into the relay's heap (inspector.js): collect garbage, read process.memoryUsage().
        ...(options.inspectRelays ? { NODE_OPTIONS: `--inspect=127.0.0.1:${ports.inspectors[index]}` } : {}),
        ...options.relayEnvironment,
      }),
    );
    for (const appProcess of [connector, ...relays]) stops.push(() => appProcess.stop());
    // A generous start-up deadline: the benches run on machines that are busy by design.
    await connector.start(180_000);
    await Promise.all(relays.map((relay) => relay.start(180_000)));
    const redisClient = new Redis(redis.url, { lazyConnect: false });
    stops.push(() => redisClient.quit());
    return {
      directory,
      secret: SECRET,
      redis: { url: redis.url, pid: redis.pid, client: redisClient },
      connector: { url: connector.url, pid: connector.pid },
      relays: relays.map((relay, index) => ({
        url: relay.url,
        pid: relay.pid,
        domain: `${relay.url}/v3/directline`,
        inspectorPort: options.inspectRelays ? ports.inspectors[index] : undefined,
      })),
      bot: { pid: bot.pid },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

module.exports = { startPlatform, root };
