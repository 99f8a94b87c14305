import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { SmtpReceiver } from '@fieldops/testing/smtp-receiver';
import { TestApi } from './support/test-api';
import { eventually } from './support/webhook-receiver';

const run = promisify(execFile);
const PUBLIC_URL = 'https://fieldops.example.test';

/** The PDF's text as pdf-parse reads it (in a child process: `support/read-pdf.mjs`). */
async function pdfText(bytes: Buffer): Promise<{ text: string; pages: number }> {
  const directory = await mkdtemp(join(tmpdir(), 'monthly-pdf-'));
  const file = join(directory, `${randomUUID()}.pdf`);
  try {
    await writeFile(file, bytes);
    const { stdout } = await run(process.execPath, [join(__dirname, 'support', 'read-pdf.mjs'), file], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return JSON.parse(stdout) as { text: string; pages: number };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The calendar month before the current UTC month: its first day, last day and `YYYY-MM`. */
function previousUtcMonth(now = new Date()) {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  const day = (date: Date) => date.toISOString().slice(0, 10);
  return {
    start: day(first),
    end: day(last),
    label: day(first).slice(0, 7),
    middle: `${day(first).slice(0, 8)}15T12:00:00Z`,
  };
}

/**
 * Monthly report subscriptions (docs/protocols/notifications.md): the DRF resource, and the schedule that emails the
 * previous month's PDF to the list once, through a real SMTP server (`smtp-server`, started here), with two replicas.
 */
describe('monthly report subscriptions', () => {
  let smtp: SmtpReceiver;
  let api: TestApi;
  let db: Client;
  let plan = 0;
  let device = { id: 0, code: '' };

  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    api = await TestApi.start('inspection_report_subscriptions', {
      INSPECTION_EVENTS_RUNNER: 'true',
      INSPECTION_EVENTS_POLL_MS: '100',
      INSPECTION_SCHEDULED_EVENTS_INTERVAL_MS: '200',
      INSPECTION_SMTP_HOST: '127.0.0.1',
      INSPECTION_SMTP_PORT: String(smtp.port),
      INSPECTION_SMTP_TLS: 'none',
      INSPECTION_SMTP_USER: 'fieldops',
      INSPECTION_SMTP_PASSWORD: 'smtp secret',
      INSPECTION_SMTP_FROM: 'FieldOps <fieldops@example.test>',
      INSPECTION_PUBLIC_URL: PUBLIC_URL,
      INSPECTION_TIME_ZONE: 'UTC',
    });
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    device = await api.createDevice({ name: 'Boiler feed pump', location: 'Hall B' });
    const item = await api.post('/api/items/', { name: 'Discharge pressure', device: device.id });
    const created = await api.post('/api/plans/', {
      name: 'Boiler house round',
      frequency: 'daily',
      devices: [device.id],
    });
    plan = (created.body as { id: number }).id;
    const record = await api.post('/api/records/', {
      device: device.id,
      item: (item.body as { id: number }).id,
      plan,
      status: 'fail',
      value: '9 bar',
      note: 'Seal leaking',
    });
    expect(record.status).toBe(201);
    // Checked in the middle of last month (the month the reports cover).
    await db.query(`UPDATE "check_records" SET "checked_at" = $2 WHERE "id" = $1`, [
      (record.body as { id: number }).id,
      previousUtcMonth().middle,
    ]);
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
    await smtp?.close();
  });

  it('creates, lists, shows, changes and deletes a subscription, with defaults and audit entries', async () => {
    const created = await api.post('/api/report-subscriptions/', {
      recipients: ['Auditor@Example.test', 'auditor@example.test', ' plant@example.test '],
      plan,
    });
    expect(created.status).toBe(201);
    const body = created.body as Record<string, unknown>;
    expect(body).toMatchObject({
      recipients: ['auditor@example.test', 'plant@example.test'],
      plan,
      device: null,
      language: 'en',
      time_zone: 'UTC',
      day_of_month: 1,
      send_time: '07:00:00',
      active: true,
      created_by: 'admin',
      last_send: null,
    });
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 7));
    if (next <= now) next.setUTCMonth(next.getUTCMonth() + 1);
    expect(body.next_send_at).toBe(next.toISOString());
    const id = body.id as number;

    const list = await api.get('/api/report-subscriptions/?page_size=1');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null });
    expect((await api.get(`/api/report-subscriptions/${id}/`)).body).toEqual(body);

    const patched = await api.patch(`/api/report-subscriptions/${id}/`, {
      device: device.id,
      language: 'zh-CN',
      time_zone: 'Asia/Shanghai',
      day_of_month: 3,
      send_time: '08:30',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      plan: null,
      device: device.id,
      day_of_month: 3,
      send_time: '08:30:00',
    });

    const options = await api.call('OPTIONS', '/api/report-subscriptions/');
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      name: 'Report Subscription List',
      actions: {
        POST: { recipients: { type: 'list', child: { type: 'email' } }, send_time: { type: 'time' } },
      },
    });

    const audit = await api.get(`/api/audit/?resource=report_subscription&resource_id=${id}`);
    expect(audit.status).toBe(200);
    expect(
      (audit.body as { results: Array<{ event: string }> }).results.map((entry) => entry.event).sort(),
    ).toEqual(['created', 'updated']);

    expect((await api.delete(`/api/report-subscriptions/${id}/`)).status).toBe(204);
    expect((await api.get(`/api/report-subscriptions/${id}/`)).status).toBe(404);
  });

  it('answers 400 with field errors for bad input, 403 to an inspector', async () => {
    const bad = await api.post('/api/report-subscriptions/', {
      recipients: ['ok@example.test', 'not an address'],
      plan,
      language: 'fr',
      time_zone: 'Mars/Olympus',
      day_of_month: 31,
      send_time: '25:00',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      recipients: ['Item 1: Enter a valid email address.'],
      language: ['"fr" is not a valid choice.'],
      time_zone: ['A valid timezone is required.'],
      day_of_month: ['Ensure this value is less than or equal to 28.'],
      send_time: ['Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].'],
    });
    const many = await api.post('/api/report-subscriptions/', {
      recipients: Array.from({ length: 21 }, (_, index) => `p${index}@example.test`),
      plan,
    });
    expect(many.body).toEqual({ recipients: ['Ensure this field has no more than 20 elements.'] });
    expect((await api.post('/api/report-subscriptions/', { recipients: ['a@example.test'] })).body).toEqual({
      non_field_errors: ['Choose a plan (its rounds) or a device (its history).'],
    });
    expect(
      (
        await api.post('/api/report-subscriptions/', {
          recipients: ['a@example.test'],
          plan,
          device: device.id,
        })
      ).body,
    ).toEqual({ non_field_errors: ['Choose a plan or a device, not both.'] });
    expect(
      (await api.post('/api/report-subscriptions/', { recipients: ['a@example.test'], plan: 999999 })).body,
    ).toEqual({ plan: ['Invalid pk "999999" - object does not exist.'] });
    expect((await api.post('/api/report-subscriptions/', [])).status).toBe(400);

    await api.post('/api/users/', { username: 'ivy', password: 'ivy password', role: 'inspector' });
    const inspector = (await api.tokens('ivy', 'ivy password')).access;
    expect((await api.get('/api/report-subscriptions/', { token: inspector })).status).toBe(403);
  });

  it("emails last month's PDF once to the list, with two replicas running", async () => {
    const month = previousUtcMonth();
    const subscribe = async (fields: Record<string, unknown>) => {
      const created = await api.post('/api/report-subscriptions/', {
        time_zone: 'UTC',
        send_time: '00:00',
        ...fields,
      });
      expect(created.status).toBe(201);
      return (created.body as { id: number }).id;
    };
    const round = await subscribe({ recipients: ['auditor@example.test', 'plant@example.test'], plan });
    const history = await subscribe({
      recipients: ['li@example.test'],
      device: device.id,
      language: 'zh-CN',
    });
    const second = await api.restartLike();
    try {
      // Made before this month's send time (00:00 UTC on the 1st): the send is due now.
      await db.query(`UPDATE "report_subscriptions" SET "created_at" = now() - interval '40 days'`);
      const sent = await eventually(async () => {
        const rows = await db.query<{
          subscription_id: number;
          status: string;
          attempts: number;
          month: string;
        }>(
          `SELECT "subscription_id", "status", "attempts", to_char("month", 'YYYY-MM-DD') AS "month"
           FROM "report_subscription_sends" ORDER BY "subscription_id"`,
        );
        return rows.rows.length === 2 && rows.rows.every((row) => row.status === 'sent')
          ? rows.rows
          : undefined;
      });
      expect(sent).toEqual([
        { subscription_id: round, status: 'sent', attempts: 1, month: month.start },
        { subscription_id: history, status: 'sent', attempts: 1, month: month.start },
      ]);

      // More schedule runs of both replicas go by: still one email each.
      const ranAt = async () =>
        (
          await db.query<{ ran_at: Date }>(`SELECT "ran_at" FROM "scheduled_runs"`)
        ).rows[0]?.ran_at.getTime() ?? 0;
      for (let runs = 0; runs < 3; runs += 1) {
        const before = await ranAt();
        await eventually(async () => ((await ranAt()) > before ? true : undefined));
      }
      expect(smtp.messages).toHaveLength(2);

      const [english] = smtp.to('auditor@example.test');
      if (!english) throw new Error('the round report arrived');
      expect(english.to.sort()).toEqual(['auditor@example.test', 'plant@example.test']);
      expect(english.mail.subject).toBe(`Monthly report ${month.label}: Boiler house round`);
      expect(english.mail.text).toContain(
        `Attached is the inspection report of the rounds of plan "Boiler house round" for ${month.label}`,
      );
      const [attachment] = english.mail.attachments;
      expect(attachment?.contentType).toBe('application/pdf');
      expect(attachment?.filename).toBe(`plan-${plan}-${month.start}.pdf`);
      const pdf = await pdfText(attachment?.content ?? Buffer.alloc(0));
      expect(pdf.text).toContain('Boiler house round');
      expect(pdf.text).toContain(`${month.start} – ${month.end}`);
      expect(pdf.text).toContain('9 bar');

      const [chinese] = smtp.to('li@example.test');
      if (!chinese) throw new Error('the device report arrived');
      expect(chinese.mail.subject).toBe(`月度报告 ${month.label}：${device.code} Boiler feed pump`);
      const history_pdf = await pdfText(chinese.mail.attachments[0]?.content ?? Buffer.alloc(0));
      expect(history_pdf.text).toContain(device.code);
      expect(history_pdf.text).toContain(`${month.start} – ${month.end}`);

      // The subscription shows its last send, with the verification id the PDF carries.
      const shown = await api.get(`/api/report-subscriptions/${round}/`);
      const lastSend = (shown.body as { last_send: { month: string; status: string; report: string } })
        .last_send;
      expect(lastSend).toMatchObject({ month: month.label, status: 'sent', attempts: 1, last_error: '' });
      expect(english.mail.text).toContain(`${PUBLIC_URL}/api/reports/${lastSend.report}/`);
      expect(pdf.text).toContain(lastSend.report);
    } finally {
      await second.close();
    }
  });
});
