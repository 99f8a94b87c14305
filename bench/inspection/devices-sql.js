#!/usr/bin/env node
// PostgreSQL CPU per devices page: inspection-api's statement against a plain two-query version (a script, not a
// test). Needs a PostgreSQL server on this machine (it reads the backend's CPU time from /proc):
//   npm run build && DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres node bench/inspection/devices-sql.js
// Options (environment): BENCH_BLOCKS (10) blocks of BENCH_PER_BLOCK (300) pages per variant, interleaved, so the
// drift of a shared machine hits every variant alike.
'use strict';

const { readFileSync } = require('node:fs');
const path = require('node:path');
const root = path.resolve(__dirname, '..', '..');
const api = path.join(root, 'apps/inspection-api');
const { Client } = require(require.resolve('pg', { paths: [api] }));
const { DataSource } = require(require.resolve('typeorm', { paths: [api] }));
const { createScratchDatabase } = require(path.join(root, 'libs/database/dist/index.js'));
const { inspectionDataSourceOptions } = require(path.join(api, 'dist/database/inspection-data-source.js'));
const { devicePageSql } = require(path.join(api, 'dist/devices/devices.service.js'));

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 10);
const PER_BLOCK = Number(process.env.BENCH_PER_BLOCK ?? 300);
const DEVICES = 1000;
const say = (line) => process.stdout.write(`${line}\n`);

/** utime + stime of a process in milliseconds (/proc/<pid>/stat, 100 ticks per second). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const PLAIN_PAGE =
  'SELECT d.*, (SELECT count(*) FROM devices) AS total FROM devices d ORDER BY d.id LIMIT $1 OFFSET $2';
const PLAIN_ITEMS = 'SELECT * FROM check_items WHERE device_id = ANY($1) ORDER BY device_id, id';

/** One page per variant: `prepared` names the statements (parsed and planned once per connection). */
const VARIANTS = {
  'inspection-api statement, prepared (as the app runs it)': async (client, offset) => {
    const { sql, parameters } = devicePageSql({}, 20, offset);
    await client.query({ name: 'api', text: sql, values: parameters });
  },
  'inspection-api statement, unprepared': async (client, offset) => {
    const { sql, parameters } = devicePageSql({}, 20, offset);
    await client.query(sql, parameters);
  },
  'plain two queries, unprepared': async (client, offset) => {
    const { rows } = await client.query(PLAIN_PAGE, [20, offset]);
    await client.query(PLAIN_ITEMS, [rows.map((row) => row.id)]);
  },
  'plain two queries, prepared': async (client, offset) => {
    const { rows } = await client.query({ name: 'page', text: PLAIN_PAGE, values: [20, offset] });
    await client.query({ name: 'items', text: PLAIN_ITEMS, values: [rows.map((row) => row.id)] });
  },
};

async function main() {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('set DATABASE_URL to a PostgreSQL server on this machine');
  const database = await createScratchDatabase(adminUrl, 'inspection_sql_bench');
  try {
    const dataSource = await new DataSource(inspectionDataSourceOptions(database.url, 1)).initialize();
    await dataSource.runMigrations();
    await dataSource.query(`INSERT INTO devices (name, code, location, "group")
      SELECT 'Device ' || g, 'D-' || g, 'Hall ' || (g % 10), 'group-' || (g % 5) FROM generate_series(1, ${DEVICES}) g`);
    await dataSource.query(`INSERT INTO check_items (name, description, expected_value, device_id)
      SELECT 'Item ' || i, 'Check ' || i || ' of device ' || d.id, (i * 10) || ' bar', d.id
      FROM devices d CROSS JOIN generate_series(1, 5) i`);
    await dataSource.query('ANALYZE');
    await dataSource.destroy();

    const client = new Client({ connectionString: database.url });
    await client.connect();
    const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const used = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, 0]));
    for (let block = 0; block < BLOCKS; block += 1) {
      for (const [name, page] of Object.entries(VARIANTS)) {
        const before = cpuMs(pid);
        for (let k = 0; k < PER_BLOCK; k += 1) await page(client, ((k * 7 + block) % (DEVICES / 20)) * 20);
        used[name] += cpuMs(pid) - before;
      }
    }
    await client.end();
    const pages = BLOCKS * PER_BLOCK;
    const plain = used['plain two queries, unprepared'] / pages;
    say(
      `PostgreSQL backend CPU per devices page (${DEVICES} devices × 5 items, ${pages} pages per variant):`,
    );
    for (const [name, ms] of Object.entries(used))
      say(
        `  ${name.padEnd(56)} ${(ms / pages).toFixed(3)} ms   ${((ms / pages / plain) * 100).toFixed(0)}% of plain`,
      );
  } finally {
    await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
