// The PDF report of a round with N records, each with a photo: the time to the last byte and the API process's peak
// memory. A script, not a test (README.md). Needs a build and DATABASE_URL (a user with CREATEDB).
'use strict';

const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdir, mkdtemp, readFile, rm, writeFile } = require('node:fs/promises');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { createScratchDatabase } = require('@fieldops/database');

const ROOT = join(__dirname, '..', '..');
// sharp is inspection-api's dependency (it downscales the photos); the bench uses it to make them.
const sharp = require(require.resolve('sharp', { paths: [join(ROOT, 'apps/inspection-api')] }));
// BENCH_SMOKE=1: a short run (20 records) that checks the script works; it gives no figure worth quoting.
const SMOKE = process.env.BENCH_SMOKE === '1';
const RECORDS = Number(process.env.BENCH_RECORDS ?? (SMOKE ? 20 : 500));
const PORT = Number(process.env.BENCH_PORT ?? 7900);
/** Photos as phones send them: 4000 x 3000 JPEGs (a few differ, so no two rows embed the same bytes). */
const PHOTO = { width: Number(process.env.BENCH_PHOTO_WIDTH ?? 4000), height: 3000, kinds: 8 };

async function waitFor(check, everyMs = 200) {
  for (;;) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The peak resident set size (VmHWM) and the current one (VmRSS) of a process, in MB. */
async function memory(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
}

async function photos() {
  const made = [];
  for (let index = 0; index < PHOTO.kinds; index += 1) {
    const hue = `hsl(${index * 45}, 60%, 45%)`;
    const noise = await sharp({
      create: { width: 400, height: 300, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    })
      .png()
      .toBuffer();
    made.push(
      await sharp({ create: { width: PHOTO.width, height: PHOTO.height, channels: 3, background: hue } })
        .composite([
          { input: await sharp(noise).resize(PHOTO.width, PHOTO.height).toBuffer(), blend: 'overlay' },
        ])
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
  }
  return made;
}

/** A plan with RECORDS devices of one item each, and one record with a photo per item, all made today. */
async function seed(databaseUrl, mediaRoot) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const images = await photos();
    await mkdir(join(mediaRoot, 'photos'), { recursive: true });
    const keys = [];
    for (let index = 0; index < RECORDS; index += 1) {
      const key = `photos/${randomBytes(16).toString('hex')}.jpg`;
      await writeFile(join(mediaRoot, key), images[index % images.length]);
      keys.push(key);
    }
    const [{ id: plan }] = (
      await db.query(
        `INSERT INTO "check_plans" ("name", "frequency") VALUES ('Bench round', 'daily') RETURNING "id"`,
      )
    ).rows;
    await db.query(
      `WITH d AS (INSERT INTO "devices" ("name", "code", "location")
          SELECT 'Pump ' || n, 'B-' || lpad(n::text, 5, '0'), 'Hall ' || (n % 7) FROM generate_series(1, $1) n RETURNING "id", "code"),
        p AS (INSERT INTO "check_plan_devices" ("plan_id", "device_id") SELECT $2, d."id" FROM d),
        i AS (INSERT INTO "check_items" ("name", "device_id", "expected_value") SELECT 'Pressure', d."id", '2 bar' FROM d RETURNING "id", "device_id")
      INSERT INTO "check_records" ("status", "value", "note", "photo", "checked_by", "plan_id", "device_id", "item_id", "source")
        SELECT (ARRAY['ok', 'warn', 'fail'])[1 + (row_number() OVER (ORDER BY i."id"))::int % 3], '2.' || (i."id" % 10),
          'Checked the seals and the gauge; 压力正常 on the second reading.', ($3::text[])[row_number() OVER (ORDER BY i."id")],
          'ivy', $2, i."device_id", i."id", 'chat'
        FROM i`,
      [RECORDS, plan, keys],
    );
    return plan;
  } finally {
    await db.end();
  }
}

async function main() {
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL (a PostgreSQL user with CREATEDB)');
  const database = await createScratchDatabase(process.env.DATABASE_URL, 'bench_reports');
  const mediaRoot = await mkdtemp(join(tmpdir(), 'bench-reports-'));
  let child;
  try {
    child = spawn(process.execPath, [join(ROOT, 'apps/inspection-api/dist/main.js')], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        INSPECTION_API_PORT: String(PORT),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        INSPECTION_JWT_SIGNING_KEY: 'bench-signing-key-of-at-least-32-characters',
        INSPECTION_ADMIN_USERNAME: 'bench',
        INSPECTION_ADMIN_PASSWORD: 'bench',
        INSPECTION_MEDIA_ROOT: mediaRoot,
        INSPECTION_EVENTS_RUNNER: 'false',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const base = `http://127.0.0.1:${PORT}`;
    await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.ok);
    const plan = await seed(database.url, mediaRoot);
    const { access } = await (
      await fetch(`${base}/api/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bench', password: 'bench' }),
      })
    ).json();
    const before = await memory(child.pid);
    const started = performance.now();
    const response = await fetch(`${base}/api/plans/${plan}/report.pdf?lang=zh-CN`, {
      headers: { authorization: `Bearer ${access}` },
    });
    if (response.status !== 200) throw new Error(`report: ${response.status} ${await response.text()}`);
    let bytes = 0;
    let firstByte = 0;
    for await (const chunk of response.body) {
      firstByte ||= performance.now();
      bytes += chunk.length;
    }
    const seconds = (performance.now() - started) / 1000;
    const after = await memory(child.pid);
    console.log(
      JSON.stringify({
        smoke: SMOKE || undefined,
        records: RECORDS,
        photos: RECORDS,
        photoPixels: `${PHOTO.width}x${PHOTO.height}`,
        seconds: Number(seconds.toFixed(2)),
        firstByteSeconds: Number(((firstByte - started) / 1000).toFixed(2)),
        pdfMb: Number((bytes / 1048576).toFixed(1)),
        rssBeforeMb: before.rssMb,
        peakRssBeforeMb: before.peakMb,
        peakRssMb: after.peakMb,
      }),
    );
  } finally {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await rm(mediaRoot, { recursive: true, force: true });
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
