import { Client } from 'pg';
import { TestApi } from './support/test-api';

interface OutboxRow {
  type: string;
  data: Record<string, unknown>;
}

/** The events outbox is written in the transaction of each change, one row per event (src/events/). */
describe('domain events in the outbox', () => {
  let api: TestApi;
  let db: Client;
  let seen = 0;

  /** The events written since the last call, oldest first. */
  async function newEvents(): Promise<OutboxRow[]> {
    const { rows } = await db.query<OutboxRow & { id: string }>(
      'SELECT "id", "type", "data" FROM "events" WHERE "id" > $1 ORDER BY "id"',
      [seen],
    );
    if (rows.length) seen = Number(rows[rows.length - 1]?.id);
    return rows.map(({ type, data }) => ({ type, data }));
  }

  beforeAll(async () => {
    api = await TestApi.start('inspection_events_outbox');
    db = new Client({ connectionString: api.database.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it('with the runner off, events wait in the outbox and /readyz has no events check', async () => {
    const device = await api.createDevice();
    expect((await api.post('/api/records/', { status: 'fail', device: device.id })).status).toBe(201);
    const { rows } = await db.query<{ waiting: number }>(
      'SELECT count(*)::int AS "waiting" FROM "events" WHERE "dispatched_at" IS NULL',
    );
    expect(rows[0]?.waiting).toBeGreaterThan(0);
    const report = (await (await fetch(`${api.url}/readyz`)).json()) as { checks: Record<string, unknown> };
    expect(report.checks).toHaveProperty('database');
    expect(report.checks).not.toHaveProperty('events');
  });

  it('a failed or warned record is an event; a passed one is not; a change to fail is one', async () => {
    const device = await api.createDevice();
    await newEvents();
    const failed = await api.post('/api/records/', { status: 'fail', device: device.id, value: '9 bar' });
    expect(failed.status).toBe(201);
    const failedId = (failed.body as { id: number }).id;
    const events = await newEvents();
    expect(events.map((event) => event.type)).toEqual(['record.failed']);
    expect(events[0]?.data).toMatchObject({
      id: failedId,
      status: 'fail',
      value: '9 bar',
      device: device.id,
    });

    const warned = await api.post('/api/records/', { status: 'warn', device: device.id });
    expect((await newEvents()).map((event) => event.type)).toEqual(['record.warned']);
    const passed = await api.post('/api/records/', { status: 'ok', device: device.id });
    expect(await newEvents()).toEqual([]);

    expect(
      (await api.patch(`/api/records/${(passed.body as { id: number }).id}/`, { status: 'fail' })).status,
    ).toBe(200);
    expect((await newEvents()).map((event) => event.type)).toEqual(['record.failed']);
    expect(
      (await api.patch(`/api/records/${(warned.body as { id: number }).id}/`, { note: 'seen' })).status,
    ).toBe(200);
    expect(await newEvents()).toEqual([]);
  });

  it('a refused write leaves no event', async () => {
    const refused = await api.post('/api/records/', { status: 'fail', device: 999_999 });
    expect(refused.status).toBe(400);
    expect(await newEvents()).toEqual([]);
  });

  it('archiving a device is an event', async () => {
    const device = await api.createDevice({ name: 'Old pump' });
    await newEvents();
    expect((await api.delete(`/api/devices/${device.id}/`)).status).toBe(204);
    const events = await newEvents();
    expect(events.map((event) => event.type)).toEqual(['device.archived']);
    expect(events[0]?.data).toMatchObject({ id: device.id, code: device.code, name: 'Old pump' });
    expect((await api.delete(`/api/devices/${device.id}/`)).status).toBe(404);
    expect(await newEvents()).toEqual([]);
  });

  it('an action assigned, done and verified: one event each', async () => {
    const inspector = await api.post('/api/users/', { username: 'ivy', password: 'ivy password' });
    const ivy = (inspector.body as { id: number }).id;
    await newEvents();
    const created = await api.post('/api/actions/', { title: 'Fix the seal', assignee: ivy });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    let events = await newEvents();
    expect(events.map((event) => event.type)).toEqual(['action.assigned']);
    expect(events[0]?.data).toMatchObject({ id, assignee: ivy, assignee_username: 'ivy', status: 'open' });

    expect((await api.patch(`/api/actions/${id}/`, { status: 'done' })).status).toBe(200);
    events = await newEvents();
    expect(events.map((event) => event.type)).toEqual(['action.done']);
    expect((await api.patch(`/api/actions/${id}/`, { status: 'verified' })).status).toBe(200);
    expect((await newEvents()).map((event) => event.type)).toEqual(['action.verified']);

    const unassigned = await api.post('/api/actions/', { title: 'Look at it' });
    expect(await newEvents()).toEqual([]);
    const other = (unassigned.body as { id: number }).id;
    expect((await api.patch(`/api/actions/${other}/`, { assignee: ivy, status: 'done' })).status).toBe(200);
    expect((await newEvents()).map((event) => event.type)).toEqual(['action.assigned', 'action.done']);
  });
});
