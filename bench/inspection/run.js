#!/usr/bin/env node
// Benchmark of inspection-api (a script, not a test). Run after `npm run build`:
//   node bench/inspection/run.js                 # embedded PostgreSQL in a temporary directory
//   DATABASE_URL=postgres://… node bench/inspection/run.js   # a server (its user needs CREATEDB)
// Options (environment): BENCH_DURATION_SECONDS (default 10), BENCH_CONNECTIONS (64), BENCH_POOL_SIZE (10).
'use strict';

const { spawn } = require('node:child_process');
const { mkdtemp, rm } = require('node:fs/promises');
const { tmpdir } = require('node:os');
const path = require('node:path');
const root = path.resolve(__dirname, '..', '..');
const autocannon = require(require.resolve('autocannon', { paths: [root] }));
const { Pool } = require(require.resolve('pg', { paths: [path.join(root, 'apps/inspection-api')] }));
const { createScratchDatabase, EmbeddedPostgresServer } = require(
  path.join(root, 'libs/database/dist/index.js'),
);
const { devicePageSql } = require(path.join(root, 'apps/inspection-api/dist/devices/devices.service.js'));

const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
/** Rounds of (API devices list, direct pg) back to back: the machine's speed drifts between minutes. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DEVICES = 1000;
const ITEMS_PER_DEVICE = 5;
const PLANS = 10;
const RECORDS = 10000;
const PORT = 18_000 + Math.floor(Math.random() * 1000);

const say = (line) => process.stdout.write(`${line}\n`);

async function seed(url) {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    await pool.query(`INSERT INTO devices (name, code, location, "group")
      SELECT 'Device ' || g, 'D-' || g, 'Hall ' || (g % 10), 'group-' || (g % 5) FROM generate_series(1, ${DEVICES}) g`);
    await pool.query(`INSERT INTO check_items (name, description, expected_value, device_id)
      SELECT 'Item ' || i, 'Check ' || i || ' of device ' || d.id, (i * 10) || ' bar', d.id
      FROM devices d CROSS JOIN generate_series(1, ${ITEMS_PER_DEVICE}) i`);
    await pool.query(`INSERT INTO check_plans (name, frequency)
      SELECT 'Plan ' || g, (ARRAY['daily','weekly','monthly'])[1 + g % 3] FROM generate_series(1, ${PLANS}) g`);
    await pool.query(`INSERT INTO check_plan_devices (plan_id, device_id)
      SELECT p.id, d.id FROM check_plans p JOIN devices d ON d.id % ${PLANS} = p.id % ${PLANS}`);
    await pool.query(`INSERT INTO check_records (status, value, note, checked_by, plan_id, device_id, item_id)
      SELECT (ARRAY['ok','warn','fail'])[1 + g % 3], (g % 100)::text, 'note ' || g, 'inspector-' || (g % 7),
        1 + g % ${PLANS}, 1 + g % ${DEVICES}, NULL FROM generate_series(1, ${RECORDS}) g`);
    await pool.query('ANALYZE');
  } finally {
    await pool.end();
  }
}

async function waitForReady(url, child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`inspection-api exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('inspection-api did not become ready');
}

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

function report(label, result) {
  const bad = result.non2xx + result.errors + result.timeouts;
  say(
    `${label.padEnd(44)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms` +
      (bad ? `   (${bad} non-2xx/errors)` : ''),
  );
  return result.requests.average;
}

/** The devices-list statement straight through pg: CONNECTIONS workers sharing a pool of POOL_SIZE. */
async function directPg(url, connections) {
  const pool = new Pool({ connectionString: url, max: POOL_SIZE });
  const latencies = [];
  let done = 0;
  const until = Date.now() + DURATION * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const page = 1 + Math.floor(Math.random() * (DEVICES / 20));
      const { sql, parameters } = devicePageSql({}, 20, (page - 1) * 20);
      const started = process.hrtime.bigint();
      const { rows } = await pool.query(sql, parameters);
      JSON.stringify(rows[0].results);
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  const rate = done / DURATION;
  say(
    `${`direct pg, devices page (${connections} workers, pool ${POOL_SIZE})`.padEnd(44)} ${rate.toFixed(0).padStart(7)} q/s     p50 ${at(0.5).padStart(4)} ms   p99 ${at(0.99).padStart(4)} ms`,
  );
  return rate;
}

async function main() {
  const cleanups = [];
  try {
    let adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'inspection-bench-pg-'));
      const server = await EmbeddedPostgresServer.start({ dataDir, persistent: false });
      cleanups.unshift(() => server.stop());
      adminUrl = server.url;
      say(`embedded PostgreSQL ${server.serverVersion}`);
    }
    const database = await createScratchDatabase(adminUrl, 'inspection_bench');
    cleanups.unshift(() => database.drop());
    const mediaRoot = await mkdtemp(path.join(tmpdir(), 'inspection-bench-media-'));
    cleanups.unshift(() => rm(mediaRoot, { recursive: true, force: true }));

    const profile = process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]
      : [];
    const child = spawn(process.execPath, [...profile, path.join(root, 'apps/inspection-api/dist/main.js')], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        DATABASE_POOL_SIZE: String(POOL_SIZE),
        INSPECTION_API_PORT: String(PORT),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        INSPECTION_JWT_SIGNING_KEY: 'bench-signing-key-of-at-least-32-characters',
        INSPECTION_ADMIN_USERNAME: 'bench',
        INSPECTION_ADMIN_PASSWORD: 'bench',
        INSPECTION_MEDIA_ROOT: mediaRoot,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    cleanups.unshift(
      () =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    );
    const url = `http://127.0.0.1:${PORT}`;
    await waitForReady(url, child);
    await seed(database.url);
    say(
      `seeded ${DEVICES} devices × ${ITEMS_PER_DEVICE} items, ${PLANS} plans, ${RECORDS} records; ${DURATION} s per run`,
    );

    const tokenResponse = await fetch(`${url}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench' }),
    });
    const { access } = await tokenResponse.json();
    const headers = { authorization: `Bearer ${access}` };
    const randomPage = (pages) => 1 + Math.floor(Math.random() * pages);

    const devicesList = (connections) =>
      cannon({
        url,
        connections,
        requests: [
          {
            method: 'GET',
            headers,
            setupRequest: (r) => ({
              ...r,
              path: `/api/devices/?page_size=20&page=${randomPage(DEVICES / 20)}`,
            }),
          },
        ],
      });

    await cannon({
      url,
      connections: 8,
      duration: 2,
      requests: [{ method: 'GET', path: '/api/devices/?page_size=20', headers }],
    }); // warm-up
    say('');
    report(
      `GET /api/records/?page_size=50 (${CONNECTIONS} conn)`,
      await cannon({
        url,
        connections: CONNECTIONS,
        requests: [
          {
            method: 'GET',
            headers,
            setupRequest: (r) => ({
              ...r,
              path: `/api/records/?page_size=50&page=${randomPage(RECORDS / 50)}`,
            }),
          },
        ],
      }),
    );
    report(
      `GET /api/devices/{id}/ (${CONNECTIONS} conn)`,
      await cannon({
        url,
        connections: CONNECTIONS,
        requests: [
          {
            method: 'GET',
            headers,
            setupRequest: (r) => ({ ...r, path: `/api/devices/${randomPage(DEVICES)}/` }),
          },
        ],
      }),
    );
    report(
      `POST /api/records/ (${CONNECTIONS} conn)`,
      await cannon({
        url,
        connections: CONNECTIONS,
        requests: [
          {
            method: 'POST',
            path: '/api/records/',
            headers: { ...headers, 'content-type': 'application/json' },
            setupRequest: (r) => ({
              ...r,
              body: JSON.stringify({
                status: 'ok',
                value: '3 bar',
                device: randomPage(DEVICES),
                plan: randomPage(PLANS),
                checked_by: 'bench',
              }),
            }),
          },
        ],
      }),
    );
    const lowLoad = await devicesList(8);
    report('GET /api/devices/?page_size=20 (8 conn)', lowLoad);
    const ratios = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      say('');
      const apiRate = report(
        `GET /api/devices/?page_size=20 (${CONNECTIONS} conn)`,
        await devicesList(CONNECTIONS),
      );
      const pgRate = await directPg(database.url, CONNECTIONS);
      ratios.push(apiRate / pgRate);
      say(
        `round ${round}: devices list API ${apiRate.toFixed(0)} req/s vs direct pg ${pgRate.toFixed(0)} q/s = ${((100 * apiRate) / pgRate).toFixed(0)}%`,
      );
    }
    ratios.sort((a, b) => a - b);
    say('');
    say(
      `devices list: API / direct pg, median of ${ROUNDS} back-to-back rounds = ${(100 * ratios[Math.floor((ratios.length - 1) / 2)]).toFixed(0)}% (rounds: ${ratios.map((r) => `${(100 * r).toFixed(0)}%`).join(', ')}; target ≥ 50%)`,
    );
    say(`devices list at 8 connections: p99 ${lowLoad.latency.p99} ms (target < 25 ms)`);
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((error) => say(`cleanup failed: ${error.message}`));
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
