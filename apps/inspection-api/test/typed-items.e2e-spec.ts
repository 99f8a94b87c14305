import { TestApi } from './support/test-api';

interface Item {
  id: number;
  type: string;
  unit: string;
  min: number | null;
  max: number | null;
  options: string[];
}

describe('typed check items and out-of-range records (PostgreSQL)', () => {
  let api: TestApi;
  let device: number;
  beforeAll(async () => {
    api = await TestApi.start('inspection_typed_items');
    device = (await api.createDevice()).id;
  });
  afterAll(() => api?.close());

  it('a spec client gets a text item; a typed one carries its limits, also nested in the device', async () => {
    const spec = await api.post('/api/items/', { name: 'Leaks', device });
    expect(spec.status).toBe(201);
    expect(spec.text).toMatch(/"device":\d+,"type":"text","unit":"","min":null,"max":null,"options":\[\]\}$/);
    const created = await api.post('/api/items/', {
      name: 'Pressure',
      expected_value: '2.5–3.0 bar',
      device,
      type: 'number',
      min: '2.5',
      max: 3,
      unit: 'bar',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'number', unit: 'bar', min: 2.5, max: 3, options: [] });
    const nested = (await api.get(`/api/devices/${device}/`)).body as { check_items: unknown[] };
    expect(nested.check_items).toEqual([spec.body, created.body]);
    const list = (await api.get('/api/devices/')).body as { results: Array<{ check_items: unknown[] }> };
    expect(list.results[0]?.check_items).toEqual([spec.body, created.body]);
    // A spec client's PUT keeps the type and limits it does not know about.
    const id = (created.body as Item).id;
    const put = await api.put(`/api/items/${id}/`, { name: 'Pressure', device });
    expect(put.body).toMatchObject({ type: 'number', min: 2.5, max: 3, unit: 'bar' });
  });

  it.each([
    [{ type: 'gauge' }, { type: ['"gauge" is not a valid choice.'] }],
    [
      { type: 'number', min: 'low', max: true },
      { min: ['A valid number is required.'], max: ['A valid number is required.'] },
    ],
    [{ type: 'number', min: 3, max: 2 }, { non_field_errors: ['min must not be greater than max.'] }],
    [{ type: 'choice' }, { options: ['A choice item needs at least one option.'] }],
    [{ type: 'choice', options: 'a,b' }, { options: ['Expected a list of items but got type "str".'] }],
    [{ type: 'choice', options: ['a', 'a'] }, { options: ['Items in this list must be unique.'] }],
    [
      { type: 'yes_no', unit: 'bar', min: 1 },
      { unit: ['Only a number item has a unit.'], min: ['Only a number item has limits.'] },
    ],
    [{ options: ['a'] }, { options: ['Only a choice item has options.'] }],
    [{ unit: 'x'.repeat(21) }, { unit: ['Ensure this field has no more than 20 characters.'] }],
  ])('400 in DRF format for a bad definition %j', async (extra, errors) => {
    const response = await api.post('/api/items/', { name: 'Bad', device, ...extra });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errors);
  });

  it('flags a record whose value is outside its item: read-only, filterable, recomputed when the value changes', async () => {
    const item = (
      (
        await api.post('/api/items/', {
          name: 'Gauge',
          device,
          type: 'number',
          min: 2.5,
          max: 3,
          unit: 'bar',
        })
      ).body as Item
    ).id;
    const high = await api.post('/api/records/', {
      status: 'ok',
      device,
      item,
      value: '3.1',
      out_of_range: false,
    });
    expect(high.status).toBe(201);
    expect(high.text).toMatch(/"source":"api","out_of_range":true\}$/);
    const fine = (await api.post('/api/records/', { status: 'ok', device, item, value: '2.8 bar' })).body as {
      id: number;
      out_of_range: boolean;
    };
    expect(fine.out_of_range).toBe(false);
    const patched = await api.patch(`/api/records/${fine.id}/`, { value: '2.1' });
    expect(patched.body).toMatchObject({ out_of_range: true });
    expect((await api.patch(`/api/records/${fine.id}/`, { note: 'seen' })).body).toMatchObject({
      out_of_range: true,
    });
    const flagged = (await api.get(`/api/records/?out_of_range=true&item=${item}`)).body as { count: number };
    expect(flagged.count).toBe(2);
    // Records without an item, or of a text item, are never flagged.
    const plain = await api.post('/api/records/', { status: 'warn', device, value: '99' });
    expect(plain.body).toMatchObject({ out_of_range: false });
    const choice = (
      (await api.post('/api/items/', { name: 'State', device, type: 'choice', options: ['clean', 'dirty'] }))
        .body as Item
    ).id;
    const other = await api.post('/api/records/', { status: 'ok', device, item: choice, value: 'broken' });
    expect(other.body).toMatchObject({ out_of_range: true });
  });

  it('OPTIONS describes the new fields', async () => {
    const body = (await api.call('OPTIONS', '/api/items/')).body as {
      actions: { POST: Record<string, Record<string, unknown>> };
    };
    expect(Object.keys(body.actions.POST)).toEqual([
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
    expect(body.actions.POST.min).toEqual({ type: 'float', required: false, read_only: false, label: 'Min' });
    const records = (await api.call('OPTIONS', '/api/records/')).body as {
      actions: { POST: Record<string, Record<string, unknown>> };
    };
    expect(records.actions.POST.out_of_range).toMatchObject({ type: 'boolean', read_only: true });
  });
});
