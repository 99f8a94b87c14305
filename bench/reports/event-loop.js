// How long a 500-record zh-CN report blocks inspection-api's event loop: the same rows written by ReportDocument on
// this thread (as reports were made before the worker) and by ReportWriter (the report worker thread, as
// inspection-api makes them), one after the other in one process, with perf_hooks' monitorEventLoopDelay.
// A script, not a test (README.md). Needs a build; no database.
'use strict';

const { monitorEventLoopDelay, performance } = require('node:perf_hooks');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const REPORTS = join(ROOT, 'apps/inspection-api/dist/reports');
const { ReportDocument } = require(join(REPORTS, 'report-document.js'));
const { ReportThread, ReportWriter } = require(join(REPORTS, 'report-writer.js'));
const { downscalePhoto } = require(join(REPORTS, 'report-photo.js'));
const sharp = require(require.resolve('sharp', { paths: [join(ROOT, 'apps/inspection-api')] }));

// BENCH_SMOKE=1: a short run (20 records) that checks the script works; it gives no figure worth quoting.
const SMOKE = process.env.BENCH_SMOKE === '1';
const RECORDS = Number(process.env.BENCH_RECORDS ?? (SMOKE ? 20 : 500));

const header = {
  kind: 'round',
  site: '一号厂房 · 水泵',
  devices: `${RECORDS} 台设备`,
  plan: '日常巡检',
  period: '2026-11-27',
  inspectors: ['李工', '王工'],
  generatedAt: new Date(),
  verificationId: '5f0c6f43-1d2e-4a43-9a39-0c3d8d5a7b21',
  verifyUrl: 'https://fieldops.example.com/api/reports/5f0c6f43-1d2e-4a43-9a39-0c3d8d5a7b21/',
};
const totals = {
  records: RECORDS,
  ok: RECORDS,
  warn: 0,
  fail: 0,
  out_of_range: 0,
  photos: RECORDS,
  checks: RECORDS,
  checks_done: RECORDS,
  inspectors: header.inspectors,
  actions: {},
};
const row = (index) => ({
  record_id: index + 1,
  checked_at: new Date(Date.now() - index * 60_000),
  status: ['ok', 'warn', 'fail'][index % 3],
  value: `2.${index % 10}`,
  note: `检查了密封件和压力表；第二次读数压力正常。Seal ${index} checked.`,
  photo: 'photo',
  checked_by: index % 2 ? '李工' : '王工',
  source: 'chat',
  out_of_range: false,
  device_code: `B-${String(index + 1).padStart(5, '0')}`,
  device_name: `冷却水泵 ${index + 1}`,
  item_name: '出口压力',
  expected_value: '2–3 bar',
  unit: 'bar',
  plan_name: '日常巡检',
  actions: [],
});

/** Writes the report with `document` (its rows awaited as the service does) and returns the event loop's delays. */
async function measure(name, document, photo) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let bytes = 0;
  const done = new Promise((resolve, reject) => {
    document.pdf.on('data', (chunk) => (bytes += chunk.length));
    document.pdf.on('end', resolve);
    document.pdf.on('error', reject);
  });
  const started = performance.now();
  delay.enable();
  document.writeHeader(totals);
  for (let index = 0; index < RECORDS; index += 1) {
    // The service awaits each row's photo (sharp, on libuv's pool): the event loop turns between rows.
    await new Promise((resolve) => setImmediate(resolve));
    await document.writeRow(row(index), photo);
  }
  document.end();
  await done;
  // The monitor's timer records a block when it fires next: give it that turn before reading it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  delay.disable();
  return {
    writer: name,
    records: RECORDS,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    pdfMb: Number((bytes / 1048576).toFixed(2)),
    maxDelayMs: Number((delay.max / 1e6).toFixed(0)),
    p99DelayMs: Number((delay.percentile(99) / 1e6).toFixed(0)),
    meanDelayMs: Number((delay.mean / 1e6).toFixed(1)),
  };
}

async function main() {
  // One photo as a report prints it (downscaled to 480 px), the same for every row.
  const source = await sharp({
    create: { width: 1600, height: 1200, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg()
    .toBuffer();
  const path = join(require('node:os').tmpdir(), `bench-event-loop-${process.pid}.jpg`);
  require('node:fs').writeFileSync(path, source);
  const photo = await downscalePhoto(path);
  require('node:fs').rmSync(path);
  const thread = new ReportThread();
  const results = [
    await measure(
      'on the event loop (ReportDocument)',
      new ReportDocument('zh-CN', header, 'Asia/Shanghai'),
      photo,
    ),
    await measure(
      'worker thread (ReportWriter)',
      new ReportWriter(thread, 'zh-CN', header, 'Asia/Shanghai'),
      photo,
    ),
  ];
  await thread.close();
  for (const result of results) console.log(JSON.stringify({ smoke: SMOKE || undefined, ...result }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
