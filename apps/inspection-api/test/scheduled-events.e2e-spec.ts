import { Client } from 'pg';
import { TestApi } from './support/test-api';
import { eventually } from './support/webhook-receiver';

interface EventRow {
  type: string;
  data: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const SCHEDULE = {
  INSPECTION_EVENTS_RUNNER: 'true',
  INSPECTION_EVENTS_POLL_MS: '100',
  INSPECTION_SCHEDULED_EVENTS_INTERVAL_MS: '200',
};

/** check.due, check.overdue and action.overdue come from the runner's schedule, once per occurrence. */
describe('scheduled events (due and overdue)', () => {
  let api: TestApi;
  let db: Client;
  const ids: Record<string, number> = {};

  const scheduled = async (): Promise<EventRow[]> =>
    (
      await db.query<EventRow>(
        `SELECT "type", "data" FROM "events" WHERE "type" IN ('check.due', 'check.overdue', 'action.overdue') ORDER BY "id"`,
      )
    ).rows;

  /** Waits until the schedule has run `runs` more times (by any replica). */
  async function runsPass(runs = 3): Promise<void> {
    for (let run = 0; run < runs; run += 1) {
      const { rows } = await db.query<{ ran_at: Date }>(`SELECT "ran_at" FROM "scheduled_runs"`);
      const before = rows[0]?.ran_at.getTime() ?? 0;
      await eventually(async () => {
        const now = await db.query<{ ran_at: Date }>(`SELECT "ran_at" FROM "scheduled_runs"`);
        return (now.rows[0]?.ran_at.getTime() ?? 0) > before ? true : undefined;
      }, 50);
    }
  }

  beforeAll(async () => {
    api = await TestApi.start('inspection_scheduled_events', SCHEDULE);
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    const old = await api.createDevice({ name: 'Old pump' });
    const fresh = await api.createDevice({ name: 'New valve' });
    ids.old = old.id;
    ids.fresh = fresh.id;
    ids.pressure = (
      (await api.post('/api/items/', { name: 'Pressure', device: old.id })).body as { id: number }
    ).id;
    ids.leaks = (
      (await api.post('/api/items/', { name: 'Leaks', device: old.id })).body as { id: number }
    ).id;
    // The old pump existed long before today and was never checked: its checks are overdue; the new valve's due.
    await db.query(`UPDATE "devices" SET "created_at" = '2020-01-01T00:00:00Z' WHERE "id" = $1`, [old.id]);
    const users = await api.post('/api/users/', { username: 'ivy', password: 'ivy password' });
    const ivy = (users.body as { id: number }).id;
    const action = await api.post('/api/actions/', {
      title: 'Fix the seal',
      assignee: ivy,
      due_date: '2020-01-01',
    });
    ids.action = (action.body as { id: number }).id;
    await api.post('/api/actions/', { title: 'Not yet', assignee: ivy, due_date: '2999-01-01' });
    const plan = await api.post('/api/plans/', {
      name: 'Rounds',
      frequency: 'daily',
      devices: [old.id, fresh.id],
    });
    expect(plan.status).toBe(201);
    ids.plan = (plan.body as { id: number }).id;
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it('emits each due check, overdue check and overdue action once, with the check as /api/due/ shows it', async () => {
    await eventually(async () => ((await scheduled()).length >= 4 ? true : undefined));
    await runsPass();
    const events = await scheduled();
    const summary = events.map((event) =>
      event.type === 'action.overdue'
        ? `${event.type} ${event.data.id}`
        : `${event.type} ${event.data.device.id}/${event.data.item?.id ?? '-'}`,
    );
    expect(summary.sort()).toEqual(
      [
        `check.overdue ${ids.old}/${ids.pressure}`,
        `check.overdue ${ids.old}/${ids.leaks}`,
        `check.due ${ids.fresh}/-`,
        `action.overdue ${ids.action}`,
      ].sort(),
    );
    const due = (await api.get(`/api/due/?plan=${ids.plan}&status=due`)).body as { results: unknown[] };
    expect(events.find((event) => event.type === 'check.due')?.data).toEqual(due.results[0]);
    expect(events.find((event) => event.type === 'action.overdue')?.data).toMatchObject({
      id: ids.action,
      title: 'Fix the seal',
      assignee_username: 'ivy',
      due_date: '2020-01-01',
    });
    // Handed on like every event: the outbox poll marks them dispatched.
    await eventually(async () => {
      const { rows } = await db.query<{ waiting: number }>(
        `SELECT count(*)::int AS "waiting" FROM "events" WHERE "dispatched_at" IS NULL`,
      );
      return rows[0]?.waiting === 0 ? true : undefined;
    });
  });

  it('emits nothing twice with two replicas running, nor after a restart', async () => {
    const second = await api.restartLike();
    try {
      await runsPass(5);
    } finally {
      await second.close();
    }
    const third = await api.restartLike();
    try {
      await runsPass(3);
    } finally {
      await third.close();
    }
    expect(await scheduled()).toHaveLength(4);
  });

  it('a check done in its period raises nothing more; a new check due does, once', async () => {
    await api.post('/api/records/', { status: 'ok', device: ids.fresh });
    const item = await api.post('/api/items/', { name: 'Seal', device: ids.fresh });
    const seal = (item.body as { id: number }).id;
    await eventually(async () => ((await scheduled()).length >= 5 ? true : undefined));
    await runsPass();
    const events = await scheduled();
    expect(events).toHaveLength(5);
    expect(events[4]).toMatchObject({ type: 'check.due', data: { item: { id: seal }, status: 'due' } });
  });

  it("forgets a check's notice once its period is over", async () => {
    await db.query(
      `INSERT INTO "event_notices" ("type", "subject", "occurrence", "expires_on") VALUES ('check.due', 'check:0:0:0', '2020-01-01', '2020-01-01')`,
    );
    await runsPass(2);
    const { rows } = await db.query(`SELECT 1 FROM "event_notices" WHERE "subject" = 'check:0:0:0'`);
    expect(rows).toHaveLength(0);
    const kept = await db.query(`SELECT 1 FROM "event_notices" WHERE "type" = 'action.overdue'`);
    expect(kept.rows).toHaveLength(1);
  });
});
