import { TestApi } from './support/test-api';

/** DRF SimpleMetadata: OPTIONS describes the serializer under actions.POST (lists) or actions.PUT (details). */
describe('OPTIONS metadata', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start('inspection_options');
  });
  afterAll(() => api?.close());

  it('describes the device serializer for POST on the list, in field order', async () => {
    const options = await api.call('OPTIONS', '/api/devices/');
    expect(options.status).toBe(200);
    const body = options.body as { actions: { POST: Record<string, unknown> } };
    expect(body).toMatchObject({
      name: 'Device List',
      description: '',
      renders: ['application/json'],
      parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
    });
    expect(Object.keys(body.actions)).toEqual(['POST']);
    expect(Object.keys(body.actions.POST)).toEqual([
      'id',
      'check_items',
      'created_at',
      'name',
      'code',
      'location',
      'group',
    ]);
    expect(body.actions.POST.id).toEqual({ type: 'integer', required: false, read_only: true, label: 'ID' });
    expect(body.actions.POST.name).toEqual({
      type: 'string',
      required: true,
      read_only: false,
      label: 'Name',
      max_length: 200,
    });
    expect(body.actions.POST.location).toEqual({
      type: 'string',
      required: false,
      read_only: false,
      label: 'Location',
      max_length: 200,
    });
    expect(body.actions.POST.created_at).toEqual({
      type: 'datetime',
      required: false,
      read_only: true,
      label: 'Created at',
    });
    expect(body.actions.POST.check_items).toMatchObject({
      type: 'field',
      read_only: true,
      label: 'Check items',
      child: { type: 'nested object', read_only: true, children: { expected_value: { max_length: 200 } } },
    });
  });

  it('lists choices for choice fields but not for related fields', async () => {
    const records = (await api.call('OPTIONS', '/api/records/')).body as {
      actions: { POST: Record<string, Record<string, unknown>> };
    };
    expect(records.actions.POST.status).toEqual({
      type: 'choice',
      required: true,
      read_only: false,
      label: 'Status',
      choices: [
        { value: 'ok', display_name: 'Ok' },
        { value: 'warn', display_name: 'Warn' },
        { value: 'fail', display_name: 'Fail' },
      ],
    });
    expect(records.actions.POST.device).toEqual({
      type: 'field',
      required: true,
      read_only: false,
      label: 'Device',
    });
    expect(records.actions.POST.plan).toEqual({
      type: 'field',
      required: false,
      read_only: false,
      label: 'Plan',
    });
    expect(records.actions.POST.photo).toEqual({
      type: 'image upload',
      required: false,
      read_only: false,
      label: 'Photo',
      max_length: 100,
    });
    expect(records.actions.POST.checked_by).toMatchObject({ label: 'Checked by', max_length: 150 });
    const plans = (await api.call('OPTIONS', '/api/plans/')).body as {
      actions: { POST: Record<string, Record<string, unknown>> };
    };
    expect(Object.keys(plans.actions.POST)).toEqual([
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
    expect(plans.actions.POST.active).toEqual({
      type: 'boolean',
      required: false,
      read_only: false,
      label: 'Active',
    });
    expect(plans.actions.POST.devices).toEqual({
      type: 'field',
      required: true,
      read_only: false,
      label: 'Devices',
    });
  });

  it('describes PUT on an existing object and leaves actions out for a missing one', async () => {
    const { id } = await api.createDevice();
    const existing = (await api.call('OPTIONS', `/api/devices/${id}/`)).body as {
      name: string;
      actions: object;
    };
    expect(existing.name).toBe('Device Instance');
    expect(Object.keys(existing.actions)).toEqual(['PUT']);
    const missing = await api.call('OPTIONS', '/api/devices/999999/');
    expect(missing.status).toBe(200);
    expect(missing.body).not.toHaveProperty('actions');
    expect((await api.call('OPTIONS', '/api/items/999999/')).body).not.toHaveProperty('actions');
  });

  it('needs authentication on the resources but not on the token views', async () => {
    expect((await api.call('OPTIONS', '/api/devices/', { token: false })).status).toBe(401);
    const obtain = await api.call('OPTIONS', '/api/token/', { token: false });
    expect(obtain.status).toBe(200);
    expect(obtain.body).toMatchObject({
      name: 'Token Obtain Pair',
      actions: {
        POST: {
          username: { type: 'string', required: true, read_only: false, label: 'Username' },
          password: { type: 'string', required: true, read_only: false, label: 'Password' },
        },
      },
    });
    const refresh = await api.call('OPTIONS', '/api/token/refresh/', { token: false });
    expect(refresh.body).toMatchObject({
      actions: { POST: { refresh: { required: true }, access: { read_only: true, label: 'Access' } } },
    });
    const root = await api.call('OPTIONS', '/api/');
    expect(root.status).toBe(200);
    expect(root.body).not.toHaveProperty('actions');
  });
});
