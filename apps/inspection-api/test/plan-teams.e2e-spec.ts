import { Client } from 'pg';
import { audienceSql } from '../src/notifications/notification-audience';
import { TestApi } from './support/test-api';
import { eventually } from './support/webhook-receiver';

interface Plan {
  id: number;
  assignees: number[];
  assignee_teams: number[];
}

interface DueCheck {
  plan: {
    id: number;
    assignees: number[];
    assignee_teams: Array<{ id: number; name: string; members: number[] }>;
  };
}

interface Summary {
  assignees: Array<{ assignee: number; assignee_username: string; due: number; total: number }>;
}

/**
 * Plans assigned to teams (`assignee_teams`): every member of a plan's team counts as an assignee of its checks
 * wherever the due rules ask whose a check is (`plan-assignment.ts`): the due list by assignee, each person's load
 * in the summary, the audience of due reminders. Deleting a team takes it off its plans, in the audit trail.
 */
describe('plans assigned to teams (PostgreSQL)', () => {
  let api: TestApi;
  let db: Client;
  let ivy: number;
  let otto: number;
  let max: number;
  let team: number;
  let plan: Plan;

  const user = async (username: string) =>
    ((await api.post('/api/users/', { username, password: `${username} password` })).body as { id: number })
      .id;

  beforeAll(async () => {
    api = await TestApi.start('inspection_plan_teams', {
      INSPECTION_EVENTS_RUNNER: 'true',
      INSPECTION_EVENTS_POLL_MS: '100',
      INSPECTION_SCHEDULED_EVENTS_INTERVAL_MS: '200',
    });
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    ivy = await user('ivy');
    otto = await user('otto');
    max = await user('max');
    team = (
      (await api.post('/api/teams/', { name: 'Night crew', members: [ivy, otto] })).body as { id: number }
    ).id;
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it('a plan takes teams beside its users; the users field keeps its wire format; bad ids are 400s', async () => {
    const device = (await api.createDevice()).id;
    await api.post('/api/items/', { name: 'Pressure', device });
    await api.post('/api/items/', { name: 'Leaks', device });
    // A client that sends only `assignees` gets them as before, and an empty team list after them.
    const created = await api.post('/api/plans/', {
      name: 'Night rounds',
      devices: [device],
      frequency: 'daily',
      assignees: [ivy],
    });
    expect(created.status).toBe(201);
    expect(created.text).toMatch(
      new RegExp(`"due_time":null\\},"assignees":\\[${ivy}\\],"assignee_teams":\\[\\]\\}$`),
    );
    plan = created.body as Plan;

    const patched = await api.patch(`/api/plans/${plan.id}/`, { assignee_teams: [team] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ assignees: [ivy], assignee_teams: [team] });
    // A spec client's PUT (no assignees, no teams) leaves both alone.
    const put = await api.put(`/api/plans/${plan.id}/`, {
      name: 'Night rounds',
      devices: [device],
      frequency: 'daily',
    });
    expect(put.body).toMatchObject({ assignees: [ivy], assignee_teams: [team] });

    expect((await api.patch(`/api/plans/${plan.id}/`, { assignee_teams: [99999] })).body).toEqual({
      assignee_teams: ['Invalid pk "99999" - object does not exist.'],
    });
    expect((await api.patch(`/api/plans/${plan.id}/`, { assignee_teams: [team, team] })).body).toEqual({
      assignee_teams: ['Items in this list must be unique.'],
    });
    const notAList = await api.patch(`/api/plans/${plan.id}/`, { assignee_teams: 'Night crew' });
    expect(notAList.status).toBe(400);
    expect(notAList.body).toEqual({ assignee_teams: ['Expected a list of items but got type "str".'] });
    const notAnId = await api.post('/api/plans/', {
      name: 'Bad',
      devices: [device],
      frequency: 'daily',
      assignee_teams: ['x'],
    });
    expect(notAnId.status).toBe(400);
    expect(Object.keys(notAnId.body as object)).toEqual(['assignee_teams']);

    const options = (await api.call('OPTIONS', '/api/plans/')).body as {
      actions: { POST: Record<string, { type: string; required: boolean }> };
    };
    expect(options.actions.POST.assignee_teams).toMatchObject({ type: 'field', required: false });

    const trail = (await api.get(`/api/audit/?resource=plan&resource_id=${plan.id}`)).body as {
      results: Array<{ event: string; actor_username: string; before: unknown; after: unknown }>;
    };
    expect(trail.results.map((entry) => [entry.event, entry.actor_username, entry.after])).toContainEqual([
      'team_added',
      'admin',
      { assignee_team: team },
    ]);
  });

  it("a member's due list has the team's plan, a non-member's does not; the load counts it for each member once", async () => {
    const due = async (person: number) =>
      (await api.get(`/api/due/?assignee=${person}`)).body as { count: number; results: DueCheck[] };
    const ottos = await due(otto);
    expect(ottos.count).toBe(2);
    expect(ottos.results[0]?.plan).toEqual(
      expect.objectContaining({
        id: plan.id,
        assignees: [ivy],
        assignee_teams: [{ id: team, name: 'Night crew', members: [ivy, otto].sort((a, b) => a - b) }],
      }),
    );
    expect((await due(ivy)).count).toBe(2);
    expect((await due(max)).count).toBe(0);

    const summary = (await api.get('/api/due/summary/')).body as Summary;
    // ivy is assigned directly and through the team: her checks count once.
    expect(summary.assignees).toEqual([
      expect.objectContaining({ assignee: ivy, assignee_username: 'ivy', due: 2, total: 2 }),
      expect.objectContaining({ assignee: otto, assignee_username: 'otto', due: 2, total: 2 }),
    ]);
    expect(((await api.get(`/api/due/summary/?assignee=${max}`)).body as Summary).assignees).toEqual([]);
  });

  it("the due reminders' audience is every member of the plan's team (and the supervisors), not the others", async () => {
    const event = await eventually(async () => {
      const { rows } = await db.query<{ id: number }>(
        `SELECT "id" FROM "events" WHERE "type" IN ('check.due', 'check.overdue') AND ("data"->'plan'->>'id')::int = $1 ORDER BY "id" LIMIT 1`,
        [plan.id],
      );
      return rows[0];
    });
    const audience = await db.query<{ username: string }>(
      `SELECT u."username" FROM "events" e JOIN "users" u ON ${audienceSql("'{}'")} WHERE e."id" = $1 ORDER BY u."username"`,
      [event.id],
    );
    expect(audience.rows.map((row) => row.username)).toEqual(['admin', 'ivy', 'otto']);
    // A person who joins the team is in the audience from then on.
    await api.patch(`/api/teams/${team}/`, { members: [ivy, otto, max] });
    const joined = await db.query<{ username: string }>(
      `SELECT u."username" FROM "events" e JOIN "users" u ON ${audienceSql("'{}'")} WHERE e."id" = $1 ORDER BY u."username"`,
      [event.id],
    );
    expect(joined.rows.map((row) => row.username)).toEqual(['admin', 'ivy', 'max', 'otto']);
  });

  it('deleting a team takes it off its plans, in the audit trail by whoever deleted it', async () => {
    expect((await api.delete(`/api/teams/${team}/`)).status).toBe(204);
    expect((await api.get(`/api/plans/${plan.id}/`)).body).toMatchObject({
      assignees: [ivy],
      assignee_teams: [],
    });
    const trail = (await api.get(`/api/audit/?resource=plan&resource_id=${plan.id}`)).body as {
      results: Array<{ event: string; actor_username: string; before: unknown; after: unknown }>;
    };
    expect(trail.results.map((entry) => [entry.event, entry.actor_username, entry.before])).toContainEqual([
      'team_removed',
      'admin',
      { assignee_team: team },
    ]);
    expect(((await api.get(`/api/due/?assignee=${otto}`)).body as { count: number }).count).toBe(0);
  });
});
