import { TestApi } from './support/test-api';

describe('check items', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_items');
  });
  afterAll(() => api?.close());

  it('creates, lists (bare array), filters, updates and deletes items; devices nest them', async () => {
    const device = await api.createDevice();
    const other = await api.createDevice();
    const created = await api.post('/api/items/', {
      name: 'Pressure',
      expected_value: '2 bar',
      device: String(device.id),
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body as object)).toEqual([
      'id',
      'name',
      'description',
      'expected_value',
      'device',
      'type',
      'unit',
      'min',
      'max',
      'options',
    ]);
    expect(created.body).toMatchObject({
      name: 'Pressure',
      description: '',
      expected_value: '2 bar',
      device: device.id,
    });
    const item = created.body as { id: number };
    await api.post('/api/items/', { name: 'Temperature', device: other.id });

    const all = await api.get('/api/items/?page=5&page_size=1');
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body).toHaveLength(2);
    expect(await api.get(`/api/items/?device=${device.id}`)).toMatchObject({ body: [created.body] });
    expect((await api.get('/api/items/?device=abc')).status).toBe(400);

    const nested = (await api.get(`/api/devices/${device.id}/`)).body as { check_items: unknown[] };
    expect(nested.check_items).toEqual([created.body]);

    expect((await api.put(`/api/items/${item.id}/`, { name: 'P' })).body).toEqual({
      device: ['This field is required.'],
    });
    expect((await api.patch(`/api/items/${item.id}/`, { device: other.id })).body).toMatchObject({
      device: other.id,
    });
    expect((await api.patch(`/api/items/${item.id}/`, { device: null })).body).toEqual({
      device: ['This field may not be null.'],
    });
    expect((await api.delete(`/api/items/${item.id}/`)).status).toBe(204);
    expect((await api.get(`/api/items/${item.id}/`)).status).toBe(404);
  });

  it.each([
    [{ name: 'x', device: 99 }, { device: ['Invalid pk "99" - object does not exist.'] }],
    [{ name: 'x', device: 'abc' }, { device: ['Incorrect type. Expected pk value, received str.'] }],
    [{ name: 'x', device: true }, { device: ['Incorrect type. Expected pk value, received bool.'] }],
    [{ name: 'x', device: [1] }, { device: ['Incorrect type. Expected pk value, received list.'] }],
    [
      { name: 'x', device: 1e20 },
      { device: ['Invalid pk "100000000000000000000" - object does not exist.'] },
    ],
    [{ name: 'x' }, { device: ['This field is required.'] }],
    [{ name: 'x', device: null }, { device: ['This field may not be null.'] }],
    [
      { name: 'x', expected_value: 'e'.repeat(201), device: 99 },
      {
        expected_value: ['Ensure this field has no more than 200 characters.'],
        device: ['Invalid pk "99" - object does not exist.'],
      },
    ],
  ])('refuses %j', async (body, errors) => {
    const response = await api.post('/api/items/', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errors);
  });
});

describe('check plans', () => {
  let api: TestApi;
  let devices: number[];
  beforeAll(async () => {
    api = await TestApi.start('inspection_plans');
    devices = [(await api.createDevice()).id, (await api.createDevice()).id, (await api.createDevice()).id];
  });
  afterAll(() => api?.close());

  it('creates with active defaulting to true, replaces the device set, pages and filters', async () => {
    const [a, b, c] = devices as [number, number, number];
    const created = await api.post('/api/plans/', { name: 'Daily', devices: [b, a], frequency: 'daily' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body as object)).toEqual([
      'id',
      'devices',
      'name',
      'frequency',
      'active',
      'has_devices',
      'open_action_on',
      'schedule',
      'assignees',
      'assignee_teams',
    ]);
    expect(created.body).toMatchObject({ devices: [a, b], name: 'Daily', frequency: 'daily', active: true });
    const id = (created.body as { id: number }).id;
    expect((await api.put(`/api/plans/${id}/`, { name: 'Daily', frequency: 'weekly' })).body).toEqual({
      devices: ['This field is required.'],
    });
    const patched = await api.patch(`/api/plans/${id}/`, { devices: [c], active: 'off' });
    expect(patched.body).toMatchObject({ devices: [c], active: false, frequency: 'daily' });
    const put = await api.put(`/api/plans/${id}/`, { name: 'Weekly', devices: [a], frequency: 'weekly' });
    expect(put.body).toMatchObject({ devices: [a], active: false, frequency: 'weekly' });
    await api.post('/api/plans/', { name: 'Monthly', devices: [a], frequency: 'monthly', active: true });
    const page = (await api.get('/api/plans/?active=false')).body as { count: number; results: unknown[] };
    expect(page.count).toBe(1);
    expect(((await api.get('/api/plans/')).body as { count: number }).count).toBe(2);
  });

  it.each([
    [
      {},
      {
        devices: ['This field is required.'],
        name: ['This field is required.'],
        frequency: ['This field is required.'],
      },
    ],
    [{ devices: [], name: 'p', frequency: 'daily' }, { devices: ['This list may not be empty.'] }],
    [
      { devices: [1, 99999, 'x'], name: 'p', frequency: 'daily' },
      { devices: ['Invalid pk "99999" - object does not exist.'] },
    ],
    [
      { devices: ['x', 99999], name: 'p', frequency: 'daily' },
      { devices: ['Incorrect type. Expected pk value, received str.'] },
    ],
    [
      { devices: '1', name: 'p', frequency: 'daily' },
      { devices: ['Expected a list of items but got type "str".'] },
    ],
    [
      { devices: 1, name: 'p', frequency: 'daily' },
      { devices: ['Expected a list of items but got type "int".'] },
    ],
    [{ devices: null, name: 'p', frequency: 'daily' }, { devices: ['This field may not be null.'] }],
    [{ devices: [1, 1], name: 'p', frequency: 'daily' }, { devices: ['Items in this list must be unique.'] }],
    [
      { devices: [1], name: 'p', frequency: 'hourly', active: 'maybe' },
      {
        frequency: ['"hourly" is not a valid choice.'],
        active: ['Must be a valid boolean.'],
      },
    ],
    [
      { devices: [1], name: 'p', frequency: 'DAILY', active: 2 },
      {
        frequency: ['"DAILY" is not a valid choice.'],
        active: ['Must be a valid boolean.'],
      },
    ],
    [
      { devices: [1], name: 'p', frequency: null, active: null },
      {
        frequency: ['This field may not be null.'],
        active: ['This field may not be null.'],
      },
    ],
  ])('refuses %j', async (body, errors) => {
    const response = await api.post('/api/plans/', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errors);
  });
});

describe('check records and cascades', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_records');
  });
  afterAll(() => api?.close());

  async function fixture() {
    const device = await api.createDevice();
    const item = (await api.post('/api/items/', { name: 'Pressure', device: device.id })).body as {
      id: number;
    };
    const plan = (await api.post('/api/plans/', { name: 'Daily', devices: [device.id], frequency: 'daily' }))
      .body as { id: number };
    return { device: device.id, item: item.id, plan: plan.id };
  }

  it('creates a record in the spec shape and updates it', async () => {
    const { device, item, plan } = await fixture();
    const created = await api.post('/api/records/', {
      status: 'ok',
      device,
      plan,
      item,
      checked_by: 'alice',
      photo: 'x',
      checked_at: '2000-01-01T00:00:00Z',
    });
    expect(created.status).toBe(201);
    const record = created.body as Record<string, unknown>;
    expect(Object.keys(record)).toEqual([
      'id',
      'status',
      'value',
      'note',
      'photo',
      'attachment',
      'checked_at',
      'checked_by',
      'plan',
      'device',
      'item',
      'source',
      'out_of_range',
    ]);
    expect(record).toMatchObject({
      status: 'ok',
      value: '',
      note: '',
      photo: null,
      attachment: null,
      checked_by: 'alice',
      plan,
      device,
      item,
    });
    expect(record.checked_at).not.toBe('2000-01-01T00:00:00Z');
    const id = record.id as number;
    expect((await api.patch(`/api/records/${id}/`, { plan: null, item: '' })).body).toMatchObject({
      plan: null,
      item: null,
    });
    expect((await api.put(`/api/records/${id}/`, { status: 'warn' })).body).toEqual({
      device: ['This field is required.'],
    });
    expect((await api.put(`/api/records/${id}/`, { status: 'warn', device })).body).toMatchObject({
      status: 'warn',
      checked_by: 'alice',
    });
    expect((await api.get(`/api/records/${id}/`)).body).toMatchObject({ status: 'warn' });
  });

  it('reports every failing field at once', async () => {
    const response = await api.post('/api/records/', { status: 'bad', plan: 99, item: 'abc' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: ['"bad" is not a valid choice.'],
      plan: ['Invalid pk "99" - object does not exist.'],
      device: ['This field is required.'],
      item: ['Incorrect type. Expected pk value, received str.'],
    });
    expect(Object.keys(response.body as object)).toEqual(['status', 'plan', 'device', 'item']);
    expect((await api.post('/api/records/', {})).body).toEqual({
      status: ['This field is required.'],
      device: ['This field is required.'],
    });
  });

  it('filters by device, plan, item, status and checked_at range', async () => {
    const first = await fixture();
    const second = await fixture();
    await api.post('/api/records/', {
      status: 'ok',
      device: first.device,
      plan: first.plan,
      item: first.item,
    });
    await api.post('/api/records/', { status: 'fail', device: first.device });
    await api.post('/api/records/', { status: 'fail', device: second.device, plan: second.plan });
    const count = async (query: string) =>
      ((await api.get(`/api/records/?${query}`)).body as { count: number }).count;
    expect(await count(`device=${first.device}`)).toBe(2);
    expect(await count(`device=${first.device}&status=fail`)).toBe(1);
    expect(await count(`plan=${second.plan}`)).toBe(1);
    expect(await count(`item=${first.item}`)).toBe(1);
    expect(await count(`device=${second.device}&checked_after=2000-01-01`)).toBe(1);
    expect(await count(`device=${second.device}&checked_before=2000-01-01T00:00:00%2B02:00`)).toBe(0);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await count(`device=${second.device}&checked_before=${encodeURIComponent(future)}`)).toBe(1);
    const bad = await api.get('/api/records/?status=nope&checked_after=yesterday&device=x');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      device: ['Select a valid choice. That choice is not one of the available choices.'],
      status: ['Select a valid choice. nope is not one of the available choices.'],
      checked_after: ['Enter a valid date/time.'],
    });
  });

  it('deleting a plan, an item or a device archives it: records keep their references (test/archive.e2e-spec.ts)', async () => {
    const { device, item, plan } = await fixture();
    const record = (await api.post('/api/records/', { status: 'ok', device, plan, item })).body as {
      id: number;
    };
    expect((await api.delete(`/api/plans/${plan}/`)).status).toBe(204);
    expect((await api.get(`/api/plans/${plan}/`)).status).toBe(404);
    expect((await api.get(`/api/records/${record.id}/`)).body).toMatchObject({ plan, item });
    expect((await api.delete(`/api/items/${item}/`)).status).toBe(204);
    expect((await api.get(`/api/records/${record.id}/`)).body).toMatchObject({ plan, item });

    const again = await fixture();
    const kept = (
      await api.post('/api/plans/', { name: 'Both', devices: [again.device, device], frequency: 'daily' })
    ).body as { id: number };
    const survivor = (
      await api.post('/api/records/', { status: 'ok', device: again.device, item: again.item })
    ).body as { id: number };
    expect((await api.delete(`/api/devices/${again.device}/`)).status).toBe(204);
    expect((await api.get(`/api/records/${survivor.id}/`)).body).toMatchObject({
      device: again.device,
      item: again.item,
    });
    expect((await api.get(`/api/items/${again.item}/`)).status).toBe(404);
    expect((await api.get(`/api/plans/${kept.id}/`)).body).toMatchObject({ devices: [device] });
  });
});
