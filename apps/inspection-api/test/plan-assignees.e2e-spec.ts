import { TestApi } from './support/test-api';

interface Summary {
  assignees: Array<{ assignee: number; assignee_username: string; due: number; total: number }>;
}

describe("plan assignees and each inspector's load (PostgreSQL)", () => {
  let api: TestApi;
  let ivy: number;
  let max: number;
  let device: number;
  beforeAll(async () => {
    api = await TestApi.start('inspection_assignees');
    const user = async (username: string) =>
      ((await api.post('/api/users/', { username, password: `${username} password` })).body as { id: number })
        .id;
    ivy = await user('ivy');
    max = await user('max');
    device = (await api.createDevice()).id;
    await api.post('/api/items/', { name: 'Pressure', device });
    await api.post('/api/items/', { name: 'Leaks', device });
  });
  afterAll(() => api?.close());

  it('a plan has no assignees by default; the set is replaced, validated and audited', async () => {
    const created = await api.post('/api/plans/', { name: 'Daily', devices: [device], frequency: 'daily' });
    expect(created.text).toMatch(/"due_time":null\},"assignees":\[\],"assignee_teams":\[\]\}$/);
    const id = (created.body as { id: number }).id;
    expect((await api.patch(`/api/plans/${id}/`, { assignees: [max, ivy] })).body).toMatchObject({
      assignees: [ivy, max].sort((a, b) => a - b),
    });
    expect((await api.patch(`/api/plans/${id}/`, { assignees: [ivy] })).body).toMatchObject({
      assignees: [ivy],
    });
    // A spec client's PUT leaves them alone.
    expect(
      (await api.put(`/api/plans/${id}/`, { name: 'Daily', devices: [device], frequency: 'daily' })).body,
    ).toMatchObject({ assignees: [ivy] });
    expect((await api.patch(`/api/plans/${id}/`, { assignees: [99999] })).body).toEqual({
      assignees: ['Invalid pk "99999" - object does not exist.'],
    });
    expect((await api.patch(`/api/plans/${id}/`, { assignees: [ivy, ivy] })).body).toEqual({
      assignees: ['Items in this list must be unique.'],
    });
    expect((await api.patch(`/api/plans/${id}/`, { assignees: 'ivy' })).body).toEqual({
      assignees: ['Expected a list of items but got type "str".'],
    });
    const trail = (await api.get(`/api/audit/?resource=plan&resource_id=${id}`)).body as {
      results: Array<{ event: string; before: unknown; after: unknown }>;
    };
    const events = trail.results.map((entry) => [entry.event, entry.before, entry.after]);
    expect(events).toContainEqual(['assignee_removed', { assignee: max }, null]);
    expect(events).toContainEqual(['assignee_added', null, { assignee: ivy }]);
  });

  it("due checks carry the assignees, filter by one, and the summary gives each assignee's load", async () => {
    const other = (
      await api.post('/api/plans/', {
        name: 'Weekly',
        devices: [device],
        frequency: 'weekly',
        assignees: [max],
      })
    ).body as { id: number };
    const mine = (await api.get(`/api/due/?assignee=${max}`)).body as {
      count: number;
      results: Array<{ plan: { id: number; assignees: number[] } }>;
    };
    expect(mine.count).toBe(2);
    expect(mine.results[0]?.plan).toMatchObject({ id: other.id, assignees: [max] });
    expect((await api.get(`/api/due/?assignee=x`)).body).toEqual({
      assignee: ['Select a valid choice. That choice is not one of the available choices.'],
    });
    const summary = (await api.get('/api/due/summary/')).body as Summary;
    expect(summary.assignees).toEqual([
      expect.objectContaining({ assignee: ivy, assignee_username: 'ivy', due: 2, total: 2 }),
      expect.objectContaining({ assignee: max, assignee_username: 'max', due: 2, total: 2 }),
    ]);
    // A deleted user leaves the plans.
    expect((await api.delete(`/api/users/${max}/`)).status).toBe(204);
    expect((await api.get(`/api/plans/${other.id}/`)).body).toMatchObject({ assignees: [] });
  });
});
