// Event delivery throughput: events/s that two inspection-api replicas deliver, signed, to a local webhook receiver.
// A script, not a test (README.md). Needs a build and DATABASE_URL (a user with CREATEDB).
'use strict';

const { spawn } = require('node:child_process');
const { createServer } = require('node:http');
const { mkdtemp, rm } = require('node:fs/promises');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { createScratchDatabase } = require('@fieldops/database');

const ROOT = join(__dirname, '..', '..');
// BENCH_SMOKE=1: a short run (50 events) that checks the script works; it gives no figure worth quoting.
const SMOKE = process.env.BENCH_SMOKE === '1';
const EVENTS = Number(process.env.BENCH_EVENTS ?? (SMOKE ? 50 : 5000));
const PORTS = [Number(process.env.BENCH_PORT ?? 7520), Number(process.env.BENCH_PORT ?? 7520) + 1];

function receiver() {
  const ids = new Map();
  let first = 0;
  let last = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      ids.set(id, (ids.get(id) ?? 0) + 1);
      last = performance.now();
      first ||= last;
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hook`,
        ids,
        times: () => ({ first, last }),
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

async function waitFor(check, everyMs = 50) {
  for (;;) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function main() {
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL (a PostgreSQL user with CREATEDB)');
  const database = await createScratchDatabase(process.env.DATABASE_URL, 'bench_events');
  const mediaRoot = await mkdtemp(join(tmpdir(), 'bench-events-'));
  const hook = await receiver();
  const children = [];
  try {
    for (const port of PORTS) {
      const child = spawn(process.execPath, [join(ROOT, 'apps/inspection-api/dist/main.js')], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          INSPECTION_API_PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          INSPECTION_JWT_SIGNING_KEY: 'bench-signing-key-of-at-least-32-characters',
          INSPECTION_ADMIN_USERNAME: 'bench',
          INSPECTION_ADMIN_PASSWORD: 'bench',
          INSPECTION_MEDIA_ROOT: mediaRoot,
          INSPECTION_EVENTS_POLL_MS: '100',
          INSPECTION_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      children.push(child);
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok,
        200,
      );
    }
    const api = `http://127.0.0.1:${PORTS[0]}`;
    const token = (
      await (
        await fetch(`${api}/api/token/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'bench', password: 'bench' }),
        })
      ).json()
    ).access;
    const registered = await fetch(`${api}/api/webhooks/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: hook.url, events: ['record.failed'] }),
    });
    if (registered.status !== 201)
      throw new Error(`register: ${registered.status} ${await registered.text()}`);

    // A burst of events in the outbox, as many committed changes would leave them.
    const db = new Client({ connectionString: database.url });
    await db.connect();
    const started = performance.now();
    await db.query(
      `INSERT INTO "events" ("type", "data") SELECT 'record.failed', json_build_object('id', g, 'status', 'fail') FROM generate_series(1, $1) g`,
      [EVENTS],
    );
    await waitFor(() => hook.ids.size >= EVENTS);
    const { last } = hook.times();
    const seconds = (last - started) / 1000;
    // The log is written after each receiver's answer: wait for it to catch up before the tally.
    const rows = await waitFor(async () => {
      const tally = await db.query(
        `SELECT count(*) FILTER (WHERE "status" = 'delivered')::int AS "delivered", count(*)::int AS "all" FROM "webhook_deliveries"`,
      );
      return tally.rows[0].delivered >= EVENTS ? tally.rows : undefined;
    }, 100);
    await db.end();
    const duplicates = [...hook.ids.values()].filter((count) => count > 1).length;
    console.log(
      JSON.stringify({
        ...(SMOKE ? { smoke: true } : {}),
        events: EVENTS,
        replicas: PORTS.length,
        seconds: Number(seconds.toFixed(2)),
        eventsPerSecond: Math.round(EVENTS / seconds),
        received: [...hook.ids.values()].reduce((sum, count) => sum + count, 0),
        duplicates,
        deliveriesLogged: rows[0],
      }),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve())),
      ),
    );
    await hook.close();
    await database.drop();
    await rm(mediaRoot, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
