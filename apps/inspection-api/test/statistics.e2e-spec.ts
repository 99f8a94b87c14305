import { Client } from 'pg';
import { TestApi } from './support/test-api';

describe('record statistics', () => {
  let api: TestApi;
  let db: Client;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    api = await TestApi.start('inspection_statistics', { INSPECTION_TIME_ZONE: 'Asia/Shanghai' });
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    ids.a = (await api.createDevice({ group: 'pumps' })).id;
    ids.b = (await api.createDevice({ group: 'tanks' })).id;
    ids.plan = (
      (await api.post('/api/plans/', { name: 'P', frequency: 'daily', devices: [ids.a] })).body as {
        id: number;
      }
    ).id;
    const record = async (device: number, status: string, at: string, plan?: number) => {
      const id = ((await api.post('/api/records/', { status, device, plan })).body as { id: number }).id;
      await db.query(`UPDATE "check_records" SET "checked_at" = $2 WHERE "id" = $1`, [id, at]);
    };
    await record(ids.a, 'ok', '2026-11-01T16:00:00Z', ids.plan); // 00:00 on Nov 2 in Shanghai
    await record(ids.a, 'fail', '2026-11-01T15:59:59Z'); // 23:59:59 on Nov 1
    await record(ids.a, 'warn', '2026-11-02T03:00:00Z', ids.plan);
    await record(ids.b, 'ok', '2026-11-02T04:00:00Z');
    await record(ids.b, 'fail', '2026-11-09T04:00:00Z'); // Monday of the next week
    await record(ids.b, 'ok', '2026-10-31T04:00:00Z'); // before the range
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it('counts records per day and status in the configured zone, every day of the range included', async () => {
    const response = await api.get('/api/statistics/records/?date_from=2026-11-01&date_to=2026-11-04');
    expect(response.status).toBe(200);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(response.text).toBe(
      JSON.stringify({
        interval: 'day',
        date_from: '2026-11-01',
        date_to: '2026-11-04',
        results: [
          { period: '2026-11-01', ok: 0, warn: 0, fail: 1 },
          { period: '2026-11-02', ok: 2, warn: 1, fail: 0 },
          { period: '2026-11-03', ok: 0, warn: 0, fail: 0 },
          { period: '2026-11-04', ok: 0, warn: 0, fail: 0 },
        ],
      }),
    );
  });

  it('counts per ISO week (labelled by Monday, clipped to the range) and filters by plan, group and device', async () => {
    const weeks = await api.get(
      '/api/statistics/records/?interval=week&date_from=2026-11-01&date_to=2026-11-10',
    );
    expect((weeks.body as { results: unknown[] }).results).toEqual([
      { period: '2026-10-26', ok: 0, warn: 0, fail: 1 }, // Sunday Nov 1 only
      { period: '2026-11-02', ok: 2, warn: 1, fail: 0 },
      { period: '2026-11-09', ok: 0, warn: 0, fail: 1 },
    ]);
    const totals = async (query: string) => {
      const body = (
        await api.get(`/api/statistics/records/?date_from=2026-10-01&date_to=2026-11-30&${query}`)
      ).body as { results: Array<{ ok: number; warn: number; fail: number }> };
      expect(body.results).toHaveLength(61);
      return body.results.reduce((sum, row) => sum + row.ok + row.warn + row.fail, 0);
    };
    expect(await totals('')).toBe(6);
    expect(await totals(`plan=${ids.plan}`)).toBe(2);
    expect(await totals('group=tanks')).toBe(3);
    expect(await totals(`device=${ids.a}`)).toBe(3);
  });

  it('defaults to the last 30 days up to today; refuses bad parameters with 400', async () => {
    const body = (await api.get('/api/statistics/records/')).body as {
      date_from: string;
      results: unknown[];
    };
    expect(body.results).toHaveLength(30);
    expect(body.results[0]).toMatchObject({ period: body.date_from });
    expect((await api.get('/api/statistics/records/?interval=month&date_from=x&plan=y')).body).toEqual({
      interval: ['Select a valid choice. month is not one of the available choices.'],
      date_from: ['Enter a valid date.'],
      plan: ['Select a valid choice. That choice is not one of the available choices.'],
    });
    expect((await api.get('/api/statistics/records/?date_from=2026-11-05&date_to=2026-11-04')).body).toEqual({
      date_to: ['Must not be before date_from.'],
    });
    expect((await api.get('/api/statistics/records/?date_from=2000-01-01&date_to=2026-11-04')).status).toBe(
      400,
    );
    expect((await api.call('DELETE', '/api/statistics/records/')).status).toBe(405);
  });

  it('is in the OpenAPI document', async () => {
    const document = (await api.get('/api/schema/')).body as { paths: Record<string, object> };
    expect(Object.keys(document.paths['/api/statistics/records/'] ?? {})).toEqual(['get']);
  });
});
