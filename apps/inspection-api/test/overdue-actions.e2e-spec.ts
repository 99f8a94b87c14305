import { TestApi } from './support/test-api';

interface ActionStatistics {
  date: string;
  time_zone: string;
  total: number;
  open: number;
  in_progress: number;
  done: number;
  verified: number;
  cancelled: number;
  overdue: number;
  assignees: Array<{
    assignee: number | null;
    assignee_username: string | null;
    open: number;
    in_progress: number;
    done: number;
    overdue: number;
  }>;
}

describe('overdue corrective actions: the list, /api/statistics/actions/ and /api/due/summary/', () => {
  let api: TestApi;
  let ivy: number;
  let otto: number;
  let pumpDevice: number;
  const ids: Record<string, number> = {};

  async function action(name: string, fields: Record<string, unknown>, status?: string) {
    const created = await api.post('/api/actions/', { title: name, ...fields });
    expect(created.status).toBe(201);
    ids[name] = (created.body as { id: number }).id;
    if (status) expect((await api.patch(`/api/actions/${ids[name]}/`, { status })).status).toBe(200);
  }

  const list = async (query: string) =>
    ((await api.get(`/api/actions/?${query}`)).body as { results: Array<{ id: number }> }).results.map(
      (row) => Object.entries(ids).find(([, id]) => id === row.id)?.[0],
    );

  beforeAll(async () => {
    api = await TestApi.start('inspection_overdue', { INSPECTION_TIME_ZONE: 'Pacific/Auckland' });
    for (const name of ['ivy', 'otto'])
      await api.post('/api/users/', { username: name, password: `${name} password` });
    const users = (await api.get('/api/users/')).body as { results: Array<{ id: number; username: string }> };
    ivy = users.results.find((user) => user.username === 'ivy')?.id ?? 0;
    otto = users.results.find((user) => user.username === 'otto')?.id ?? 0;
    const pump = await api.createDevice({ group: 'pumps' });
    pumpDevice = pump.id;
    const record = (
      (await api.post('/api/records/', { device: pump.id, status: 'ok' })).body as { id: number }
    ).id;
    await action('late', { assignee: ivy, due_date: '2020-01-01', record });
    await action('late-started', { assignee: ivy, due_date: '2020-02-01' }, 'in_progress');
    await action('later', { assignee: ivy, due_date: '2999-01-01' });
    await action('unassigned-late', { due_date: '2020-01-02' });
    await action('late-but-done', { assignee: otto, due_date: '2020-01-01' }, 'done');
    await action('late-but-cancelled', { assignee: otto, due_date: '2020-01-01' }, 'cancelled');
    await action('no-due-date', { assignee: otto });
  });
  afterAll(() => api?.close());

  it('?overdue=true lists the unfinished actions due before today; ?ordering=-overdue puts them first', async () => {
    expect(await list('overdue=true')).toEqual(['unassigned-late', 'late-started', 'late']);
    expect(await list('ordering=-overdue,due_date')).toEqual([
      'late',
      'unassigned-late',
      'late-started',
      'late-but-done',
      'late-but-cancelled',
      'later',
      'no-due-date',
    ]);
  });

  it("statistics: counts by status, the overdue ones, and each assignee's load", async () => {
    const response = await api.get('/api/statistics/actions/');
    expect(response.status).toBe(200);
    const statistics = response.body as ActionStatistics;
    expect(statistics).toEqual({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as unknown,
      time_zone: 'Pacific/Auckland',
      total: 7,
      open: 4,
      in_progress: 1,
      done: 1,
      verified: 0,
      cancelled: 1,
      overdue: 3,
      assignees: [
        { assignee: null, assignee_username: null, open: 1, in_progress: 0, done: 0, overdue: 1 },
        { assignee: ivy, assignee_username: 'ivy', open: 2, in_progress: 1, done: 0, overdue: 2 },
        { assignee: otto, assignee_username: 'otto', open: 1, in_progress: 0, done: 1, overdue: 0 },
      ],
    });
    // Only the action made from the pump's record is about a device.
    expect((await api.get('/api/statistics/actions/?group=pumps')).body).toMatchObject({
      total: 1,
      overdue: 1,
      assignees: [{ assignee: ivy, open: 1, overdue: 1 }],
    });
    expect((await api.get('/api/statistics/actions/?group=none')).body).toMatchObject({
      total: 0,
      overdue: 0,
      assignees: [],
    });
  });

  it("/api/due/summary/ counts the unfinished and overdue actions, in total and in each assignee's load", async () => {
    const response = await api.get('/api/due/summary/');
    expect(response.status).toBe(200);
    expect(response.text).toMatch(
      /^\{"date":"\d{4}-\d{2}-\d{2}","time_zone":"Pacific\/Auckland","due":\d+,"overdue":\d+,"done":\d+,"open_actions":5,"overdue_actions":3,"plans":/,
    );
    // ivy has no plan: her load is her actions; otto's done and cancelled ones are not his load.
    const load = { due: 0, overdue: 0, done: 0, total: 0 };
    expect((response.body as { assignees: unknown[] }).assignees).toEqual([
      { assignee: ivy, assignee_username: 'ivy', ...load, open_actions: 3, overdue_actions: 2 },
      { assignee: otto, assignee_username: 'otto', ...load, open_actions: 1, overdue_actions: 0 },
    ]);
    // The filters reach the actions through their device and assignee; on an earlier date fewer are overdue.
    expect((await api.get('/api/due/summary/?group=pumps')).body).toMatchObject({
      open_actions: 1,
      overdue_actions: 1,
      assignees: [{ assignee: ivy, open_actions: 1, overdue_actions: 1 }],
    });
    expect((await api.get(`/api/due/summary/?device=${pumpDevice}`)).body).toMatchObject({
      open_actions: 1,
      overdue_actions: 1,
    });
    expect((await api.get(`/api/due/summary/?assignee=${otto}`)).body).toMatchObject({
      open_actions: 1,
      overdue_actions: 0,
      assignees: [{ assignee: otto, open_actions: 1 }],
    });
    expect((await api.get('/api/due/summary/?date=2020-01-15')).body).toMatchObject({
      open_actions: 5,
      overdue_actions: 2,
    });
  });

  it("an action assigned to a team is each current member's load, and counts once in the totals", async () => {
    const max = (
      (await api.post('/api/users/', { username: 'max', password: 'max password' })).body as { id: number }
    ).id;
    const team = (
      (await api.post('/api/teams/', { name: 'Pump crew', members: [ivy, otto] })).body as { id: number }
    ).id;
    await action('team-late', { assignee_team: team, due_date: '2020-01-03' });
    await action('team-later', { assignee_team: team, due_date: '2999-01-01' }, 'in_progress');
    await action('team-done', { assignee_team: team }, 'done');
    const load = { due: 0, overdue: 0, done: 0, total: 0 };
    const summary = async (query = '') =>
      (await api.get(`/api/due/summary/${query}`)).body as { open_actions: number; assignees: unknown[] };
    expect(await summary()).toMatchObject({
      open_actions: 7,
      overdue_actions: 4,
      assignees: [
        { assignee: ivy, assignee_username: 'ivy', ...load, open_actions: 5, overdue_actions: 3 },
        { assignee: otto, assignee_username: 'otto', ...load, open_actions: 3, overdue_actions: 1 },
      ],
    });
    // A person's summary counts the actions of their teams; the team's other members appear beside them.
    expect(await summary(`?assignee=${otto}`)).toMatchObject({
      open_actions: 3,
      overdue_actions: 1,
      assignees: [
        { assignee: ivy, open_actions: 2, overdue_actions: 1 },
        { assignee: otto, open_actions: 3, overdue_actions: 1 },
      ],
    });
    // As the team is now: max joining takes its actions into his load, otto leaving takes them out of his.
    expect((await api.patch(`/api/teams/${team}/`, { members: [ivy, max] })).status).toBe(200);
    expect((await summary()).assignees).toEqual([
      { assignee: ivy, assignee_username: 'ivy', ...load, open_actions: 5, overdue_actions: 3 },
      { assignee: otto, assignee_username: 'otto', ...load, open_actions: 1, overdue_actions: 0 },
      { assignee: max, assignee_username: 'max', ...load, open_actions: 2, overdue_actions: 1 },
    ]);
    // The same rule gives a person's actions (the bot's "my actions").
    expect(await list(`assigned_to=${max}&ordering=id`)).toEqual(['team-late', 'team-later', 'team-done']);
    expect(await list(`assigned_to=${otto}&ordering=id`)).toEqual([
      'late-but-done',
      'late-but-cancelled',
      'no-due-date',
    ]);
  });

  it('answers GET only, and 400 for a bad filter', async () => {
    const post = await api.post('/api/statistics/actions/', {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await api.get('/api/statistics/actions/?device=x')).toMatchObject({
      status: 400,
      body: { device: ['Select a valid choice. That choice is not one of the available choices.'] },
    });
  });
});
