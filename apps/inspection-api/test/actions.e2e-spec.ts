import { TestApi } from './support/test-api';

const DENIED = { detail: 'You do not have permission to perform this action.' };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/;

interface Action {
  id: number;
  record: number | null;
  device: number | null;
  item: number | null;
  status: string;
  close_out_photo: string | null;
  transitions: Array<{ from: string | null; to: string; by: string; at: string }>;
  [key: string]: unknown;
}

describe('corrective actions (/api/actions/)', () => {
  let api: TestApi;
  let ivy: { id: number; token: string };
  let otto: { id: number; token: string };
  let device: number;
  let item: number;
  let plan: number;

  async function user(username: string) {
    const created = await api.post('/api/users/', { username, password: `${username} password` });
    expect(created.status).toBe(201);
    return {
      id: (created.body as { id: number }).id,
      token: (await api.tokens(username, `${username} password`)).access,
    };
  }

  async function record(fields: Record<string, unknown>): Promise<number> {
    const created = await api.post('/api/records/', { device, item, plan, ...fields });
    expect(created.status).toBe(201);
    return (created.body as { id: number }).id;
  }

  async function actionsOf(recordId: number): Promise<Action[]> {
    return ((await api.get(`/api/actions/?record=${recordId}`)).body as { results: Action[] }).results;
  }

  beforeAll(async () => {
    api = await TestApi.start('inspection_actions', { INSPECTION_TIME_ZONE: 'Asia/Shanghai' });
    ivy = await user('ivy');
    otto = await user('otto');
    device = (await api.createDevice({ name: 'Boiler', code: 'B-1' })).id;
    item = ((await api.post('/api/items/', { name: 'Pressure', device })).body as { id: number }).id;
    plan = (
      (await api.post('/api/plans/', { name: 'Daily', devices: [device], frequency: 'daily' })).body as {
        id: number;
      }
    ).id;
  });
  afterAll(() => api?.close());

  it('a failed check opens an action by itself, as its plan says (on fail by default, on warn, never)', async () => {
    expect((await api.get(`/api/plans/${plan}/`)).body).toMatchObject({ open_action_on: 'fail' });
    const failed = await record({ status: 'fail', value: '3.1', note: 'leaks' });
    const [opened] = await actionsOf(failed);
    expect(opened).toMatchObject({
      title: 'Pressure — Boiler (B-1): fail',
      description: 'Value: 3.1\nNote: leaks',
      record: failed,
      device,
      item,
      assignee: null,
      due_date: null,
      priority: 'high',
      status: 'open',
      overdue: false,
      created_by: 'admin',
    });
    expect(opened?.transitions).toEqual([
      { from: null, to: 'open', by: 'admin', at: expect.stringMatching(TIMESTAMP) },
    ]);
    expect(await actionsOf(await record({ status: 'warn' }))).toEqual([]);
    expect(await actionsOf(await record({ status: 'ok' }))).toEqual([]);

    expect((await api.patch(`/api/plans/${plan}/`, { open_action_on: 'warn' })).body).toMatchObject({
      open_action_on: 'warn',
    });
    expect(await actionsOf(await record({ status: 'warn' }))).toMatchObject([{ priority: 'medium' }]);
    expect((await api.patch(`/api/plans/${plan}/`, { open_action_on: 'never' })).status).toBe(200);
    expect(await actionsOf(await record({ status: 'fail' }))).toEqual([]);
    expect((await api.patch(`/api/plans/${plan}/`, { open_action_on: 'always' })).body).toEqual({
      open_action_on: ['"always" is not a valid choice.'],
    });
    // Without a plan in the record: the plans covering the device decide (here: never).
    expect(await actionsOf(await record({ status: 'fail', plan: null }))).toEqual([]);
    expect((await api.patch(`/api/plans/${plan}/`, { open_action_on: 'fail' })).status).toBe(200);
    // A device no plan covers: on fail, the default.
    const loose = await api.createDevice();
    const looseRecord = (await api.post('/api/records/', { status: 'fail', device: loose.id })).body as {
      id: number;
    };
    expect(await actionsOf(looseRecord.id)).toMatchObject([
      { device: loose.id, item: null, title: `Pump (${loose.code}): fail` },
    ]);
  });

  it('supervisors open one from any record, with DRF field errors; inspectors may not', async () => {
    const from = await record({ status: 'ok' });
    const created = await api.post('/api/actions/', {
      title: '  Replace the gasket  ',
      record: from,
      assignee: ivy.id,
      due_date: '2026-12-01',
      priority: 'low',
      status: 'done', // read-only on creation: a new action is open
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body as object)).toEqual([
      'id',
      'title',
      'description',
      'record',
      'device',
      'item',
      'assignee',
      'assignee_username',
      'assignee_team',
      'assignee_team_name',
      'due_date',
      'priority',
      'status',
      'overdue',
      'close_out_note',
      'close_out_photo',
      'created_at',
      'created_by',
      'updated_at',
      'transitions',
    ]);
    expect(created.body).toMatchObject({
      title: 'Replace the gasket',
      description: '',
      record: from,
      device,
      item,
      assignee: ivy.id,
      assignee_username: 'ivy',
      due_date: '2026-12-01',
      priority: 'low',
      status: 'open',
      close_out_note: '',
      close_out_photo: null,
    });
    expect((created.body as Action).created_at).toMatch(TIMESTAMP);
    expect(created.headers.get('content-type')).toBe('application/json');

    const refused = await api.post('/api/actions/', { title: 'x' }, { token: ivy.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(DENIED);
    expect((await api.post('/api/actions/', {})).body).toEqual({ title: ['This field is required.'] });
    const bad = await api.post('/api/actions/', {
      title: 'x',
      record: 999999,
      assignee: 'abc',
      due_date: '2026-02-30',
      priority: 'urgent',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      record: ['Invalid pk "999999" - object does not exist.'],
      assignee: ['Incorrect type. Expected pk value, received str.'],
      due_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
      priority: ['"urgent" is not a valid choice.'],
    });
    // Without a record: an action about nothing in particular.
    expect((await api.post('/api/actions/', { title: 'Tidy the store' })).body).toMatchObject({
      record: null,
      device: null,
      item: null,
      priority: 'medium',
    });
  });

  it('walks open → in_progress → done (note and photo) → verified, by the rules, with who and when', async () => {
    const from = await record({ status: 'ok' });
    const id = (
      (await api.post('/api/actions/', { title: 'Fix', record: from, assignee: ivy.id })).body as Action
    ).id;
    const path = `/api/actions/${id}/`;

    expect((await api.patch(path, { status: 'in_progress' }, { token: otto.token })).body).toEqual(DENIED);
    const editing = await api.patch(path, { title: 'Mine now' }, { token: ivy.token });
    expect(editing.status).toBe(403);
    expect(editing.body).toEqual({
      detail: 'Only a supervisor may change this action; the assignee may move it and close it out.',
    });
    const started = await api.patch(path, { status: 'in_progress' }, { token: ivy.token });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: 'in_progress' });
    // A PUT that sends the fields unchanged is the assignee's too.
    const put = await api.put(path, { title: 'Fix', status: 'in_progress' }, { token: ivy.token });
    expect(put.status).toBe(200);
    const skipping = await api.patch(path, { status: 'verified' });
    expect(skipping.status).toBe(400);
    expect(skipping.body).toEqual({ status: ['An action cannot move from "in_progress" to "verified".'] });
    expect((await api.patch(path, { status: 'finished' })).body).toEqual({
      status: ['"finished" is not a valid choice.'],
    });

    const form = new FormData();
    form.set('status', 'done');
    form.set('close_out_note', 'Gasket replaced');
    form.set('close_out_photo', new Blob([PNG], { type: 'image/png' }), 'after.png');
    const done = await api.call('PATCH', path, { raw: form, token: ivy.token });
    expect(done.status).toBe(200);
    const closed = done.body as Action;
    expect(closed).toMatchObject({ status: 'done', close_out_note: 'Gasket replaced' });
    expect(closed.close_out_photo).toMatch(new RegExp(`^${api.url}/media/photos/[0-9a-f]{32}\\.png$`));
    const photo = await fetch(closed.close_out_photo ?? '');
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(PNG);
    const notImage = new FormData();
    notImage.set('close_out_photo', new Blob(['hello'], { type: 'image/png' }), 'x.png');
    expect((await api.call('PATCH', path, { raw: notImage, token: ivy.token })).body).toEqual({
      close_out_photo: [
        'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
      ],
    });

    const verifyByAssignee = await api.patch(path, { status: 'verified' }, { token: ivy.token });
    expect(verifyByAssignee.status).toBe(403);
    expect(verifyByAssignee.body).toEqual({ detail: 'Only a supervisor may verify an action.' });
    const verified = await api.patch(path, { status: 'verified' });
    expect(verified.status).toBe(200);
    expect((verified.body as Action).transitions.map(({ from, to, by }) => [from, to, by])).toEqual([
      [null, 'open', 'admin'],
      ['open', 'in_progress', 'ivy'],
      ['in_progress', 'done', 'ivy'],
      ['done', 'verified', 'admin'],
    ]);

    // Verified: read-only for everyone, comments included.
    const READ_ONLY = { detail: 'A verified action is read-only.' };
    expect((await api.patch(path, { title: 'Changed' })).body).toEqual(READ_ONLY);
    expect((await api.patch(path, { status: 'in_progress' })).status).toBe(403);
    expect((await api.put(path, { title: 'Fix' })).body).toEqual(READ_ONLY);
    expect((await api.post(`${path}comments/`, { text: 'one more thing' })).body).toEqual(READ_ONLY);
    expect((await api.get(path)).body).toMatchObject({ status: 'verified', title: 'Fix' });
  });

  it('supervisors cancel and reopen; the assignee may not', async () => {
    const id = ((await api.post('/api/actions/', { title: 'Maybe', assignee: ivy.id })).body as Action).id;
    const path = `/api/actions/${id}/`;
    expect((await api.patch(path, { status: 'cancelled' }, { token: ivy.token })).body).toEqual({
      detail: 'Only a supervisor may cancel an action or reopen a cancelled one.',
    });
    expect((await api.patch(path, { status: 'cancelled' })).body).toMatchObject({ status: 'cancelled' });
    expect((await api.patch(path, { status: 'open' }, { token: ivy.token })).status).toBe(403);
    expect((await api.patch(path, { status: 'open' })).body).toMatchObject({ status: 'open' });
  });

  it('comments: the assignee and supervisors write, everyone reads, oldest first', async () => {
    const id = ((await api.post('/api/actions/', { title: 'Talk', assignee: ivy.id })).body as Action).id;
    const comments = `/api/actions/${id}/comments/`;
    const first = await api.post(comments, { text: 'Parts ordered' }, { token: ivy.token });
    expect(first.status).toBe(201);
    expect(Object.keys(first.body as object)).toEqual(['id', 'action', 'text', 'author', 'created_at']);
    expect(first.body).toMatchObject({ action: id, text: 'Parts ordered', author: 'ivy' });
    expect((await api.post(comments, { text: 'Thanks' })).status).toBe(201);
    expect((await api.post(comments, { text: 'Me too' }, { token: otto.token })).body).toEqual(DENIED);
    expect((await api.post(comments, { text: '  ' })).body).toEqual({
      text: ['This field may not be blank.'],
    });
    const listed = await api.get(comments, { token: otto.token });
    expect(listed.status).toBe(200);
    expect((listed.body as Array<{ text: string }>).map((comment) => comment.text)).toEqual([
      'Parts ordered',
      'Thanks',
    ]);
    expect(listed.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect((await api.get('/api/actions/999999/comments/')).status).toBe(404);
    const options = await api.call('OPTIONS', comments);
    expect(Object.keys((options.body as { actions: { POST: object } }).actions.POST)).toEqual([
      'id',
      'action',
      'text',
      'author',
      'created_at',
    ]);
  });

  it('is never deleted: DELETE is 405; a deleted record leaves the action about its device', async () => {
    const from = await record({ status: 'ok' });
    const id = ((await api.post('/api/actions/', { title: 'Keep', record: from })).body as Action).id;
    const deleted = await api.delete(`/api/actions/${id}/`);
    expect(deleted.status).toBe(405);
    expect(deleted.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(deleted.headers.get('allow')).toBe('GET, PUT, PATCH, HEAD, OPTIONS');
    expect((await api.delete(`/api/records/${from}/`)).status).toBe(204);
    expect((await api.get(`/api/actions/${id}/`)).body).toMatchObject({ record: null, device, item });
  });

  it('lists with filters (status, assignee, overdue), pagination, ordering, OPTIONS, in DRF shapes', async () => {
    const past = (
      (await api.post('/api/actions/', { title: 'Late', assignee: otto.id, due_date: '2020-01-01' }))
        .body as Action
    ).id;
    const future = (
      (await api.post('/api/actions/', { title: 'Later', assignee: otto.id, due_date: '2999-01-01' }))
        .body as Action
    ).id;
    const ids = async (query: string) =>
      ((await api.get(`/api/actions/?${query}`)).body as { results: Action[] }).results.map(
        (action) => action.id,
      );
    expect(await ids(`assignee=${otto.id}`)).toEqual([future, past]); // newest first
    expect(await ids(`assignee=${otto.id}&ordering=due_date`)).toEqual([past, future]);
    expect(await ids(`assignee=${otto.id}&overdue=true`)).toEqual([past]);
    expect(await ids(`assignee=${otto.id}&overdue=false`)).toEqual([future]);
    expect((await api.get(`/api/actions/${past}/`)).body).toMatchObject({ overdue: true });
    expect((await api.patch(`/api/actions/${past}/`, { status: 'done' })).body).toMatchObject({
      overdue: false,
    });
    expect(await ids(`assignee=${otto.id}&status=done`)).toEqual([past]);
    const page = await api.get(`/api/actions/?assignee=${otto.id}&page_size=1`);
    expect(page.body).toMatchObject({
      count: 2,
      next: `${api.url}/api/actions/?assignee=${otto.id}&page=2&page_size=1`,
      previous: null,
    });
    expect((await api.get('/api/actions/?page=99')).body).toEqual({ detail: 'Invalid page.' });
    const bad = await api.get('/api/actions/?status=late&assignee=x');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      status: ['Select a valid choice. late is not one of the available choices.'],
      assignee: ['Select a valid choice. That choice is not one of the available choices.'],
    });
    // Inspectors read actions.
    expect((await api.get('/api/actions/', { token: ivy.token })).status).toBe(200);
    const options = await api.call('OPTIONS', '/api/actions/');
    expect(options.body).toMatchObject({ name: 'Action List' });
    expect(
      (options.body as { actions: { POST: Record<string, { choices?: unknown }> } }).actions.POST.status,
    ).toMatchObject({
      choices: expect.arrayContaining([{ value: 'in_progress', display_name: 'In Progress' }]),
    });
    expect((await api.call('OPTIONS', `/api/actions/${past}/`)).body).toMatchObject({
      name: 'Action Instance',
    });
    expect((await api.call('POST', `/api/actions/${past}/`)).status).toBe(405);
  });
});
