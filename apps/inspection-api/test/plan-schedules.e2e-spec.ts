import { Client } from 'pg';
import { TestApi } from './support/test-api';

interface Plan {
  id: number;
  frequency: string;
  schedule: { every: number; unit: string; starts_on: string | null; due_time: string | null };
}

describe('plan schedules (PostgreSQL)', () => {
  let api: TestApi;
  let db: Client;
  let device: number;
  beforeAll(async () => {
    api = await TestApi.start('inspection_schedules', { INSPECTION_TIME_ZONE: 'Europe/Berlin' });
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    device = (await api.createDevice({ code: 'EXT-1', name: 'Extinguisher' })).id;
    await db.query(`UPDATE "devices" SET "created_at" = '2020-01-01T00:00:00Z'`);
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it('a spec client sends only frequency and reads the schedule it means', async () => {
    const created = await api.post('/api/plans/', { name: 'Daily', devices: [device], frequency: 'daily' });
    expect(created.status).toBe(201);
    expect(created.text).toContain(
      '"open_action_on":"fail","schedule":{"every":1,"unit":"day","starts_on":null,"due_time":null},',
    );
    const id = (created.body as Plan).id;
    const weekly = (await api.patch(`/api/plans/${id}/`, { frequency: 'weekly' })).body as Plan;
    expect(weekly).toMatchObject({ frequency: 'weekly', schedule: { every: 1, unit: 'week' } });
    const monthly = (
      await api.put(`/api/plans/${id}/`, { name: 'M', devices: [device], frequency: 'monthly' })
    ).body as Plan;
    expect(monthly.schedule).toEqual({ every: 1, unit: 'month', starts_on: null, due_time: null });
    await api.delete(`/api/plans/${id}/`);
  });

  it('a schedule alone sets the frequency word; writing back what was read keeps it', async () => {
    const created = await api.post('/api/plans/', {
      name: 'Quarterly',
      devices: [device],
      schedule: { every: 3, unit: 'month', due_time: '16:00' },
    });
    expect(created.status).toBe(201);
    const plan = created.body as Plan;
    expect(plan).toMatchObject({
      frequency: 'monthly',
      schedule: { every: 3, unit: 'month', starts_on: null, due_time: '16:00:00' },
    });
    // A spec client PUTs back the frequency it read: the schedule stays.
    const put = await api.put(`/api/plans/${plan.id}/`, {
      name: 'Q',
      devices: [device],
      frequency: 'monthly',
    });
    expect((put.body as Plan).schedule).toMatchObject({ every: 3, unit: 'month', due_time: '16:00:00' });
    const yearly = await api.patch(`/api/plans/${plan.id}/`, {
      frequency: 'monthly',
      schedule: { every: 1, unit: 'year', starts_on: '2024-02-29' },
    });
    expect((yearly.body as Plan).schedule).toEqual({
      every: 1,
      unit: 'year',
      starts_on: '2024-02-29',
      due_time: null,
    });
    // The audit trail records the change (triggers on check_plans).
    const audit = (await api.get(`/api/audit/?resource=plan&resource_id=${plan.id}`)).body as {
      results: Array<{ event: string; changes: unknown }>;
    };
    expect(JSON.stringify(audit.results[0])).toContain('"schedule_unit"');
    await api.delete(`/api/plans/${plan.id}/`);
  });

  it.each([
    [
      { schedule: { every: 0, unit: 'week' } },
      { schedule: { every: ['Ensure this value is greater than or equal to 1.'] } },
    ],
    [
      { schedule: { every: 367, unit: 'day' } },
      { schedule: { every: ['Ensure this value is less than or equal to 366.'] } },
    ],
    [
      { schedule: { every: 1.5, unit: 'fortnight' } },
      { schedule: { every: ['A valid integer is required.'], unit: ['"fortnight" is not a valid choice.'] } },
    ],
    [
      { schedule: {} },
      { schedule: { every: ['This field is required.'], unit: ['This field is required.'] } },
    ],
    [
      { schedule: 'quarterly' },
      { schedule: { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] } },
    ],
    [{ schedule: null }, { schedule: ['This field may not be null.'] }],
    [
      { schedule: { every: 1, unit: 'day', starts_on: '2026-02-30', due_time: '25:00' } },
      {
        schedule: {
          starts_on: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
          due_time: ['Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].'],
        },
      },
    ],
    [
      { frequency: 'daily', schedule: { every: 3, unit: 'month' } },
      {
        frequency: [
          '"daily" does not match the schedule (every 3 month): send "monthly", or leave frequency out.',
        ],
      },
    ],
    [{}, { frequency: ['This field is required.'] }],
  ])('400 in DRF format for %j', async (extra, errors) => {
    const response = await api.post('/api/plans/', { name: 'Bad', devices: [device], ...extra });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errors);
  });

  it('an empty body still lists the spec fields first', async () => {
    expect((await api.post('/api/plans/', {})).body).toEqual({
      devices: ['This field is required.'],
      name: ['This field is required.'],
      frequency: ['This field is required.'],
    });
  });

  it('form bodies send the schedule as schedule.every / schedule.unit', async () => {
    const form = new URLSearchParams({ name: 'Form', devices: String(device), 'schedule.every': '2' });
    form.append('schedule.unit', 'week');
    const response = await api.call('POST', '/api/plans/', {
      raw: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ frequency: 'weekly', schedule: { every: 2, unit: 'week' } });
    await api.delete(`/api/plans/${(response.body as Plan).id}/`);
  });

  it('due checks follow the schedule: quarters, a first day, and a due time', async () => {
    const quarterly = (
      await api.post('/api/plans/', { name: 'Q', devices: [device], schedule: { every: 3, unit: 'month' } })
    ).body as Plan;
    const due = async (date: string, plan: number) => {
      const body = (await api.get(`/api/due/?date=${date}&plan=${plan}`)).body as {
        count: number;
        results: Array<{ status: string; period_start: string; period_end: string; due_at: string | null }>;
      };
      return body;
    };
    let page = await due('2026-11-15', quarterly.id);
    expect(page.results[0]).toMatchObject({
      period_start: '2026-10-01',
      period_end: '2026-12-31',
      status: 'overdue',
    });
    const record = (await api.post('/api/records/', { status: 'ok', device })).body as { id: number };
    await db.query(`UPDATE "check_records" SET "checked_at" = '2026-09-30T22:30:00Z' WHERE "id" = $1`, [
      record.id,
    ]);
    // 00:30 on 1 October in Berlin: this quarter's.
    expect((await due('2026-12-31', quarterly.id)).results[0]?.status).toBe('done');
    expect((await due('2027-01-01', quarterly.id)).results[0]?.status).toBe('due');
    expect((await due('2027-04-01', quarterly.id)).results[0]?.status).toBe('overdue');

    // A first day: nothing before it, and the first period cannot be overdue.
    const later = (
      await api.post('/api/plans/', {
        name: 'Later',
        devices: [device],
        schedule: { every: 2, unit: 'week', starts_on: '2026-03-04', due_time: '09:00' },
      })
    ).body as Plan;
    expect((await due('2026-03-03', later.id)).count).toBe(0);
    page = await due('2026-03-10', later.id); // a past date: due times compare with its end
    expect(page.results[0]).toMatchObject({
      period_start: '2026-03-04',
      period_end: '2026-03-17',
      due_at: '2026-03-17T08:00:00Z', // 09:00 CET
      status: 'due',
    });
    // The last day's due time has passed by the end of that date: overdue.
    expect((await due('2026-03-17', later.id)).results[0]?.status).toBe('overdue');
    expect((await due('2026-03-18', later.id)).results[0]).toMatchObject({
      period_start: '2026-03-18',
      status: 'overdue', // the whole first period was missed
    });
    const summary = (await api.get(`/api/due/summary/?date=2026-03-10&plan=${later.id}`)).body as {
      plans: Array<{ frequency: string; due: number }>;
    };
    expect(summary.plans).toEqual([expect.objectContaining({ frequency: 'weekly', due: 1 })]);
  });
});
