#!/usr/bin/env node
// Benchmark of inspection-api (a script, not a test). Run after `npm run build`:
//   node bench/inspection/run.js                 # embedded PostgreSQL in a temporary directory
//   DATABASE_URL=postgres://… node bench/inspection/run.js   # a server (its user needs CREATEDB)
// Options (environment): BENCH_DURATION_SECONDS (default 10), BENCH_CONNECTIONS (64), BENCH_POOL_SIZE (10).
'use strict';

const { spawn } = require('node:child_process');
const { mkdtemp, readFile, rm } = require('node:fs/promises');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { inspectionApiEnvironment } = require('./api-environment');
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
/** Record counts of the issue-14 runs (due, statistics, export), comma-separated; the first must be RECORDS or more. */
const ISSUE14_RECORDS = (process.env.BENCH_ISSUE14_RECORDS ?? '10000,100000')
  .split(',')
  .filter(Boolean)
  .map(Number);
/** Sequential exports per record count. */
const EXPORTS = Number(process.env.BENCH_EXPORTS ?? 5);
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
    await addRecords(pool, 1, RECORDS);
  } finally {
    await pool.end();
  }
}

/**
 * Records first..last: spread over devices, their items and the last 60 days (so the due checks and the statistics
 * have history to read), one in five with a photo.
 */
async function addRecords(pool, first, last) {
  await pool.query(`INSERT INTO check_records (status, value, note, checked_by, plan_id, device_id, item_id, checked_at, photo)
      SELECT (ARRAY['ok','warn','fail'])[1 + g % 3], (g % 100)::text, 'note ' || g, 'inspector-' || (g % 7),
        1 + g % ${PLANS}, 1 + g % ${DEVICES}, NULL, now() - (g % 1440) * interval '1 hour',
        CASE WHEN g % 5 = 0 THEN 'photos/' || md5(g::text) || '.jpg' END
      FROM generate_series(${first}, ${last}) g`);
  await pool.query(`UPDATE check_records r SET item_id = i.id
      FROM check_items i WHERE r.item_id IS NULL AND r.id BETWEEN ${first} AND ${last}
        AND i.device_id = r.device_id AND i.name = 'Item ' || (1 + r.id % ${ITEMS_PER_DEVICE})`);
  await pool.query('ANALYZE');
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
async function directPg(url, connections, plain = false) {
  const pool = new Pool({ connectionString: url, max: POOL_SIZE });
  const latencies = [];
  let done = 0;
  const until = Date.now() + DURATION * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const page = 1 + Math.floor(Math.random() * (DEVICES / 20));
      const started = process.hrtime.bigint();
      if (plain) {
        // The plain two-query version: the page with the count, then the page's items (as an ORM would).
        const { rows } = await pool.query(
          'SELECT d.*, (SELECT count(*) FROM devices) AS total FROM devices d ORDER BY d.id LIMIT 20 OFFSET $1',
          [(page - 1) * 20],
        );
        const items = await pool.query(
          'SELECT * FROM check_items WHERE device_id = ANY($1) ORDER BY device_id, id',
          [rows.map((row) => row.id)],
        );
        JSON.stringify({ rows, items: items.rows });
      } else {
        const { sql, parameters } = devicePageSql({}, 20, (page - 1) * 20);
        const { rows } = await pool.query(sql, parameters);
        JSON.stringify(rows[0].results);
      }
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
    `${`direct pg, devices page${plain ? ', plain 2 queries' : ''} (${connections} workers)`.padEnd(44)} ${rate.toFixed(0).padStart(7)} q/s     p50 ${at(0.5).padStart(4)} ms   p99 ${at(0.99).padStart(4)} ms`,
  );
  return rate;
}

/** Resident set size of a process in MiB (/proc, Linux). */
async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * The CSV export: BENCH_EXPORTS sequential downloads of every record, read to the end by the client; the API's
 * resident memory sampled every 20 ms meanwhile. Prints exports/s, p99 and the peak RSS (and the RSS before).
 */
async function exportRun(url, headers, pid, records) {
  const before = await rssMiB(pid);
  let peak = before;
  const sampler = setInterval(() => {
    rssMiB(pid).then(
      (value) => (peak = Math.max(peak, value)),
      () => undefined,
    );
  }, 20);
  const durations = [];
  let bytes = 0;
  let rows = 0;
  const started = Date.now();
  try {
    for (let run = 0; run < EXPORTS; run += 1) {
      const t0 = process.hrtime.bigint();
      const response = await fetch(`${url}/api/records/export.csv`, { headers });
      if (response.status !== 200) throw new Error(`export: ${response.status}`);
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
        for (const byte of value) if (byte === 10) rows += 1;
      }
      durations.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  } finally {
    clearInterval(sampler);
  }
  durations.sort((a, b) => a - b);
  const p99 = durations[Math.min(durations.length - 1, Math.floor(0.99 * durations.length))];
  say(
    `${`GET /api/records/export.csv (${records} records)`.padEnd(44)} ${(EXPORTS / ((Date.now() - started) / 1000)).toFixed(2).padStart(7)} req/s   p99 ${p99.toFixed(0)} ms   ${(bytes / EXPORTS / 1048576).toFixed(1)} MiB, ${Math.round(rows / EXPORTS)} lines each   peak RSS ${peak.toFixed(0)} MiB (before ${before.toFixed(0)} MiB)`,
  );
}

/**
 * Issue 25: a corrective action for every failed record that has none (a quarter each open, in progress, done,
 * verified; due dates over the last 60 days, so many are overdue), then the actions list, the overdue filter, the
 * actions statistics and the audit trail (which the triggers filled while records and actions were seeded).
 */
async function historyRuns(url, headers, pool, records) {
  await pool.query(`INSERT INTO actions (title, record_id, device_id, item_id, due_date, priority, status)
      SELECT 'Action for record ' || r.id, r.id, r.device_id, r.item_id, (now() - (r.id % 60) * interval '1 day')::date,
        'high', (ARRAY['open','in_progress','done','verified'])[1 + r.id % 4]
      FROM check_records r WHERE r.status = 'fail' AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.record_id = r.id)`);
  await pool.query('ANALYZE');
  const [{ actions, entries }] = (
    await pool.query(
      'SELECT (SELECT count(*) FROM actions)::int AS actions, (SELECT count(*) FROM audit_entries)::int AS entries',
    )
  ).rows;
  say(`${actions} actions, ${entries} audit entries`);
  const get = (label, path) =>
    cannon({ url, connections: CONNECTIONS, requests: [{ method: 'GET', path, headers }] }).then((result) =>
      report(`${label} (${records} rec)`, result),
    );
  await get('GET /api/actions/?page_size=50', '/api/actions/?page_size=50');
  await get('GET /api/actions/?overdue=true&page_size=50', '/api/actions/?overdue=true&page_size=50');
  await get('GET /api/statistics/actions/', '/api/statistics/actions/');
  await get('GET /api/audit/?page_size=50', '/api/audit/?page_size=50');
  await get('GET /api/audit/?resource=device&resource_id=1', '/api/audit/?resource=device&resource_id=1');
}

/** Issue 14's endpoints at one record count: due checks, their summary, statistics (autocannon) and the export. */
async function issue14Runs(url, headers, pid, records) {
  say('');
  const get = (label, path) =>
    cannon({ url, connections: CONNECTIONS, requests: [{ method: 'GET', path, headers }] }).then((result) =>
      report(`${label} (${records} rec)`, result),
    );
  await get('GET /api/due/?page_size=50', '/api/due/?page_size=50');
  await get('GET /api/due/summary/', '/api/due/summary/');
  await get('GET /api/statistics/records/ (30 days)', '/api/statistics/records/');
  await get(
    'GET /api/statistics/records/?interval=week',
    '/api/statistics/records/?interval=week&date_from=2026-01-01',
  );
  await exportRun(url, headers, pid, records);
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
      env: inspectionApiEnvironment({
        databaseUrl: database.url,
        poolSize: POOL_SIZE,
        port: PORT,
        mediaRoot,
      }),
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
      const plainRate = await directPg(database.url, CONNECTIONS, true);
      ratios.push(apiRate / pgRate);
      say(
        `round ${round}: devices list API ${apiRate.toFixed(0)} req/s vs direct pg ${pgRate.toFixed(0)} q/s = ${((100 * apiRate) / pgRate).toFixed(0)}%; vs plain two queries ${plainRate.toFixed(0)} pages/s = ${((100 * apiRate) / plainRate).toFixed(0)}%`,
      );
    }
    ratios.sort((a, b) => a - b);
    say('');
    say(
      `devices list: API / direct pg, median of ${ROUNDS} back-to-back rounds = ${(100 * ratios[Math.floor((ratios.length - 1) / 2)]).toFixed(0)}% (rounds: ${ratios.map((r) => `${(100 * r).toFixed(0)}%`).join(', ')}; target ≥ 80%)`,
    );
    say(`devices list at 8 connections: p99 ${lowLoad.latency.p99} ms (target < 25 ms)`);

    // Issue 14: due checks, statistics and the CSV export at growing record counts.
    let seeded = RECORDS;
    const pool = new Pool({ connectionString: database.url, max: 1 });
    try {
      for (const records of ISSUE14_RECORDS) {
        if (records > seeded) {
          await addRecords(pool, seeded + 1, records);
          seeded = records;
        }
        await issue14Runs(url, headers, child.pid, seeded);
        await historyRuns(url, headers, pool, seeded);
      }
    } finally {
      await pool.end();
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((error) => say(`cleanup failed: ${error.message}`));
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
