import { Client } from 'pg';
import { SmtpReceiver } from '@fieldops/testing/smtp-receiver';
import { TestApi } from './support/test-api';
import { eventually } from './support/webhook-receiver';

const CONSOLE = 'https://fieldops.example.test/console/';

/**
 * Email notifications (docs/protocols/notifications.md) through nodemailer to a real SMTP server (`smtp-server`,
 * started here as the operator's mail server), read back with mailparser: the alert, in each person's language,
 * with a plain-text and an HTML part, once; quiet hours; the daily digest.
 */
describe('email notifications', () => {
  let smtp: SmtpReceiver;
  let api: TestApi;
  let db: Client;
  const users: Record<string, number> = {};
  /** When the quiet hours were set (they run from the hour before to two hours after). */
  let quietSetAt = new Date();

  const createUser = async (username: string, role: string): Promise<number> => {
    const created = await api.post('/api/users/', { username, password: `${username} password`, role });
    expect(created.status).toBe(201);
    return (created.body as { id: number }).id;
  };

  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    api = await TestApi.start('inspection_email_notifications', {
      INSPECTION_EVENTS_RUNNER: 'true',
      INSPECTION_EVENTS_POLL_MS: '100',
      INSPECTION_SCHEDULED_EVENTS_INTERVAL_MS: '200',
      INSPECTION_SMTP_HOST: '127.0.0.1',
      INSPECTION_SMTP_PORT: String(smtp.port),
      INSPECTION_SMTP_TLS: 'none',
      INSPECTION_SMTP_USER: 'fieldops',
      INSPECTION_SMTP_PASSWORD: 'smtp secret',
      INSPECTION_SMTP_FROM: 'FieldOps <fieldops@example.test>',
      INSPECTION_CONSOLE_URL: CONSOLE,
    });
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    users.sam = await createUser('sam', 'supervisor');
    users.li = await createUser('li', 'supervisor');
    users.quiet = await createUser('quinn', 'supervisor');
    users.ivy = await createUser('ivy', 'inspector');
    quietSetAt = new Date();
    const hour = quietSetAt.getUTCHours();
    const pad = (value: number) => String(value).padStart(2, '0');
    for (const [name, preferences] of Object.entries({
      sam: { email: 'sam@example.test', email_digest: false },
      li: { email: 'li@example.test', language: 'zh-CN', email_digest: false },
      // Quiet from an hour ago until two hours on, in UTC: the alert waits.
      quiet: {
        email: 'quinn@example.test',
        email_digest: false,
        time_zone: 'UTC',
        quiet_hours_start: `${pad((hour + 23) % 24)}:00`,
        quiet_hours_end: `${pad((hour + 2) % 24)}:00`,
      },
      ivy: { email: 'ivy@example.test', email_digest: false },
    })) {
      const patched = await api.patch(`/api/users/${users[name]}/notifications/`, preferences);
      expect(patched.status).toBe(200);
    }
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
    await smtp?.close();
  });

  it('refuses an address that is not one', async () => {
    const wrong = await api.patch('/api/users/me/notifications/', { email: 'not an address' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ email: ['Enter a valid email address.'] });
    const language = await api.patch('/api/users/me/notifications/', { language: 'fr' });
    expect(language.body).toEqual({ language: ['"fr" is not a valid choice.'] });
  });

  it('emails a failed check to the supervisors who chose it, once, in their language, text and HTML', async () => {
    const device = await api.createDevice({ name: 'Boiler feed pump' });
    const item = await api.post('/api/items/', { name: 'Discharge pressure', device: device.id });
    const record = await api.post('/api/records/', {
      device: device.id,
      item: (item.body as { id: number }).id,
      status: 'fail',
      value: '9 bar',
      note: 'Seal <leaking>',
    });
    expect(record.status).toBe(201);
    const recordId = (record.body as { id: number }).id;

    const [english] = await eventually(() =>
      smtp.to('sam@example.test').length ? smtp.to('sam@example.test') : undefined,
    );
    const [chinese] = await eventually(() =>
      smtp.to('li@example.test').length ? smtp.to('li@example.test') : undefined,
    );
    if (!english || !chinese) throw new Error('both arrived');
    expect(english.from).toBe('fieldops@example.test');
    expect(english.user).toBe('fieldops');
    expect(english.mail.subject).toBe(`Check failed: ${device.code} Boiler feed pump — Discharge pressure`);
    expect(english.mail.text).toContain('Value: 9 bar');
    expect(english.mail.text).toContain('Note: Seal <leaking>');
    expect(english.mail.text).toContain(`${CONSOLE}#/records/${recordId}/show`);
    expect(english.mail.html).toContain('Seal &lt;leaking&gt;');
    expect(english.mail.html).toContain(`href="${CONSOLE}#/records/${recordId}/show"`);
    expect(chinese.mail.subject).toBe(`检查故障：${device.code} Boiler feed pump — Discharge pressure`);
    expect(chinese.mail.text).toContain('读数：9 bar');
    expect(chinese.mail.html).toContain('lang="zh-CN"');

    // The inspector did not choose record.failed (nor may be told of it); the quiet one waits for the quiet hours' end.
    const rows = await db.query<{ username: string; status: string; send_at: Date }>(
      `SELECT u."username", n."status", n."send_at" FROM "notifications" n JOIN "users" u ON u."id" = n."user_id" ORDER BY u."username"`,
    );
    const byName = Object.fromEntries(rows.rows.map((row) => [row.username, row]));
    expect(Object.keys(byName).sort()).toEqual(['li', 'quinn', 'sam']);
    const end = new Date(quietSetAt);
    end.setUTCHours(end.getUTCHours() + 2, 0, 0, 0);
    expect(byName.quinn?.status).toBe('pending');
    expect(byName.quinn?.send_at.toISOString()).toBe(end.toISOString());
    expect(smtp.to('quinn@example.test')).toHaveLength(0);
    expect(smtp.to('ivy@example.test')).toHaveLength(0);

    // Several more polls and schedule runs later, still one email each.
    await eventually(async () =>
      (await db.query(`SELECT 1 FROM "notifications" WHERE "status" = 'sent'`)).rowCount === 2
        ? true
        : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.to('sam@example.test')).toHaveLength(1);
    expect(smtp.to('li@example.test')).toHaveLength(1);
  });

  it('sends the daily digest at the person’s time, once, listing what they were told', async () => {
    const patched = await api.patch(`/api/users/${users.sam}/notifications/`, {
      email_digest: true,
      reminder_time: '00:00',
      time_zone: 'UTC',
    });
    expect(patched.body).toMatchObject({ email_digest: true, email: 'sam@example.test' });
    const digest = await eventually(() =>
      smtp.to('sam@example.test').find((message) => message.mail.subject?.startsWith('Daily digest')),
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(digest.mail.subject).toBe(`Daily digest for ${today}: 1 notification`);
    expect(digest.mail.text).toContain('Check failed:');
    expect(digest.mail.html).toContain('Check failed:');
    // Later schedule runs send no second digest for the day.
    const runs = await db.query<{ ran_at: Date }>(`SELECT "ran_at" FROM "scheduled_runs"`);
    const before = runs.rows[0]?.ran_at.getTime() ?? 0;
    await eventually(async () => {
      const now = await db.query<{ ran_at: Date }>(`SELECT "ran_at" FROM "scheduled_runs"`);
      return (now.rows[0]?.ran_at.getTime() ?? 0) > before + 400 ? true : undefined;
    });
    expect(
      smtp.to('sam@example.test').filter((message) => message.mail.subject?.startsWith('Daily digest')),
    ).toHaveLength(1);
  });
});
