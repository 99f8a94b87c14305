import { Client } from 'pg';
import { audienceSql } from '../src/notifications/notification-audience';
import { TestApi } from './support/test-api';

const DENIED = { detail: 'You do not have permission to perform this action.' };

interface Team {
  id: number;
  name: string;
  members: number[];
  created_at: string;
}

interface Action {
  id: number;
  assignee: number | null;
  assignee_username: string | null;
  assignee_team: number | null;
  assignee_team_name: string | null;
  status: string;
}

interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * Teams (`/api/teams/`) and actions assigned to a team: supervisors manage teams, inspectors read them; an action
 * is a user's, a team's or nobody's; the team's members see it in `?assigned_to=`, take it and close it; the
 * assignment's notification audience is every member.
 */
describe('teams (/api/teams/) and team actions', () => {
  let api: TestApi;
  let db: Client;
  let ivy: { id: number; token: string };
  let otto: { id: number; token: string };
  let max: { id: number; token: string };

  async function user(username: string) {
    const created = await api.post('/api/users/', { username, password: `${username} password` });
    expect(created.status).toBe(201);
    return {
      id: (created.body as { id: number }).id,
      token: (await api.tokens(username, `${username} password`)).access,
    };
  }

  async function openAction(fields: Record<string, unknown>): Promise<Action> {
    const created = await api.post('/api/actions/', { title: 'Replace the seal', ...fields });
    expect(created.status).toBe(201);
    return created.body as Action;
  }

  beforeAll(async () => {
    api = await TestApi.start('inspection_teams');
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    ivy = await user('ivy');
    otto = await user('otto');
    max = await user('max');
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it('supervisors create, change and delete teams in the DRF wire format; inspectors read them', async () => {
    const created = await api.post('/api/teams/', { name: 'Boiler room', members: [otto.id, ivy.id] });
    expect(created.status).toBe(201);
    const team = created.body as Team;
    expect(Object.keys(team)).toEqual(['id', 'name', 'members', 'created_at']);
    expect(team).toMatchObject({ name: 'Boiler room', members: [ivy.id, otto.id].sort((a, b) => a - b) });

    // Field errors: required, blank, unique, unknown member, duplicates, not a list.
    expect((await api.post('/api/teams/', {})).body).toEqual({ name: ['This field is required.'] });
    expect((await api.post('/api/teams/', { name: '' })).body).toEqual({
      name: ['This field may not be blank.'],
    });
    const duplicate = await api.post('/api/teams/', { name: 'Boiler room' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ name: ['team with this name already exists.'] });
    const unknown = await api.post('/api/teams/', { name: 'Night shift', members: [999999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ members: ['Invalid pk "999999" - object does not exist.'] });
    expect((await api.post('/api/teams/', { name: 'Night shift', members: [ivy.id, ivy.id] })).status).toBe(
      400,
    );
    expect((await api.post('/api/teams/', { name: 'Night shift', members: 'ivy' })).status).toBe(400);
    expect((await api.post('/api/teams/', [1])).status).toBe(400);

    // Inspectors read; only supervisors write.
    expect((await api.get('/api/teams/', { token: ivy.token })).status).toBe(200);
    expect((await api.get(`/api/teams/${team.id}/`, { token: ivy.token })).body).toEqual(team);
    const refused = await api.post('/api/teams/', { name: 'Mine' }, { token: ivy.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(DENIED);
    expect((await api.patch(`/api/teams/${team.id}/`, { members: [] }, { token: ivy.token })).status).toBe(
      403,
    );
    expect((await api.delete(`/api/teams/${team.id}/`, { token: ivy.token })).status).toBe(403);

    // PATCH the members (the whole set), PUT the name; a name kept is not a duplicate of itself.
    const patched = await api.patch(`/api/teams/${team.id}/`, { members: [ivy.id, max.id] });
    expect(patched.status).toBe(200);
    expect((patched.body as Team).members).toEqual([ivy.id, max.id].sort((a, b) => a - b));
    const put = await api.put(`/api/teams/${team.id}/`, { name: 'Boiler room' });
    expect(put.status).toBe(200);
    expect((await api.put(`/api/teams/${team.id}/`, {})).body).toEqual({ name: ['This field is required.'] });

    // Pagination, ?member=, OPTIONS, 404s, 405.
    const other = (await api.post('/api/teams/', { name: 'Yard', members: [otto.id] })).body as Team;
    const page = await api.get('/api/teams/?page_size=1');
    expect(page.body).toMatchObject({ count: 2, previous: null, results: [{ id: team.id }] });
    expect((page.body as Page<Team>).next).toContain('page=2');
    const mine = (await api.get('/api/teams/?member=me', { token: otto.token })).body as Page<Team>;
    expect(mine.results.map((found) => found.id)).toEqual([other.id]);
    expect(((await api.get(`/api/teams/?member=${ivy.id}`)).body as Page<Team>).count).toBe(1);
    expect((await api.get('/api/teams/?member=x')).status).toBe(400);
    const options = await api.call('OPTIONS', '/api/teams/');
    expect(options.body).toMatchObject({ name: 'Team List' });
    expect(Object.keys((options.body as { actions: { POST: object } }).actions.POST)).toEqual([
      'id',
      'name',
      'members',
      'created_at',
    ]);
    expect((await api.get('/api/teams/999999/')).status).toBe(404);
    expect((await api.get('/api/teams/abc/')).status).toBe(404);
    expect((await api.call('POST', `/api/teams/${team.id}/`)).status).toBe(405);

    // The audit trail: the team and each membership change, on the team.
    const audit = (await api.get(`/api/audit/?resource=team&resource_id=${team.id}&page_size=50`))
      .body as Page<{ event: string; actor_username: string }>;
    expect(audit.results.map((entry) => entry.event).sort()).toEqual(
      ['created', 'member_added', 'member_added', 'member_added', 'member_removed'].sort(),
    );
    expect(audit.results.every((entry) => entry.actor_username === 'admin')).toBe(true);

    expect((await api.delete(`/api/teams/${other.id}/`)).status).toBe(204);
    expect((await api.get(`/api/teams/${other.id}/`)).status).toBe(404);
  });

  it('assigns an action to a user or a team, never both; the one sent replaces the other', async () => {
    const team = (await api.post('/api/teams/', { name: 'Pumps', members: [ivy.id] })).body as Team;
    const both = await api.post('/api/actions/', { title: 'x', assignee: ivy.id, assignee_team: team.id });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ non_field_errors: ['Assign the action to a user or to a team, not both.'] });
    expect((await api.post('/api/actions/', { title: 'x', assignee_team: 999999 })).body).toEqual({
      assignee_team: ['Invalid pk "999999" - object does not exist.'],
    });

    const action = await openAction({ assignee_team: team.id });
    expect(action).toMatchObject({
      assignee: null,
      assignee_username: null,
      assignee_team: team.id,
      assignee_team_name: 'Pumps',
    });
    const path = `/api/actions/${action.id}/`;
    expect((await api.patch(path, { assignee: otto.id, assignee_team: team.id })).status).toBe(400);
    const toUser = await api.patch(path, { assignee: otto.id });
    expect(toUser.body).toMatchObject({ assignee: otto.id, assignee_team: null, assignee_team_name: null });
    const toTeam = await api.patch(path, { assignee_team: team.id });
    expect(toTeam.body).toMatchObject({ assignee: null, assignee_team: team.id });
    // Clearing the user of a team's action leaves the team.
    expect((await api.patch(path, { assignee: null })).body).toMatchObject({ assignee_team: team.id });
    const filtered = (await api.get(`/api/actions/?assignee_team=${team.id}`)).body as Page<Action>;
    expect(filtered.results.map((found) => found.id)).toContain(action.id);
    expect((await api.get('/api/actions/?assignee_team=x')).status).toBe(400);
  });

  it("a team's members see its actions as theirs, take one, and close it; others may not", async () => {
    const team = (await api.post('/api/teams/', { name: 'Chillers', members: [ivy.id, max.id] }))
      .body as Team;
    const action = await openAction({ title: 'Clean the coil', assignee_team: team.id });
    const own = await openAction({ title: 'Ivy alone', assignee: ivy.id });
    const path = `/api/actions/${action.id}/`;

    // "My actions": assigned to me or to a team of mine.
    const mine = (await api.get('/api/actions/?assigned_to=me&page_size=100', { token: max.token }))
      .body as Page<Action>;
    expect(mine.results.map((found) => found.id)).toContain(action.id);
    expect(mine.results.map((found) => found.id)).not.toContain(own.id);
    const ivys = (await api.get(`/api/actions/?assigned_to=${ivy.id}&page_size=100`)).body as Page<Action>;
    expect(ivys.results.map((found) => found.id)).toEqual(expect.arrayContaining([action.id, own.id]));
    const ottos = (await api.get('/api/actions/?assigned_to=me', { token: otto.token })).body as Page<Action>;
    expect(ottos.results.map((found) => found.id)).not.toContain(action.id);
    expect((await api.get('/api/actions/?assigned_to=someone')).body).toEqual({
      assigned_to: ['Select a valid choice. That choice is not one of the available choices.'],
    });

    // Not a member: no writes, no comments.
    expect((await api.patch(path, { status: 'in_progress' }, { token: otto.token })).body).toEqual(DENIED);
    expect((await api.post(`${path}comments/`, { text: 'me?' }, { token: otto.token })).status).toBe(403);
    expect((await api.patch(path, { assignee: otto.id }, { token: otto.token })).status).toBe(403);

    // A member comments, and may not give it to someone else nor edit it.
    expect((await api.post(`${path}comments/`, { text: 'On it' }, { token: max.token })).status).toBe(201);
    expect((await api.patch(path, { assignee: ivy.id }, { token: max.token })).status).toBe(403);
    expect((await api.patch(path, { title: 'Mine' }, { token: max.token })).status).toBe(403);

    // A member takes it (assigns it to themselves): the team is unassigned, the audit trail says who.
    const taken = await api.patch(path, { assignee: max.id, status: 'in_progress' }, { token: max.token });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({
      assignee: max.id,
      assignee_username: 'max',
      assignee_team: null,
      status: 'in_progress',
    });
    // Now it is max's alone: ivy (still in the team) no longer writes to it.
    expect((await api.patch(path, { status: 'done' }, { token: ivy.token })).status).toBe(403);
    const audit = (await api.get(`/api/audit/?resource=action&resource_id=${action.id}`)).body as Page<{
      actor_username: string;
      changed: string[];
    }>;
    expect(audit.results).toContainEqual(
      expect.objectContaining({
        actor_username: 'max',
        changed: expect.arrayContaining(['assignee', 'assignee_team']),
      }),
    );

    // A member closes another team action without taking it; only a supervisor verifies.
    const second = await openAction({ title: 'Check the valve', assignee_team: team.id });
    const closed = await api.patch(
      `/api/actions/${second.id}/`,
      { status: 'done', close_out_note: 'Replaced' },
      { token: ivy.token },
    );
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'done', assignee_team: team.id });
    expect(
      (await api.patch(`/api/actions/${second.id}/`, { status: 'verified' }, { token: ivy.token })).status,
    ).toBe(403);
    expect((await api.patch(`/api/actions/${second.id}/`, { status: 'verified' })).status).toBe(200);
  });

  it("tells every member of the team of its assignment (the notification audience); a deleted team's actions are unassigned", async () => {
    const team = (await api.post('/api/teams/', { name: 'Night shift', members: [ivy.id, otto.id] }))
      .body as Team;
    const action = await openAction({ title: 'Night round', assignee_team: team.id });
    const audience = await db.query<{ username: string }>(
      `SELECT u."username" FROM "events" e JOIN "users" u ON ${audienceSql("'{}'")}
       WHERE e."type" = 'action.assigned' AND (e."data"->>'id')::int = $1 ORDER BY u."username"`,
      [action.id],
    );
    // Every member and the supervisors; not max (not a member).
    expect(audience.rows.map((row) => row.username)).toEqual(['admin', 'ivy', 'otto']);
    const event = await db.query<{ data: Record<string, unknown> }>(
      `SELECT "data" FROM "events" WHERE "type" = 'action.assigned' AND ("data"->>'id')::int = $1`,
      [action.id],
    );
    expect(event.rows[0]?.data).toMatchObject({
      assignee: null,
      assignee_team: team.id,
      assignee_team_name: 'Night shift',
    });

    expect((await api.delete(`/api/teams/${team.id}/`)).status).toBe(204);
    expect((await api.get(`/api/actions/${action.id}/`)).body).toMatchObject({
      assignee: null,
      assignee_team: null,
    });
  });
});
