import { TestApi } from './support/test-api';

const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('history that cannot be deleted: devices, items and plans are archived', () => {
  let api: TestApi;
  let inspector: string;
  beforeAll(async () => {
    api = await TestApi.start('inspection_archive');
    expect((await api.post('/api/users/', { username: 'ivy', password: 'ivy password' })).status).toBe(201);
    inspector = (await api.tokens('ivy', 'ivy password')).access;
  });
  afterAll(() => api?.close());

  async function fixture() {
    const device = await api.createDevice({ name: 'Boiler', group: 'heat' });
    const item = (await api.post('/api/items/', { name: 'Pressure', device: device.id })).body as {
      id: number;
    };
    const plan = (await api.post('/api/plans/', { name: 'Daily', devices: [device.id], frequency: 'daily' }))
      .body as { id: number };
    const form = new FormData();
    form.set('status', 'fail');
    form.set('device', String(device.id));
    form.set('item', String(item.id));
    form.set('plan', String(plan.id));
    form.set('photo', new Blob([PNG], { type: 'image/png' }), 'p.png');
    const record = await api.call('POST', '/api/records/', { raw: form });
    expect(record.status).toBe(201);
    return { device, item: item.id, plan: plan.id, record: record.body as { id: number; photo: string } };
  }

  it('records and their photos survive DELETE of their device, still linked and readable', async () => {
    const { device, item, plan, record } = await fixture();
    const other = await api.createDevice();
    const both = (
      await api.post('/api/plans/', { name: 'Both', devices: [device.id, other.id], frequency: 'weekly' })
    ).body as { id: number };

    const deleted = await api.delete(`/api/devices/${device.id}/`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await api.get(`/api/devices/${device.id}/`)).body).toEqual(NOT_FOUND);
    expect((await api.delete(`/api/devices/${device.id}/`)).status).toBe(404);
    expect((await api.patch(`/api/devices/${device.id}/`, { name: 'x' })).status).toBe(404);
    expect((await api.get(`/api/items/${item}/`)).status).toBe(404);
    const listed = (await api.get('/api/devices/?page_size=100')).body as { results: Array<{ id: number }> };
    expect(listed.results.map((entry) => entry.id)).not.toContain(device.id);
    const items = (await api.get('/api/items/')).body as Array<{ id: number }>;
    expect(items.map((entry) => entry.id)).not.toContain(item);
    expect((await api.get('/api/devices/groups/')).body).not.toContain('heat');

    // The record, its photo and its references stay.
    const kept = await api.get(`/api/records/${record.id}/`);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ device: device.id, item, plan, status: 'fail', photo: record.photo });
    const photo = await fetch(record.photo);
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(PNG);
    const records = (await api.get(`/api/records/?device=${device.id}`)).body as { count: number };
    expect(records.count).toBe(1);
    const csv = await api.get(`/api/records/export.csv?device=${device.id}`);
    expect(csv.text.split('\n')[1]).toContain(`${record.id},`);
    expect(csv.text).toContain(device.code);

    // Plans: the deleted device is no longer listed; a plan left without devices says so.
    expect((await api.get(`/api/plans/${plan}/`)).body).toMatchObject({ devices: [], has_devices: false });
    expect((await api.get(`/api/plans/${both.id}/`)).body).toMatchObject({
      devices: [other.id],
      has_devices: true,
    });
    // New writes cannot refer to it.
    expect((await api.post('/api/records/', { status: 'ok', device: device.id })).body).toEqual({
      device: [`Invalid pk "${device.id}" - object does not exist.`],
    });
    // Its code is free for a new device.
    expect((await api.post('/api/devices/', { name: 'New boiler', code: device.code })).status).toBe(201);
  });

  it('supervisors list archived devices and restore them with their items and plans; inspectors may not', async () => {
    const { device, item, plan } = await fixture();
    expect((await api.delete(`/api/items/${item}/`)).status).toBe(204); // archived on its own, before
    const second = (await api.post('/api/items/', { name: 'Level', device: device.id })).body as {
      id: number;
    };
    expect((await api.delete(`/api/devices/${device.id}/`)).status).toBe(204);

    const archived = await api.get('/api/devices/?archived=true&page_size=100');
    expect(archived.status).toBe(200);
    const entry = (archived.body as { results: Array<Record<string, unknown>> }).results.find(
      (candidate) => candidate.id === device.id,
    );
    expect(Object.keys(entry ?? {})).toEqual([
      'id',
      'check_items',
      'created_at',
      'name',
      'code',
      'location',
      'group',
      'archived_at',
    ]);
    expect(entry?.check_items).toEqual([
      {
        id: second.id,
        name: 'Level',
        description: '',
        expected_value: '',
        device: device.id,
        type: 'text',
        unit: '',
        min: null,
        max: null,
        options: [],
      },
    ]);
    expect((await api.get('/api/devices/?archived=true', { token: inspector })).body).toEqual(DENIED);
    expect((await api.get('/api/devices/?archived=true', { token: inspector })).status).toBe(403);
    const refused = await api.call('POST', `/api/devices/${device.id}/restore/`, { token: inspector });
    expect(refused.status).toBe(403);

    const restored = await api.call('POST', `/api/devices/${device.id}/restore/`);
    expect(restored.status).toBe(200);
    expect(restored.headers.get('allow')).toBe('POST, OPTIONS');
    expect(restored.body).toMatchObject({ id: device.id, check_items: [{ id: second.id }] });
    expect(Object.keys(restored.body as object)).not.toContain('archived_at');
    expect((await api.get(`/api/devices/${device.id}/`)).status).toBe(200);
    expect((await api.get(`/api/items/${item}/`)).status).toBe(404); // deleted on its own: stays archived
    expect((await api.get(`/api/plans/${plan}/`)).body).toMatchObject({
      devices: [device.id],
      has_devices: true,
    });
    // Only an archived device is restored.
    expect((await api.call('POST', `/api/devices/${device.id}/restore/`)).body).toEqual(NOT_FOUND);
    expect((await api.call('POST', '/api/devices/999999/restore/')).status).toBe(404);
    expect((await api.call('GET', `/api/devices/${device.id}/restore/`)).status).toBe(405);

    // A device in use that took the code meanwhile: 400 in DRF's words.
    expect((await api.delete(`/api/devices/${device.id}/`)).status).toBe(204);
    expect((await api.post('/api/devices/', { name: 'Twin', code: device.code })).status).toBe(201);
    const clash = await api.call('POST', `/api/devices/${device.id}/restore/`);
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({ code: ['device with this code already exists.'] });
  });

  it('deleting a plan or an item archives it: its records keep the reference', async () => {
    const { item, plan, record } = await fixture();
    expect((await api.delete(`/api/plans/${plan}/`)).status).toBe(204);
    expect((await api.get(`/api/plans/${plan}/`)).status).toBe(404);
    expect((await api.delete(`/api/plans/${plan}/`)).status).toBe(404);
    const plans = (await api.get('/api/plans/?page_size=100')).body as { results: Array<{ id: number }> };
    expect(plans.results.map((entry) => entry.id)).not.toContain(plan);
    expect((await api.delete(`/api/items/${item}/`)).status).toBe(204);
    expect((await api.get(`/api/records/${record.id}/`)).body).toMatchObject({ plan, item });
    const due = (await api.get(`/api/due/?plan=${plan}`)).body as { count: number };
    expect(due.count).toBe(0);
  });

  it('the database refuses to delete a device that has records', async () => {
    const { device } = await fixture();
    const { Client } = await import('pg');
    const client = new Client({ connectionString: api.database.url });
    await client.connect();
    try {
      await expect(client.query('DELETE FROM "devices" WHERE "id" = $1', [device.id])).rejects.toThrow(
        /foreign key/,
      );
    } finally {
      await client.end();
    }
  });
});
