#!/usr/bin/env node
// CPU time per devices page of inspection-api's process, PostgreSQL's backends and the load generator (a script, not
// a test). Read from /proc, so it is not fooled by a loaded machine as req/s are: the robust A/B figure.
//   npm run build && DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres node bench/inspection/devices-cpu.js
// Options (environment): BENCH_DURATION_SECONDS (8) per run, BENCH_ROUNDS (3), BENCH_CONNECTIONS (64),
// BENCH_POOL_SIZE (10). PostgreSQL's figure sums every postgres process of the machine (others' too).
'use strict';

const { spawn } = require('node:child_process');
const { mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { inspectionApiEnvironment } = require('./api-environment');
const root = path.resolve(__dirname, '..', '..');
const api = path.join(root, 'apps/inspection-api');
const autocannon = require(require.resolve('autocannon', { paths: [root] }));
const { Pool } = require(require.resolve('pg', { paths: [api] }));
const { createScratchDatabase } = require(path.join(root, 'libs/database/dist/index.js'));

const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
const PORT = 18_000 + Math.floor(Math.random() * 1000);
const say = (line) => process.stdout.write(`${line}\n`);

/** [utime, stime] of a process in milliseconds (/proc/<pid>/stat, 100 ticks per second). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return [Number(fields[11]) * 10, Number(fields[12]) * 10];
}

function postgresCpuMs() {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres')) continue;
      const [user, system] = cpuMs(pid);
      total += user + system;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function main() {
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL to a PostgreSQL server on this machine');
  const database = await createScratchDatabase(process.env.DATABASE_URL, 'inspection_cpu_bench');
  const mediaRoot = mkdtempSync(path.join(tmpdir(), 'inspection-cpu-media-'));
  const child = spawn(process.execPath, [path.join(api, 'dist/main.js')], {
    env: inspectionApiEnvironment({ databaseUrl: database.url, poolSize: POOL_SIZE, port: PORT, mediaRoot }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${PORT}`;
  try {
    for (let attempt = 0; ; attempt += 1) {
      if (child.exitCode !== null) throw new Error(`inspection-api exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${url}/readyz`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (attempt > 300) throw new Error('inspection-api did not become ready');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The devices of run.js: 1,000 devices × 5 items.
    const pool = new Pool({ connectionString: database.url, max: 1 });
    await pool.query(`INSERT INTO devices (name, code, location, "group")
      SELECT 'Device ' || g, 'D-' || g, 'Hall ' || (g % 10), 'group-' || (g % 5) FROM generate_series(1, 1000) g`);
    await pool.query(`INSERT INTO check_items (name, description, expected_value, device_id)
      SELECT 'Item ' || i, 'Check ' || i || ' of device ' || d.id, (i * 10) || ' bar', d.id
      FROM devices d CROSS JOIN generate_series(1, 5) i`);
    await pool.query('ANALYZE');
    await pool.end();
    const tokenResponse = await fetch(`${url}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench' }),
    });
    const { access } = await tokenResponse.json();
    const run = (duration) =>
      new Promise((resolve, reject) =>
        autocannon(
          {
            url,
            connections: CONNECTIONS,
            duration,
            requests: [
              {
                method: 'GET',
                headers: { authorization: `Bearer ${access}` },
                setupRequest: (request) => ({
                  ...request,
                  path: `/api/devices/?page_size=20&page=${1 + Math.floor(Math.random() * 50)}`,
                }),
              },
            ],
          },
          (error, result) => (error ? reject(error) : resolve(result)),
        ),
      );
    await run(3); // warm-up
    for (let round = 1; round <= ROUNDS; round += 1) {
      const [user0, system0] = cpuMs(child.pid);
      const postgres0 = postgresCpuMs();
      const own0 = process.cpuUsage();
      const result = await run(DURATION);
      const [user1, system1] = cpuMs(child.pid);
      const postgres1 = postgresCpuMs();
      const own = process.cpuUsage(own0);
      const pages = result.requests.total;
      const perPage = (ms) => ((1000 * ms) / pages).toFixed(0);
      say(
        `round ${round}: ${(pages / DURATION).toFixed(0)} pages/s (${result.non2xx} non-2xx), p99 ${result.latency.p99} ms; CPU per page: inspection-api ${perPage(user1 - user0 + system1 - system0)} µs (user ${perPage(user1 - user0)}, system ${perPage(system1 - system0)}), PostgreSQL ${perPage(postgres1 - postgres0)} µs, autocannon ${((own.user + own.system) / pages).toFixed(0)} µs`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    await database.drop();
    rmSync(mediaRoot, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
