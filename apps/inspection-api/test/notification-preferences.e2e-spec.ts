import { TestApi } from './support/test-api';

/** `/api/users/me/notifications/` and `/api/users/{id}/notifications/` (docs/protocols/notifications.md). */
describe('notification preferences', () => {
  let api: TestApi;
  let ivy: { id: number; token: string };

  beforeAll(async () => {
    api = await TestApi.start('inspection_notification_preferences');
    const created = await api.post('/api/users/', { username: 'ivy', password: 'ivy password' });
    ivy = {
      id: (created.body as { id: number }).id,
      token: (await api.tokens('ivy', 'ivy password')).access,
    };
  });
  afterAll(() => api?.close());

  it("shows a person's role defaults until they choose", async () => {
    const mine = await api.get('/api/users/me/notifications/', { token: ivy.token });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('allow')).toBe('GET, PUT, PATCH, HEAD, OPTIONS');
    expect(mine.body).toEqual({
      user: ivy.id,
      events: ['action.assigned', 'check.due', 'check.overdue', 'action.overdue'],
      quiet_hours_start: null,
      quiet_hours_end: null,
      time_zone: null,
      reminder_time: null,
      email: null,
      language: null,
      email_digest: true,
      chat: true,
      updated_at: null,
    });
    const admin = await api.get('/api/users/me/notifications/');
    expect((admin.body as { events: string[] }).events).toEqual([
      'record.failed',
      'action.done',
      'check.overdue',
      'action.overdue',
    ]);
  });

  it('PATCH changes some fields, in the canonical order and form; PUT replaces', async () => {
    const patched = await api.patch(
      '/api/users/me/notifications/',
      {
        events: ['check.due', 'record.failed'],
        quiet_hours_start: '22:00',
        quiet_hours_end: '07:00',
        time_zone: 'Asia/Shanghai',
      },
      { token: ivy.token },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      events: ['record.failed', 'check.due'],
      quiet_hours_start: '22:00:00',
      quiet_hours_end: '07:00:00',
      time_zone: 'Asia/Shanghai',
      reminder_time: null,
    });
    expect((patched.body as { updated_at: string }).updated_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const reminder = await api.patch(
      '/api/users/me/notifications/',
      { reminder_time: '08:30' },
      { token: ivy.token },
    );
    expect(reminder.body).toMatchObject({ reminder_time: '08:30:00', quiet_hours_start: '22:00:00' });

    const put = await api.put('/api/users/me/notifications/', { events: [] }, { token: ivy.token });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      events: [],
      quiet_hours_start: null,
      time_zone: null,
      reminder_time: null,
    });
    expect((await api.put('/api/users/me/notifications/', {}, { token: ivy.token })).body).toEqual({
      events: ['This field is required.'],
    });
  });

  it('answers bad input with DRF field errors', async () => {
    const bad = await api.patch(
      '/api/users/me/notifications/',
      {
        events: ['record.failed', 'nope'],
        quiet_hours_start: '25:00',
        reminder_time: 8,
        time_zone: 'Mars/Olympus',
      },
      { token: ivy.token },
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      events: ['"nope" is not a valid choice.'],
      quiet_hours_start: ['Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].'],
      reminder_time: ['Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].'],
      time_zone: ['A valid timezone is required.'],
    });
    expect(
      (await api.patch('/api/users/me/notifications/', { events: 'record.failed' }, { token: ivy.token }))
        .body,
    ).toEqual({ events: ['Expected a list of items but got type "str".'] });
    expect(
      (await api.patch('/api/users/me/notifications/', { quiet_hours_start: '22:00' }, { token: ivy.token }))
        .body,
    ).toEqual({ non_field_errors: ['Set both quiet_hours_start and quiet_hours_end, or neither.'] });
    const notJson = await api.call('PATCH', '/api/users/me/notifications/', {
      raw: '[1]',
      headers: { 'content-type': 'application/json' },
      token: ivy.token,
    });
    expect(notJson.status).toBe(400);
  });

  it("lets supervisors reach anyone's, and nobody else", async () => {
    const read = await api.get(`/api/users/${ivy.id}/notifications/`);
    expect(read.status).toBe(200);
    expect((read.body as { user: number }).user).toBe(ivy.id);
    const changed = await api.patch(`/api/users/${ivy.id}/notifications/`, { events: ['check.overdue'] });
    expect((changed.body as { events: string[] }).events).toEqual(['check.overdue']);
    expect((await api.get(`/api/users/${ivy.id}/notifications/`, { token: ivy.token })).status).toBe(403);
    expect((await api.get('/api/users/999999/notifications/')).status).toBe(404);
    expect((await api.get('/api/users/me/notifications/', { token: false })).status).toBe(401);
    const deleted = await api.delete('/api/users/me/notifications/', { token: ivy.token });
    expect(deleted.status).toBe(405);
    expect(deleted.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
  });
});
