import { createScratchDatabase } from '@fieldops/database';
import { DataSource } from 'typeorm';
import { INSPECTION_MIGRATIONS, inspectionDataSourceOptions } from '../src/database/inspection-data-source';
import { ADMIN, TestApi } from './support/test-api';

const DENIED = { detail: 'You do not have permission to perform this action.' };

describe('roles and the users API', () => {
  let api: TestApi;
  let inspector: string;
  let inspectorId: number;
  beforeAll(async () => {
    api = await TestApi.start('inspection_users');
    const created = await api.post('/api/users/', { username: 'ivy', password: 'ivy password' });
    expect(created.status).toBe(201);
    inspectorId = (created.body as { id: number }).id;
    inspector = (await api.tokens('ivy', 'ivy password')).access;
  });
  afterAll(() => api?.close());

  it('the first user is a supervisor; /api/users/me/ says who is signed in', async () => {
    const me = await api.get('/api/users/me/');
    expect(me.status).toBe(200);
    expect(me.text).toBe(`{"id":1,"username":"${ADMIN.username}","role":"supervisor","is_active":true}`);
    const mine = await api.get('/api/users/me/', { token: inspector });
    expect(mine.body).toEqual({ id: inspectorId, username: 'ivy', role: 'inspector', is_active: true });
    expect(mine.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('creates users with DRF field errors, no password in the answer', async () => {
    const created = await api.post('/api/users/', {
      username: 'sam',
      password: 'sam password',
      role: 'supervisor',
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body as object)).toEqual([
      'id',
      'username',
      'role',
      'is_active',
      'date_joined',
      'last_login',
      'kind',
    ]);
    expect(created.body).toMatchObject({
      username: 'sam',
      role: 'supervisor',
      is_active: true,
      last_login: null,
    });
    expect((await api.post('/api/users/', {})).body).toEqual({
      username: ['This field is required.'],
      password: ['This field is required.'],
    });
    expect((await api.post('/api/users/', { username: 'sam', password: 'x', role: 'boss' })).body).toEqual({
      username: ['A user with that username already exists.'],
      role: ['"boss" is not a valid choice.'],
    });
    expect((await api.post('/api/users/', { username: 'a b', password: 'x' })).body).toEqual({
      username: [
        'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.',
      ],
    });
  });

  it('lists users paged with search and role filters, last_login set by signing in', async () => {
    const list = await api.get('/api/users/?role=inspector&page_size=1');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(
      (list.body as { results: Array<{ username: string; last_login: string }> }).results[0],
    ).toMatchObject({
      username: 'ivy',
      last_login: expect.stringMatching(/Z$/) as unknown,
    });
    expect((await api.get('/api/users/?search=IV')).body).toMatchObject({ count: 1 });
    expect((await api.get('/api/users/?role=boss')).body).toEqual({
      role: ['Select a valid choice. boss is not one of the available choices.'],
    });
  });

  it('inspectors read the inventory and create records, and are refused everything else with 403', async () => {
    const device = await api.createDevice();
    const asInspector = { token: inspector };
    expect((await api.get('/api/devices/', asInspector)).status).toBe(200);
    expect((await api.get(`/api/devices/${device.id}/`, asInspector)).status).toBe(200);
    expect((await api.get('/api/items/', asInspector)).status).toBe(200);
    expect((await api.get('/api/plans/', asInspector)).status).toBe(200);
    expect((await api.call('OPTIONS', '/api/devices/', asInspector)).status).toBe(200);
    const record = await api.post('/api/records/', { status: 'ok', device: device.id }, asInspector);
    expect(record.status).toBe(201);
    expect((await api.get('/api/records/', asInspector)).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/api/devices/'],
      ['PATCH', `/api/devices/${device.id}/`],
      ['DELETE', `/api/devices/${device.id}/`],
      ['PUT', '/api/devices/'], // 403 before 405, as DRF checks permissions first
      ['DELETE', '/api/devices/999/'], // 403 before 404
      ['POST', '/api/items/'],
      ['POST', '/api/plans/'],
      ['DELETE', `/api/records/${(record.body as { id: number }).id}/`],
      ['GET', '/api/users/'],
      ['POST', '/api/users/'],
      ['GET', '/api/users/1/'],
      ['POST', '/api/users/1/set_password/'],
    ]) {
      const response = await api.call(method, path, {
        ...asInspector,
        ...(method === 'GET' ? {} : { json: {} }),
      });
      expect([method, path, response.status, response.text]).toEqual([
        method,
        path,
        403,
        JSON.stringify(DENIED),
      ]);
    }
    // Unauthenticated is still 401, not 403.
    expect((await api.get('/api/users/', { token: false })).status).toBe(401);
  });

  it('supervisors change roles and activity, reset passwords, delete users, and keep one active supervisor', async () => {
    const promoted = await api.patch(`/api/users/${inspectorId}/`, { role: 'supervisor' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: inspectorId, role: 'supervisor' });
    // A change clears this process's user cache; a verified bearer header is trusted for 5 s more.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect((await api.post('/api/items/', { name: 'X', device: 999 }, { token: inspector })).status).toBe(
      400,
    );
    expect(
      (await api.patch(`/api/users/${inspectorId}/`, { role: 'inspector', is_active: 'maybe' })).body,
    ).toEqual({
      is_active: ['Must be a valid boolean.'],
    });
    expect((await api.patch(`/api/users/${inspectorId}/`, { role: 'inspector' })).status).toBe(200);

    const reset = await api.post(`/api/users/${inspectorId}/set_password/`, { password: 'new ivy password' });
    expect(reset.status).toBe(204);
    expect(reset.text).toBe('');
    expect((await api.tokens('ivy', 'new ivy password')).access).toBeTruthy();
    expect((await api.post(`/api/users/${inspectorId}/set_password/`, { password: '' })).body).toEqual({
      password: ['This field may not be blank.'],
    });
    expect((await api.post('/api/users/999/set_password/', { password: 'x' })).status).toBe(404);

    const sam = (await api.get('/api/users/?search=sam')).body as { results: Array<{ id: number }> };
    const samId = sam.results[0]?.id;
    expect((await api.delete(`/api/users/${samId}/`)).status).toBe(204);
    expect((await api.get(`/api/users/${samId}/`)).status).toBe(404);
    const demoted = await api.patch('/api/users/1/', { role: 'inspector' });
    expect(demoted.status).toBe(400);
    expect(demoted.body).toEqual({ non_field_errors: ['At least one active supervisor must remain.'] });
    expect((await api.patch('/api/users/1/', { is_active: false })).status).toBe(400);
    expect((await api.delete('/api/users/1/')).status).toBe(400);
    expect((await api.get('/api/users/me/')).body).toMatchObject({ role: 'supervisor', is_active: true });
  }, 30_000);

  it('describes the users views in OPTIONS and answers 405 with Allow', async () => {
    const options = await api.call('OPTIONS', '/api/users/');
    expect(options.body).toMatchObject({
      name: 'User List',
      actions: { POST: { role: { type: 'choice' } } },
    });
    const wrong = await api.call('PUT', '/api/users/');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect((await api.get('/api/users/1/set_password/')).status).toBe(405);
  });
});

describe('the roles migration', () => {
  it('makes the users that existed supervisors; later users default to inspector', async () => {
    const adminUrl = process.env.DATABASE_URL as string;
    const database = await createScratchDatabase(adminUrl, 'inspection_roles_migration');
    const before = new DataSource({
      ...inspectionDataSourceOptions(database.url, 1),
      migrations: INSPECTION_MIGRATIONS.slice(0, 2),
    });
    try {
      await before.initialize();
      await before.runMigrations();
      await before.query(
        `INSERT INTO "users" ("username", "password", "date_joined") VALUES ('old', 'x', now())`,
      );
      await before.destroy();
      const after = await new DataSource(inspectionDataSourceOptions(database.url, 1)).initialize();
      try {
        await after.runMigrations();
        await after.query(
          `INSERT INTO "users" ("username", "password", "date_joined") VALUES ('new', 'x', now())`,
        );
        expect(await after.query(`SELECT "username", "role" FROM "users" ORDER BY "id"`)).toEqual([
          { username: 'old', role: 'supervisor' },
          { username: 'new', role: 'inspector' },
        ]);
      } finally {
        await after.destroy();
      }
    } finally {
      if (before.isInitialized) await before.destroy();
      await database.drop();
    }
  });
});
