import { TestApi } from './support/test-api';

describe('service accounts (INSPECTION_SERVICE_ACCOUNTS): a kind of their own', () => {
  let api: TestApi;
  let robot: number;
  beforeAll(async () => {
    api = await TestApi.start('inspection_service_accounts', {
      INSPECTION_SERVICE_ACCOUNTS: 'robot, other-robot',
    });
    const created = await api.post('/api/users/', {
      username: 'robot',
      password: 'robot password',
      role: 'supervisor',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'robot', kind: 'service' });
    robot = (created.body as { id: number }).id;
    expect((await api.post('/api/users/', { username: 'ivy', password: 'ivy password' })).status).toBe(201);
  });
  afterAll(() => api?.close());

  it('is not listed among people; ?kind=service lists it; the detail says its kind', async () => {
    const people = await api.get('/api/users/');
    expect((people.body as { results: Array<{ username: string; kind: string }> }).results).toEqual([
      expect.objectContaining({ username: 'admin', kind: 'person' }),
      expect.objectContaining({ username: 'ivy', kind: 'person' }),
    ]);
    expect((await api.get('/api/users/?search=robot')).body).toMatchObject({ count: 0 });
    const services = await api.get('/api/users/?kind=service');
    expect(services.body).toMatchObject({
      count: 1,
      results: [{ id: robot, username: 'robot', kind: 'service' }],
    });
    expect((await api.get('/api/users/?kind=robots')).body).toEqual({
      kind: ['Select a valid choice. robots is not one of the available choices.'],
    });
    const detail = await api.get(`/api/users/${robot}/`);
    expect(Object.keys(detail.body as object)).toEqual([
      'id',
      'username',
      'role',
      'is_active',
      'date_joined',
      'last_login',
      'kind',
    ]);
  });

  it('cannot be deactivated, demoted or deleted through the API (400/403 in DRF format)', async () => {
    const deactivate = await api.patch(`/api/users/${robot}/`, { is_active: false });
    expect(deactivate.status).toBe(400);
    expect(deactivate.body).toEqual({ is_active: ['A service account cannot be deactivated.'] });
    expect((await api.put(`/api/users/${robot}/`, { role: 'inspector', is_active: false })).body).toEqual({
      role: ['The role of a service account cannot be changed.'],
      is_active: ['A service account cannot be deactivated.'],
    });
    // What it already is may be sent.
    expect((await api.patch(`/api/users/${robot}/`, { is_active: true, role: 'supervisor' })).status).toBe(
      200,
    );
    const deleted = await api.delete(`/api/users/${robot}/`);
    expect(deleted.status).toBe(403);
    expect(deleted.body).toEqual({ detail: 'A service account cannot be deleted.' });
    expect((await api.get(`/api/users/${robot}/`)).body).toMatchObject({
      is_active: true,
      role: 'supervisor',
    });
    // It still signs in and works.
    expect((await api.tokens('robot', 'robot password')).access).toEqual(expect.any(String));
  });
});

describe('X-On-Behalf-Of: a service account acts as the person it names', () => {
  let api: TestApi;
  let robotToken: string;
  let ivy: number;
  let max: number;
  let action: number;
  const asIvy = () => ({ token: robotToken, headers: { 'x-on-behalf-of': String(ivy) } });

  beforeAll(async () => {
    api = await TestApi.start('inspection_on_behalf_of', { INSPECTION_SERVICE_ACCOUNTS: 'robot' });
    await api.post('/api/users/', { username: 'robot', password: 'robot password', role: 'supervisor' });
    ivy = (
      (await api.post('/api/users/', { username: 'ivy', password: 'ivy password' })).body as { id: number }
    ).id;
    max = (
      (await api.post('/api/users/', { username: 'max', password: 'max password' })).body as { id: number }
    ).id;
    robotToken = (await api.tokens('robot', 'robot password')).access;
    action = (
      (await api.post('/api/actions/', { title: 'Replace the gasket', assignee: ivy })).body as { id: number }
    ).id;
  });
  afterAll(() => api?.close());

  it("is that person: /api/users/me/, the role's limits, the assignee's rights", async () => {
    expect((await api.get('/api/users/me/', asIvy())).body).toMatchObject({
      id: ivy,
      username: 'ivy',
      role: 'inspector',
    });
    const mine = await api.get(`/api/actions/?assignee=${ivy}`, asIvy());
    expect(mine.body).toMatchObject({ count: 1, results: [{ id: action }] });
    // An inspector's limits: no users list, no device edit, no verification.
    expect((await api.get('/api/users/', asIvy())).status).toBe(403);
    const devices = await api.post('/api/devices/', { name: 'Pump', code: 'P-1' }, asIvy());
    expect(devices.status).toBe(403);
    const other = (
      (await api.post('/api/actions/', { title: "Max's action", assignee: max })).body as { id: number }
    ).id;
    expect((await api.patch(`/api/actions/${other}/`, { status: 'in_progress' }, asIvy())).status).toBe(403);
  });

  it('writes under their name: the comment, the transition and the audit trail', async () => {
    const comment = await api.post(`/api/actions/${action}/comments/`, { text: 'On my way' }, asIvy());
    expect(comment.status).toBe(201);
    expect(comment.body).toMatchObject({ author: 'ivy', text: 'On my way' });
    const moved = await api.patch(`/api/actions/${action}/`, { status: 'in_progress' }, asIvy());
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      status: 'in_progress',
      transitions: [
        { from: null, to: 'open', by: 'admin' },
        { from: 'open', to: 'in_progress', by: 'ivy' },
      ],
    });
    const verify = await api.patch(`/api/actions/${action}/`, { status: 'done' }, asIvy());
    expect(verify.status).toBe(200);
    expect((await api.patch(`/api/actions/${action}/`, { status: 'verified' }, asIvy())).body).toEqual({
      detail: 'Only a supervisor may verify an action.',
    });
    const trail = (await api.get(`/api/audit/?resource=action&resource_id=${action}&page_size=10`)).body as {
      results: Array<{ event: string; actor: number; actor_username: string }>;
    };
    expect(trail.results.slice(0, 3)).toEqual([
      expect.objectContaining({ event: 'updated', actor: ivy, actor_username: 'ivy' }),
      expect.objectContaining({ event: 'updated', actor: ivy, actor_username: 'ivy' }),
      expect.objectContaining({ event: 'commented', actor: ivy, actor_username: 'ivy' }),
    ]);
  });

  it('without the header the service account is itself', async () => {
    expect((await api.get('/api/users/me/', { token: robotToken })).body).toMatchObject({
      username: 'robot',
    });
  });
});
