import { type ReportHeader, type ReportRow, type ReportTotals } from './report-document';
import { ReportThread, ReportWriter } from './report-writer';

const header: ReportHeader = {
  kind: 'round',
  site: '一号厂房',
  devices: 'P-1 水泵',
  plan: '日常巡检',
  period: '2026-11-27',
  inspectors: ['李工'],
  generatedAt: new Date('2026-11-27T08:00:00Z'),
  verificationId: '5f0c6f43-1d2e-4a43-9a39-0c3d8d5a7b21',
  verifyUrl: 'https://fieldops.example.test/api/reports/5f0c6f43-1d2e-4a43-9a39-0c3d8d5a7b21/',
};
const totals: ReportTotals = {
  records: 2,
  ok: 1,
  warn: 0,
  fail: 1,
  out_of_range: 0,
  photos: 0,
  checks: 2,
  checks_done: 2,
  inspectors: ['李工'],
  actions: {},
};
const row = (id: number): ReportRow => ({
  record_id: id,
  checked_at: new Date('2026-11-27T07:00:00Z'),
  status: id % 2 ? 'ok' : 'fail',
  value: '2.5',
  note: '压力正常',
  photo: null,
  checked_by: '李工',
  source: 'chat',
  out_of_range: false,
  device_code: 'P-1',
  device_name: '水泵',
  item_name: '出口压力',
  expected_value: '2–3 bar',
  unit: 'bar',
  plan_name: '日常巡检',
  actions: [],
});

async function read(writer: ReportWriter): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of writer.pdf) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reports laid out in the worker thread: the bytes come back whole, several documents at once, and failures reach the caller. */
describe('ReportWriter (the report worker thread)', () => {
  const thread = new ReportThread();
  afterAll(() => thread.close());

  it('writes whole PDFs, two at once, each with its own rows', async () => {
    const writers = [1, 2].map(
      (n) => new ReportWriter(thread, n === 1 ? 'zh-CN' : 'en', header, 'Asia/Shanghai'),
    );
    const pdfs = writers.map(read);
    for (const writer of writers) writer.writeHeader(totals);
    for (let id = 1; id <= 10; id += 1)
      for (const writer of writers) await writer.writeRow(row(id), undefined);
    for (const writer of writers) writer.end();
    for (const pdf of await Promise.all(pdfs)) {
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.subarray(-6).toString('latin1')).toMatch(/%%EOF/);
      // The embedded font is a subset (a CFF font file), not the 8 MB font.
      expect(pdf.length).toBeLessThan(1_000_000);
    }
  }, 60_000);

  it('fails the documents in progress when the worker stops, and starts a new worker for the next', async () => {
    const cut = new ReportWriter(thread, 'en', header, 'UTC');
    const failed = read(cut).then(
      () => 'ended',
      (error: Error) => error.message,
    );
    cut.writeHeader(totals);
    await thread.close();
    await expect(failed).resolves.toMatch(/the report worker stopped/);
    await expect(cut.writeRow(row(1), undefined)).rejects.toThrow(/the report worker stopped/);

    const next = new ReportWriter(thread, 'en', header, 'UTC');
    const pdf = read(next);
    next.writeHeader(totals);
    await next.writeRow(row(1), undefined);
    next.end();
    expect((await pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 60_000);
});
