import { Client } from 'pg';
import { startInspectionApi } from '../src';
import { localDate } from '../src/due/due-rules';
import { TestApi } from './support/test-api';

describe('due checks', () => {
  let api: TestApi;
  let db: Client;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    api = await TestApi.start('inspection_due', { INSPECTION_TIME_ZONE: 'Asia/Shanghai' });
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    const a = await api.createDevice({ name: 'Pump A', code: 'A', group: 'pumps', location: 'Hall A' });
    const b = await api.createDevice({ name: 'Valve B', code: 'B', group: 'pumps' });
    const c = await api.createDevice({ name: 'Tank C', code: 'C', group: 'tanks' });
    ids.a = a.id;
    ids.b = b.id;
    ids.c = c.id;
    ids.a1 = ((await api.post('/api/items/', { name: 'Pressure', device: a.id })).body as { id: number }).id;
    ids.a2 = ((await api.post('/api/items/', { name: 'Leaks', device: a.id })).body as { id: number }).id;
    ids.c1 = ((await api.post('/api/items/', { name: 'Level', device: c.id })).body as { id: number }).id;
    const plan = async (body: object) => ((await api.post('/api/plans/', body)).body as { id: number }).id;
    ids.daily = await plan({ name: 'Daily rounds', frequency: 'daily', devices: [a.id, b.id] });
    ids.weekly = await plan({ name: 'Weekly tanks', frequency: 'weekly', devices: [c.id] });
    await plan({ name: 'Old', frequency: 'daily', devices: [a.id], active: false });
    await db.query(`UPDATE "devices" SET "created_at" = '2026-01-01T00:00:00Z'`);
    await db.query(`UPDATE "devices" SET "created_at" = '2026-11-24T02:00:00Z' WHERE "id" = $1`, [b.id]);
    const record = async (item: number, device: number, at: string, status = 'ok') => {
      const created = await api.post('/api/records/', { status, device, item, checked_by: 'ivy' });
      const id = (created.body as { id: number }).id;
      await db.query(`UPDATE "check_records" SET "checked_at" = $2 WHERE "id" = $1`, [id, at]);
      return id;
    };
    ids.recordA1 = await record(ids.a1, a.id, '2026-11-23T23:30:00Z', 'fail'); // 07:30 on the 24th in Shanghai
    ids.recordA2 = await record(ids.a2, a.id, '2026-11-23T12:00:00Z'); // 20:00 on the 23rd
    await record(ids.a2, a.id, '2026-11-25T10:00:00Z'); // after the date asked about
    await record(ids.c1, c.id, '2026-11-10T03:00:00Z');
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it('lists each check of the active plans with its status, period and last record', async () => {
    const response = await api.get('/api/due/?date=2026-11-24');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const body = response.body as { count: number; results: Array<Record<string, unknown>> };
    expect(body.count).toBe(4);
    expect(body.results[0]).toEqual({
      plan: { id: ids.daily, name: 'Daily rounds', frequency: 'daily', assignees: [], assignee_teams: [] },
      device: { id: ids.a, code: 'A', name: 'Pump A', group: 'pumps', location: 'Hall A' },
      item: { id: ids.a1, name: 'Pressure' },
      status: 'done',
      period_start: '2026-11-24',
      period_end: '2026-11-24',
      due_at: null,
      last_record: {
        id: ids.recordA1,
        status: 'fail',
        checked_at: '2026-11-23T23:30:00Z',
        checked_by: 'ivy',
      },
    });
    expect(response.text).toContain('"item":{"id":');
    expect(body.results.map((row) => [row.device, row.item, row.status])).toEqual([
      [expect.objectContaining({ code: 'A' }), { id: ids.a1, name: 'Pressure' }, 'done'],
      [expect.objectContaining({ code: 'A' }), { id: ids.a2, name: 'Leaks' }, 'due'],
      [expect.objectContaining({ code: 'B' }), null, 'due'], // no items: the device itself; new: not overdue
      [expect.objectContaining({ code: 'C' }), { id: ids.c1, name: 'Level' }, 'overdue'], // missed last week
    ]);
    expect(body.results[3]).toMatchObject({ period_start: '2026-11-23', period_end: '2026-11-29' });
    expect(body.results[2]).toMatchObject({ last_record: null });
  });

  it('filters by status, plan, device and group, and pages like the other lists', async () => {
    const count = async (query: string) =>
      ((await api.get(`/api/due/?date=2026-11-24&${query}`)).body as { count: number }).count;
    expect(await count('status=due')).toBe(2);
    expect(await count('status=overdue')).toBe(1);
    expect(await count('status=done')).toBe(1);
    expect(await count(`plan=${ids.weekly}`)).toBe(1);
    expect(await count('group=pumps')).toBe(3);
    expect(await count(`device=${ids.a}`)).toBe(2);
    expect(await count(`device=${ids.a}&status=done`)).toBe(1);
    expect(await count(`device=${ids.c}&plan=${ids.daily}`)).toBe(0);
    expect(await count('group=none')).toBe(0);
    const page = await api.get('/api/due/?date=2026-11-24&page_size=3&page=2');
    expect(page.body).toMatchObject({
      count: 4,
      next: null,
      previous: `${api.url}/api/due/?date=2026-11-24&page_size=3`,
    });
    expect((page.body as { results: unknown[] }).results).toHaveLength(1);
    expect((await api.get('/api/due/?date=2026-11-24&page_size=3&page=3')).body).toEqual({
      detail: 'Invalid page.',
    });
    const bad = await api.get('/api/due/?date=2026-02-30&status=late&plan=x&device=y');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      date: ['Enter a valid date.'],
      device: ['Select a valid choice. That choice is not one of the available choices.'],
      plan: ['Select a valid choice. That choice is not one of the available choices.'],
      status: ['Select a valid choice. late is not one of the available choices.'],
    });
  });

  it("the next day: yesterday's done check is due again, a check after it counts", async () => {
    const rows = ((await api.get('/api/due/?date=2026-11-25')).body as { results: Array<{ status: string }> })
      .results;
    expect(rows.map((row) => row.status)).toEqual(['due', 'done', 'overdue', 'overdue']);
  });

  it('summarises per plan, for today in the configured time zone by default', async () => {
    expect((await api.get('/api/due/summary/?date=2026-11-24')).text).toBe(
      JSON.stringify({
        date: '2026-11-24',
        time_zone: 'Asia/Shanghai',
        due: 2,
        overdue: 1,
        done: 1,
        // The failed record's action (opened on fail, unassigned, no due date).
        open_actions: 1,
        overdue_actions: 0,
        plans: [
          { id: ids.daily, name: 'Daily rounds', frequency: 'daily', due: 2, overdue: 0, done: 1, total: 3 },
          {
            id: ids.weekly,
            name: 'Weekly tanks',
            frequency: 'weekly',
            due: 0,
            overdue: 1,
            done: 0,
            total: 1,
          },
        ],
        assignees: [],
      }),
    );
    const today = await api.get('/api/due/summary/');
    expect(today.body).toMatchObject({
      date: localDate(new Date(), 'Asia/Shanghai'),
      time_zone: 'Asia/Shanghai',
    });
    expect((await api.get('/api/due/summary/?group=tanks&date=2026-11-24')).body).toMatchObject({
      due: 0,
      overdue: 1,
      done: 0,
    });
    expect((await api.get(`/api/due/summary/?device=${ids.c}&date=2026-11-24`)).body).toMatchObject({
      due: 0,
      overdue: 1,
      done: 0,
    });
    expect((await api.get('/api/due/summary/?date=x')).body).toEqual({ date: ['Enter a valid date.'] });
    expect((await api.call('POST', '/api/due/summary/')).status).toBe(405);
    expect((await api.get('/api/due/summary/', { token: false })).status).toBe(401);
  });

  it('is in the OpenAPI document', async () => {
    const document = (await api.get('/api/schema/')).body as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string; in: string }> } }>;
    };
    expect(Object.keys(document.paths['/api/due/'] ?? {})).toEqual(['get']);
    expect(Object.keys(document.paths['/api/due/summary/'] ?? {})).toEqual(['get']);
    // Every filter each route reads is documented, `?assignee=` on both.
    const queries = (path: string) =>
      (document.paths[path]?.get?.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name);
    expect(queries('/api/due/')).toEqual(
      expect.arrayContaining(['date', 'status', 'plan', 'device', 'group', 'assignee', 'page', 'page_size']),
    );
    expect(queries('/api/due/summary/')).toEqual(
      expect.arrayContaining(['date', 'plan', 'device', 'group', 'assignee']),
    );
  });
});

describe('INSPECTION_TIME_ZONE', () => {
  it('is validated at start-up', async () => {
    await expect(
      startInspectionApi({ environment: { INSPECTION_TIME_ZONE: 'Mars/Olympus', LOG_LEVEL: 'silent' } }),
    ).rejects.toThrow(/INSPECTION_TIME_ZONE/);
  });
});
