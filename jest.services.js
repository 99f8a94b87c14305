// Global setup of the tiers that need services (int, e2e, browser; see jest.preset.js).
// Redis: REDIS_URL when set (checked to answer), otherwise a throw-away redis-server started for the run when one is
// installed; neither is a failure naming what to do, never a silent skip. PostgreSQL: the package's database global
// setup (DATABASE_URL, or an embedded PostgreSQL), when its jest.config.js names one.
const { spawn, spawnSync } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const { createConnection, createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const state = (globalThis.__fieldopsTestServices ??= {});

function reachable(host, port, timeoutMs) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function checkRedis(url) {
  // The first host of any scheme (redis, rediss, +cluster seeds, +sentinel sentinels) must accept a connection.
  const authority = url.replace(/^[a-z+]+:\/\//, '').split('/')[0];
  const first = authority.slice(authority.lastIndexOf('@') + 1).split(',')[0];
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(first);
  const host = match?.[1] ?? '127.0.0.1';
  const port = match?.[2] ?? '6379';
  if (!(await reachable(host, Number(port), 5000))) {
    throw new Error(`REDIS_URL is set but nothing answers at ${host}:${port}`);
  }
  process.stderr.write(`[tests] use Redis at ${host}:${port} (REDIS_URL)\n`);
}

async function startRedis() {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error(
      'These tests need Redis: set REDIS_URL (e.g. redis://127.0.0.1:6379), or install redis-server ' +
        '(apt-get install redis-server) and they start one for the run. `npm run test:unit` needs nothing.',
    );
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-test-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  state.redis = child;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await reachable('127.0.0.1', port, 500)) {
      process.env.REDIS_URL = state.redisUrl = `redis://127.0.0.1:${port}`;
      process.stderr.write(
        `[tests] use a redis-server started for the run at 127.0.0.1:${port} (REDIS_URL unset)\n`,
      );
      return;
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start');
}

module.exports = async function servicesSetup(globalConfig, projectConfig) {
  if (process.env.REDIS_URL) await checkRedis(process.env.REDIS_URL);
  else await startRedis();
  const postgres = projectConfig.globals?.fieldopsPostgres;
  if (postgres) {
    const setup = require(postgres.setup.replace('<rootDir>', projectConfig.rootDir));
    await (setup.default ?? setup)(globalConfig, projectConfig);
  }
};
