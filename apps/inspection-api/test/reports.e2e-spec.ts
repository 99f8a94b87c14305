import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import sharp from 'sharp';
import { TestApi } from './support/test-api';

const run = promisify(execFile);

// Each report parses its font and subsets it (about a second of CPU), and each check reads a PDF back in a child
// process: generous on a loaded 2-core machine.
jest.setTimeout(180_000);

/** Where the rendered first pages are left for a person to look at (`report-en.png`, `report-zh-CN.png`). */
const PAGE_IMAGES = join(__dirname, '..', '.reports', 'report-pages');
/** poppler's renderer (Debian's `poppler-utils`, which `.ci/run` installs): without it the rendering is skipped. */
const PDFTOPPM = ['/usr/bin/pdftoppm', '/usr/local/bin/pdftoppm'].find((path) => existsSync(path));
if (!PDFTOPPM)
  console.warn('pdftoppm (poppler-utils) is not installed: the report page rendering test is skipped');

/** A photo as a phone sends it: large, so the report has to shrink it. */
const photo = (width: number, height: number, format: 'jpeg' | 'png', hue: string) =>
  sharp({ create: { width, height, channels: 3, background: hue } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#ffffff"/></svg>`,
        ),
      },
    ])
    .toFormat(format)
    .toBuffer();

interface Pdf {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** The PDF's text, pages and images as pdf-parse reads them (in a child process: `support/read-pdf.mjs`). */
async function parsed(bytes: Buffer): Promise<{ text: string; images: number; pages: number }> {
  const file = join(PAGE_IMAGES, `parse-${randomUUID()}.pdf`);
  await mkdir(PAGE_IMAGES, { recursive: true });
  await writeFile(file, bytes);
  try {
    const { stdout } = await run(process.execPath, [join(__dirname, 'support', 'read-pdf.mjs'), file], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return JSON.parse(stdout) as { text: string; images: number; pages: number };
  } finally {
    await rm(file, { force: true });
  }
}

describe('PDF reports', () => {
  let api: TestApi;
  const ids: Record<string, number> = {};
  let inspector: string;

  const pdf = async (path: string, headers: Record<string, string> = {}, token?: string): Promise<Pdf> => {
    const response = await fetch(`${api.url}${path}`, {
      headers: { authorization: `Bearer ${token ?? (await api.token())}`, ...headers },
    });
    return {
      status: response.status,
      headers: response.headers,
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  };

  const record = async (fields: Record<string, string>, image?: { bytes: Buffer; type: string }) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.append(key, value);
    if (image) data.append('photo', new Blob([new Uint8Array(image.bytes)], { type: image.type }), 'photo');
    const response = await api.call('POST', '/api/records/', { raw: data });
    if (response.status !== 201) throw new Error(`record: ${response.status} ${response.text}`);
    return (response.body as { id: number }).id;
  };

  beforeAll(async () => {
    api = await TestApi.start('inspection_reports', { INSPECTION_TIME_ZONE: 'Asia/Shanghai' });
    await api.post('/api/users/', { username: 'ivy', password: 'ivy password' });
    inspector = (await api.tokens('ivy', 'ivy password')).access;
    ids.pump = (
      await api.createDevice({ name: 'Pump 1', code: 'P-1', location: 'Hall A', group: 'Pumps' })
    ).id;
    ids.tank = (await api.createDevice({ name: '储罐', code: 'T-2', location: '东区' })).id;
    const item = async (fields: Record<string, unknown>) =>
      ((await api.post('/api/items/', fields)).body as { id: number }).id;
    ids.pressure = await item({ name: 'Pressure', device: ids.pump, expected_value: '2 bar' });
    ids.seal = await item({ name: 'Seal', device: ids.pump });
    ids.plan = (
      (
        await api.post('/api/plans/', {
          name: 'Daily round',
          frequency: 'daily',
          devices: [ids.pump, ids.tank],
        })
      ).body as { id: number }
    ).id;
    ids.failed = await record(
      {
        status: 'fail',
        device: String(ids.pump),
        item: String(ids.pressure),
        plan: String(ids.plan),
        value: '7.5',
        note: '漏油 oil on the floor',
        checked_by: 'ivy',
      },
      { bytes: await photo(1600, 1200, 'jpeg', '#c0392b'), type: 'image/jpeg' },
    );
    ids.tankOk = await record(
      { status: 'ok', device: String(ids.tank), plan: String(ids.plan), checked_by: 'sam' },
      { bytes: await photo(900, 1200, 'png', '#2e86c1'), type: 'image/png' },
    );
    ids.later = await record({
      status: 'warn',
      device: String(ids.pump),
      item: String(ids.pressure),
      value: '3',
    });
    await rm(PAGE_IMAGES, { recursive: true, force: true });
    await mkdir(PAGE_IMAGES, { recursive: true });
  });
  afterAll(() => api?.close());

  it("writes one record's report: header, item, status, value, note, photo, the action it opened, totals", async () => {
    const response = await pdf(`/api/records/${ids.failed}/report.pdf?lang=en`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="record-${ids.failed}.pdf"`,
    );
    expect(response.headers.get('content-length')).toBeNull(); // streamed
    const reportId = response.headers.get('x-report-id') ?? '';
    expect(reportId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, images } = await parsed(response.bytes);
    for (const expected of [
      'Inspection report: check record',
      'Hall A · Pumps',
      'P-1 Pump 1',
      'Daily round',
      'Pressure',
      'Failure',
      'Value: 7.5 (expected 2 bar)',
      'Note: 漏油 oil on the floor',
      'Inspector: ivy',
      `Action #`,
      'Open',
      'Records: 1 (OK 0 · Warning 0 · Failure 1)',
      'Corrective actions opened: 1 (Open 1)',
      reportId,
      `${api.url}/api/reports/${reportId}/`,
    ])
      expect(text).toContain(expected);
    expect(images).toBe(1);
  });

  it('answers HEAD with the headers of the report, its 404 and 400, and writes and stores nothing', async () => {
    const head = (path: string) =>
      api
        .token()
        .then((token) =>
          fetch(`${api.url}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } }),
        );
    const stored = async () => {
      const database = new Client({ connectionString: api.database.url });
      await database.connect();
      try {
        return (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM "reports"')).rows[0]?.n;
      } finally {
        await database.end();
      }
    };
    const before = await stored();
    const response = await head(`/api/records/${ids.failed}/report.pdf?lang=zh-CN`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="record-${ids.failed}-zh-CN.pdf"`,
    );
    expect(response.headers.get('content-language')).toBe('zh-CN');
    expect(response.headers.get('x-report-id')).toBeNull();
    expect((await response.arrayBuffer()).byteLength).toBe(0);
    expect((await head('/api/records/999999/report.pdf')).status).toBe(404);
    expect((await head(`/api/devices/${ids.pump}/report.pdf?from=2026-02-01&to=2026-01-01`)).status).toBe(
      400,
    );
    expect(await stored()).toBe(before);
  });

  it("writes a plan's round in Chinese (Accept-Language): every check, done or not, with each photo", async () => {
    const response = await pdf(`/api/plans/${ids.plan}/report.pdf`, {
      'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-language')).toBe('zh-CN');
    const { text, images } = await parsed(response.bytes);
    for (const expected of [
      '巡检报告：巡检轮次',
      'Daily round (每天)',
      '地点',
      'Hall A',
      '东区',
      '巡检员',
      'ivy',
      'sam',
      '故障',
      '正常',
      '警告',
      'T-2 储罐',
      'Seal',
      '本周期未检查',
      '检查项：3 · 已完成 2 · 未完成 1',
      '已创建的整改措施：1 (待处理 1)',
    ])
      expect(text).toContain(expected);
    expect(images).toBe(2);
  });

  it("writes a device's history over a date range, in both languages", async () => {
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Shanghai' });
    for (const lang of ['en', 'zh-CN'] as const) {
      const response = await pdf(
        `/api/devices/${ids.pump}/report.pdf?from=2026-01-01&to=${today}&lang=${lang}`,
      );
      expect(response.status).toBe(200);
      const { text, images } = await parsed(response.bytes);
      expect(text).toContain(lang === 'en' ? 'Inspection report: device history' : '巡检报告：设备历史');
      expect(text).toContain(`2026-01-01 – ${today}`);
      expect(text).toContain(lang === 'en' ? 'Records: 2' : '记录：2');
      expect(text).not.toContain('储罐');
      expect(images).toBe(1);
    }
  });

  (PDFTOPPM ? it : it.skip)(
    'renders the first page of both languages to PNG (kept in .reports/report-pages/)',
    async () => {
      for (const lang of ['en', 'zh-CN'] as const) {
        const response = await pdf(`/api/plans/${ids.plan}/report.pdf?lang=${lang}`);
        const file = join(PAGE_IMAGES, `round-${lang}.pdf`);
        await writeFile(file, response.bytes);
        const target = join(PAGE_IMAGES, `report-${lang}`);
        await run(PDFTOPPM ?? 'pdftoppm', [
          '-png',
          '-r',
          '80',
          '-f',
          '1',
          '-l',
          '1',
          '-singlefile',
          file,
          target,
        ]);
        const page = sharp(await readFile(`${target}.png`));
        const { width, height } = await page.metadata();
        expect([width, height]).toEqual([662, 936]); // A4 (595 x 842 pt) at 80 dpi
        // Not a blank page: the text is drawn (near-black in every channel).
        const { channels } = await page.stats();
        expect(channels.map((channel) => channel.min < 80)).toEqual([true, true, true]);
      }
    },
  );

  it('stores each report: its id verifies at a public route with the SHA-256 of the bytes sent', async () => {
    const response = await pdf(`/api/records/${ids.tankOk}/report.pdf`);
    const id = response.headers.get('x-report-id');
    let verification = await api.get(`/api/reports/${id}/`, { token: false });
    // The digest is stored once the last byte is written, just after the client has it.
    for (let attempt = 0; attempt < 50 && verification.body?.sha256 === null; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      verification = await api.get(`/api/reports/${id}/`, { token: false });
    }
    expect(verification.status).toBe(200);
    expect(verification.body).toEqual({
      id,
      kind: 'record',
      record: ids.tankOk,
      device: null,
      plan: null,
      period_start: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      period_end: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      language: 'en',
      records: 1,
      generated_by: 'admin',
      generated_at: expect.stringMatching(/Z$/),
      sha256: createHash('sha256').update(response.bytes).digest('hex'),
      bytes: response.bytes.length,
    });
    expect(
      (await api.get('/api/reports/00000000-0000-4000-8000-000000000000/', { token: false })).status,
    ).toBe(404);
    expect((await api.get('/api/reports/not-an-id/', { token: false })).body).toEqual({
      detail: 'Not found.',
    });
  });

  it('lets inspectors download reports, as they read records; refuses anonymous requests', async () => {
    expect((await pdf(`/api/plans/${ids.plan}/report.pdf`, {}, inspector)).status).toBe(200);
    const anonymous = await api.get(`/api/records/${ids.failed}/report.pdf`, { token: false });
    expect(anonymous.status).toBe(401);
  });

  it('answers bad input with DRF 4xx bodies', async () => {
    const expectError = async (path: string, status: number, body: unknown) => {
      const response = await api.get(path);
      expect({ path, status: response.status, body: response.body }).toEqual({ path, status, body });
    };
    await expectError('/api/records/999999/report.pdf', 404, { detail: 'Not found.' });
    await expectError('/api/records/abc/report.pdf', 404, { detail: 'Not found.' });
    await expectError('/api/devices/999999/report.pdf', 404, { detail: 'Not found.' });
    await expectError('/api/plans/999999/report.pdf', 404, { detail: 'Not found.' });
    await expectError(`/api/records/${ids.failed}/report.pdf?lang=fr`, 400, {
      lang: ['Select a valid choice. fr is not one of the available choices.'],
    });
    await expectError(`/api/devices/${ids.pump}/report.pdf?from=2026-02-01&to=2026-01-01`, 400, {
      to: ['Enter a date on or after `from`.'],
    });
    await expectError(`/api/devices/${ids.pump}/report.pdf?from=2024-01-01&to=2026-01-01`, 400, {
      to: ['A report covers at most 366 days.'],
    });
    await expectError(`/api/devices/${ids.pump}/report.pdf?from=yesterday`, 400, {
      from: ['Enter a valid date.'],
    });
    await expectError(`/api/plans/${ids.plan}/report.pdf?date=2026-13-01`, 400, {
      date: ['Enter a valid date.'],
    });
    const post = await api.post(`/api/plans/${ids.plan}/report.pdf`, {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
