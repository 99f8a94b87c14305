import { Client } from 'pg';
import { TestApi } from './support/test-api';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/;
const DENIED = { detail: 'You do not have permission to perform this action.' };

interface AuditEntry {
  id: number;
  resource: string;
  resource_id: number;
  event: string;
  actor: number | null;
  actor_username: string;
  at: string;
  changed: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

interface AuditPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: AuditEntry[];
}

describe('audit trail (/api/audit/)', () => {
  let api: TestApi;
  let adminId: number;
  let ivy: { id: number; token: string };

  /** The entries of one resource, oldest first. */
  async function trail(resource: string, id: number): Promise<AuditEntry[]> {
    const response = await api.get(`/api/audit/?resource=${resource}&resource_id=${id}&page_size=100`);
    expect(response.status).toBe(200);
    return [...(response.body as AuditPage).results].reverse();
  }

  async function lastEntryId(): Promise<number> {
    return ((await api.get('/api/audit/?page_size=1')).body as AuditPage).results[0]?.id ?? 0;
  }

  const byAdmin = (entry: Partial<AuditEntry>) => ({
    actor: adminId,
    actor_username: 'admin',
    at: expect.stringMatching(TIMESTAMP) as unknown,
    ...entry,
  });

  beforeAll(async () => {
    api = await TestApi.start('inspection_audit');
    adminId = ((await api.get('/api/users/me/')).body as { id: number }).id;
    const created = await api.post('/api/users/', { username: 'ivy', password: 'ivy password' });
    ivy = {
      id: (created.body as { id: number }).id,
      token: (await api.tokens('ivy', 'ivy password')).access,
    };
  });
  afterAll(() => api?.close());

  it('devices and their items: created, updated, archived with the device, restored; who and what changed', async () => {
    const device = await api.createDevice({ name: 'Boiler', code: 'B-1' });
    const item = (
      (await api.post('/api/items/', { name: 'Pressure', device: device.id })).body as { id: number }
    ).id;
    expect((await api.patch(`/api/devices/${device.id}/`, { location: 'Hall 2' })).status).toBe(200);
    expect((await api.patch(`/api/items/${item}/`, { expected_value: '2.5-3.0 bar' })).status).toBe(200);
    expect((await api.delete(`/api/devices/${device.id}/`)).status).toBe(204);
    expect((await api.post(`/api/devices/${device.id}/restore/`, {})).status).toBe(200);

    const deviceTrail = await trail('device', device.id);
    expect(deviceTrail.map((entry) => entry.event)).toEqual(['created', 'updated', 'archived', 'restored']);
    expect(deviceTrail[0]).toEqual(
      byAdmin({
        id: expect.any(Number),
        resource: 'device',
        resource_id: device.id,
        event: 'created',
        changed: [],
        before: null,
        after: expect.objectContaining({
          id: device.id,
          name: 'Boiler',
          code: 'B-1',
          location: '',
          archived_at: null,
        }),
      }),
    );
    expect(deviceTrail[1]).toMatchObject({
      changed: ['location'],
      before: { location: '' },
      after: { location: 'Hall 2' },
    });
    expect(deviceTrail[2]).toMatchObject(
      byAdmin({ changed: ['archived_at'], before: { archived_at: null } }),
    );
    expect(deviceTrail[3]).toMatchObject(byAdmin({ changed: ['archived_at'], after: { archived_at: null } }));

    const itemTrail = await trail('item', item);
    expect(itemTrail.map((entry) => entry.event)).toEqual(['created', 'updated', 'archived', 'restored']);
    // Column names ending in _id show under the API's field name.
    expect(itemTrail[0]?.after).toMatchObject({ device: device.id, name: 'Pressure' });
    expect(itemTrail[1]).toMatchObject(byAdmin({ changed: ['expected_value'] }));
    expect(itemTrail[2]).toMatchObject(byAdmin({ event: 'archived' }));

    expect((await api.delete(`/api/items/${item}/`)).status).toBe(204);
    expect((await trail('item', item)).at(-1)).toMatchObject(byAdmin({ event: 'archived' }));
  });

  it('a refused or failed write leaves no entry (the entry commits with the change)', async () => {
    const device = await api.createDevice({ code: 'DUP-1' });
    const before = await lastEntryId();
    expect((await api.post('/api/devices/', { name: 'Other', code: 'DUP-1' })).status).toBe(400);
    expect((await api.patch(`/api/devices/${device.id}/`, { name: '' })).status).toBe(400);
    // Demoting the last active supervisor is rolled back after the UPDATE ran.
    expect((await api.patch(`/api/users/${adminId}/`, { role: 'inspector' })).status).toBe(400);
    // A write that changes nothing is no change.
    expect((await api.patch(`/api/devices/${device.id}/`, { name: 'Pump' })).status).toBe(200);
    expect(await lastEntryId()).toBe(before);
  });

  it('plans: their fields, and each device added to or removed from them', async () => {
    const [a, b, c] = [await api.createDevice(), await api.createDevice(), await api.createDevice()];
    const plan = (
      (await api.post('/api/plans/', { name: 'Daily', frequency: 'daily', devices: [a.id, b.id] })).body as {
        id: number;
      }
    ).id;
    expect(
      (await api.patch(`/api/plans/${plan}/`, { devices: [b.id, c.id], frequency: 'weekly' })).status,
    ).toBe(200);
    expect((await api.patch(`/api/plans/${plan}/`, { devices: [c.id, b.id] })).status).toBe(200);
    expect((await api.delete(`/api/plans/${plan}/`)).status).toBe(204);
    const entries = await trail('plan', plan);
    expect(
      entries.map(({ event, before, after }) => [event, before?.device ?? null, after?.device ?? null]),
    ).toEqual([
      ['created', null, null],
      ['device_added', null, a.id],
      ['device_added', null, b.id],
      ['updated', null, null],
      ['device_removed', a.id, null],
      ['device_added', null, c.id],
      ['archived', null, null],
    ]);
    expect(entries[3]).toMatchObject(
      byAdmin({
        changed: ['frequency', 'schedule_unit'],
        before: { frequency: 'daily', schedule_unit: 'day' },
        after: { frequency: 'weekly', schedule_unit: 'week' },
      }),
    );
    for (const entry of entries)
      expect(entry).toMatchObject(byAdmin({ resource: 'plan', resource_id: plan }));
  });

  it('records and actions: created (and the action a failure opens), changed, commented, deleted', async () => {
    const device = await api.createDevice();
    const recordId = (
      (
        await api.post(
          '/api/records/',
          { device: device.id, status: 'fail', value: '3.1' },
          { token: ivy.token },
        )
      ).body as { id: number }
    ).id;
    expect((await trail('record', recordId))[0]).toMatchObject({
      event: 'created',
      actor: ivy.id,
      actor_username: 'ivy',
      after: { id: recordId, device: device.id, status: 'fail', value: '3.1' },
    });
    const opened = (
      (await api.get(`/api/actions/?record=${recordId}`)).body as { results: Array<{ id: number }> }
    ).results[0];
    expect(opened).toBeDefined();
    const action = opened?.id ?? 0;
    expect(await trail('action', action)).toEqual([
      expect.objectContaining({
        event: 'created',
        actor: ivy.id,
        after: expect.objectContaining({ record: recordId, status: 'open' }) as unknown,
      }),
    ]);

    expect(
      (await api.patch(`/api/actions/${action}/`, { assignee: ivy.id, due_date: '2030-01-31' })).status,
    ).toBe(200);
    expect(
      (await api.patch(`/api/actions/${action}/`, { status: 'in_progress' }, { token: ivy.token })).status,
    ).toBe(200);
    expect(
      (await api.post(`/api/actions/${action}/comments/`, { text: 'valve ordered' }, { token: ivy.token }))
        .status,
    ).toBe(201);
    const other = (
      (await api.post('/api/actions/', { title: 'Repaint the rail', priority: 'low' })).body as { id: number }
    ).id;
    const actionTrail = await trail('action', action);
    expect(actionTrail.map((entry) => [entry.event, entry.actor_username])).toEqual([
      ['created', 'ivy'],
      ['updated', 'admin'],
      ['updated', 'ivy'],
      ['commented', 'ivy'],
    ]);
    expect(actionTrail[1]?.changed).toEqual(['assignee', 'due_date', 'updated_at']);
    expect(actionTrail[2]).toMatchObject({
      before: { status: 'open' },
      after: { status: 'in_progress' },
    });
    expect(actionTrail[3]?.after).toMatchObject({ text: 'valve ordered', author: 'ivy' });
    expect((await trail('action', other))[0]).toMatchObject(
      byAdmin({ event: 'created', after: { title: 'Repaint the rail', priority: 'low' } }),
    );

    expect((await api.patch(`/api/records/${recordId}/`, { note: 'gauge replaced' })).status).toBe(200);
    expect((await api.delete(`/api/records/${recordId}/`)).status).toBe(204);
    const recordTrail = await trail('record', recordId);
    expect(recordTrail.map((entry) => entry.event)).toEqual(['created', 'updated', 'deleted']);
    expect(recordTrail[1]).toMatchObject(byAdmin({ changed: ['note'], after: { note: 'gauge replaced' } }));
    // The deleted record's last state stays in the trail.
    expect(recordTrail[2]).toMatchObject(
      byAdmin({ before: { id: recordId, status: 'fail', note: 'gauge replaced' }, after: null }),
    );
  });

  it('users: created, role changed, password set (never the hash), deleted', async () => {
    const created = await api.post('/api/users/', { username: 'otto', password: 'otto password' });
    const otto = (created.body as { id: number }).id;
    expect((await api.patch(`/api/users/${otto}/`, { role: 'supervisor' })).status).toBe(200);
    expect(
      (await api.post(`/api/users/${otto}/set_password/`, { password: 'another password' })).status,
    ).toBe(204);
    // Signing in (last_login) is not a change of the user; signing out everywhere is, by the user.
    const ottoToken = (await api.tokens('otto', 'another password')).access;
    expect((await api.post('/api/users/me/sign_out_everywhere/', {}, { token: ottoToken })).status).toBe(204);
    expect((await api.delete(`/api/users/${otto}/`)).status).toBe(204);
    const entries = await trail('user', otto);
    expect(entries.map((entry) => entry.event)).toEqual([
      'created',
      'updated',
      'updated',
      'updated',
      'deleted',
    ]);
    expect(entries[1]).toMatchObject(byAdmin({ changed: ['role'], after: { role: 'supervisor' } }));
    expect(entries[2]).toMatchObject(
      byAdmin({ changed: ['password_changed', 'tokens_valid_after'], after: { password_changed: true } }),
    );
    expect(entries[3]).toMatchObject({
      actor: otto,
      actor_username: 'otto',
      changed: ['tokens_valid_after'],
    });
    for (const entry of entries) {
      expect(entry.before ?? {}).not.toHaveProperty('password');
      expect(entry.after ?? {}).not.toHaveProperty('password');
    }
    expect(JSON.stringify(entries)).not.toContain('argon2');
  });

  it('reads in DRF pages, newest first, filtered; 400 for a bad filter; supervisors only', async () => {
    const page = await api.get('/api/audit/?page_size=2');
    expect(page.status).toBe(200);
    const body = page.body as AuditPage;
    expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(body.results).toHaveLength(2);
    expect(body.next).toContain('page=2');
    expect((body.results[0]?.id ?? 0) > (body.results[1]?.id ?? 0)).toBe(true);
    expect(Object.keys(body.results[0] ?? {})).toEqual([
      'id',
      'resource',
      'resource_id',
      'event',
      'actor',
      'actor_username',
      'at',
      'changed',
      'before',
      'after',
    ]);
    const one = body.results[0];
    expect((await api.get(`/api/audit/${one.id}/`)).body).toEqual(one);
    expect((await api.get('/api/audit/999999/')).status).toBe(404);
    const byIvy = (await api.get(`/api/audit/?actor=${ivy.id}`)).body as AuditPage;
    expect(byIvy.count).toBeGreaterThan(0);
    expect(byIvy.results.every((entry) => entry.actor === ivy.id)).toBe(true);
    expect((await api.get('/api/audit/?event=deleted')).body).toMatchObject({ count: 2 });
    expect((await api.get('/api/audit/?until=2000-01-01')).body).toMatchObject({ count: 0, results: [] });
    const bad = await api.get('/api/audit/?resource=spaceship&resource_id=x');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      resource: ['Select a valid choice. spaceship is not one of the available choices.'],
      resource_id: ['Select a valid choice. That choice is not one of the available choices.'],
    });
    expect(await api.get('/api/audit/', { token: ivy.token })).toMatchObject({ status: 403, body: DENIED });
    expect((await api.get('/api/audit/', { token: false })).status).toBe(401);
  });

  it('cannot be changed or removed through any route (405), nor in the database', async () => {
    const entry = ((await api.get('/api/audit/?page_size=1')).body as AuditPage).results[0];
    const count = ((await api.get('/api/audit/')).body as AuditPage).count;
    for (const [method, path] of [
      ['POST', '/api/audit/'],
      ['PUT', '/api/audit/'],
      ['PATCH', '/api/audit/'],
      ['DELETE', '/api/audit/'],
      ['POST', `/api/audit/${entry.id}/`],
      ['PUT', `/api/audit/${entry.id}/`],
      ['PATCH', `/api/audit/${entry.id}/`],
      ['DELETE', `/api/audit/${entry.id}/`],
    ] as const) {
      const response = await api.call(method, path, { json: { event: 'nothing', after: null } });
      expect([method, path, response.status, response.body]).toEqual([
        method,
        path,
        405,
        { detail: `Method "${method}" not allowed.` },
      ]);
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
    // An inspector is refused before the method is looked at, as DRF's permission check runs first.
    expect((await api.delete(`/api/audit/${entry.id}/`, { token: ivy.token })).status).toBe(403);
    expect((await api.get(`/api/audit/${entry.id}/`)).body).toEqual(entry);
    expect(((await api.get('/api/audit/')).body as AuditPage).count).toBe(count);

    const client = new Client({ connectionString: api.database.url });
    await client.connect();
    try {
      for (const statement of [
        `UPDATE "audit_entries" SET "actor" = 'someone else' WHERE "id" = ${entry.id}`,
        `DELETE FROM "audit_entries" WHERE "id" = ${entry.id}`,
        'TRUNCATE "audit_entries"',
      ])
        await expect(client.query(statement)).rejects.toThrow('the audit trail is append-only');
    } finally {
      await client.end();
    }
    expect((await api.get(`/api/audit/${entry.id}/`)).body).toEqual(entry);
  });
});
