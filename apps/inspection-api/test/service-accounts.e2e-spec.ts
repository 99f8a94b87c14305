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
