import { Client } from 'pg';
import { type ChatNotificationBody } from '../src/notifications/chat-handover';
import { verify } from '../src/webhooks/webhook-signature';
import { TestApi } from './support/test-api';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const CONSOLE = 'https://fieldops.example.test/console/';

/**
 * Notifications in the chat (docs/protocols/notifications.md): each is a `chat` row of `notifications`, decided by
 * the same audience and schedule rules as email, handed to the inspection bot (here a real HTTP server standing in
 * for it) signed the Standard Webhooks way, once.
 */
describe('chat notifications', () => {
  let bot: WebhookReceiver;
  let api: TestApi;
  let db: Client;
  const users: Record<string, number> = {};

  const createUser = async (username: string, role: string): Promise<number> => {
    const created = await api.post('/api/users/', { username, password: `${username} password`, role });
    expect(created.status).toBe(201);
    return (created.body as { id: number }).id;
  };
  const handedTo = (username: string): ChatNotificationBody[] =>
    bot
      .accepted()
      .map((body) => body as unknown as ChatNotificationBody)
      .filter((body) => body.recipient.username === username);

  beforeAll(async () => {
    bot = await WebhookReceiver.start();
    api = await TestApi.start('inspection_chat_notifications', {
      INSPECTION_EVENTS_RUNNER: 'true',
      INSPECTION_EVENTS_POLL_MS: '100',
      INSPECTION_SCHEDULED_EVENTS_INTERVAL_MS: '200',
      INSPECTION_CHAT_NOTIFICATIONS_URL: bot.url,
      INSPECTION_CHAT_NOTIFICATIONS_SECRET: SECRET,
      INSPECTION_CONSOLE_URL: CONSOLE,
    });
    db = new Client({ connectionString: api.database.url });
    await db.connect();
    users.sam = await createUser('sam', 'supervisor');
    users.li = await createUser('li', 'supervisor');
    users.off = await createUser('otto', 'supervisor');
    users.ivy = await createUser('ivy', 'inspector');
    expect((await api.patch(`/api/users/${users.li}/notifications/`, { language: 'zh-CN' })).status).toBe(
      200,
    );
    const off = await api.patch(`/api/users/${users.off}/notifications/`, { chat: false });
    expect(off.body).toMatchObject({ chat: false, email_digest: true });
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
    await bot?.close();
  });

  it('has the chat channel in the preferences: on by default, a boolean', async () => {
    const mine = await api.get(`/api/users/${users.ivy}/notifications/`);
    expect(mine.body).toMatchObject({ chat: true });
    const wrong = await api.patch('/api/users/me/notifications/', { chat: 'sometimes' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ chat: ['Must be a valid boolean.'] });
    const put = await api.put(`/api/users/${users.ivy}/notifications/`, { events: ['check.due'] });
    expect(put.body).toMatchObject({ chat: true, events: ['check.due'] });
  });

  it('hands a failed check to the bot for each supervisor in the chat, signed, once', async () => {
    const device = await api.createDevice({ name: 'Boiler feed pump' });
    const item = await api.post('/api/items/', { name: 'Discharge pressure', device: device.id });
    const record = await api.post('/api/records/', {
      device: device.id,
      item: (item.body as { id: number }).id,
      status: 'fail',
      value: '9 bar',
      note: 'Seal leaking',
    });
    expect(record.status).toBe(201);
    const recordId = (record.body as { id: number }).id;

    const [english] = await eventually(() => (handedTo('sam').length ? handedTo('sam') : undefined));
    const [chinese] = await eventually(() => (handedTo('li').length ? handedTo('li') : undefined));
    if (!english || !chinese) throw new Error('both handed over');
    expect(english).toMatchObject({
      type: 'record.failed',
      recipient: { id: users.sam, username: 'sam', role: 'supervisor', language: 'en' },
      data: { id: recordId, status: 'fail' },
      names: { item: 'Discharge pressure' },
      message: {
        title: `Check failed: ${device.code} Boiler feed pump — Discharge pressure`,
        link: `${CONSOLE}#/records/${recordId}/show`,
        link_label: 'Open in the console',
      },
    });
    expect(english.message.lines).toContain('Value: 9 bar');
    expect(chinese.message.title).toBe(`检查故障：${device.code} Boiler feed pump — Discharge pressure`);
    const delivery = bot.received.find((received) => received.id === `notification_${english.id}`);
    if (!delivery) throw new Error('received');
    expect(
      verify(
        SECRET,
        { id: delivery.id, timestamp: delivery.timestamp, signature: delivery.signature },
        delivery.body,
      ),
    ).toBe(true);
    // The chat turned off: no row; the inspector may not be told of record.failed.
    expect(handedTo('otto')).toHaveLength(0);
    expect(handedTo('ivy')).toHaveLength(0);
    const rows = await db.query<{ username: string; channel: string }>(
      `SELECT u."username", n."channel" FROM "notifications" n JOIN "users" u ON u."id" = n."user_id"
       WHERE n."channel" = 'chat' ORDER BY u."username"`,
    );
    expect(rows.rows.map((row) => row.username)).not.toContain('otto');
    await eventually(async () =>
      (await db.query(`SELECT 1 FROM "notifications" WHERE "channel" = 'chat' AND "status" = 'pending'`))
        .rowCount === 0
        ? true
        : undefined,
    );
    expect(handedTo('sam')).toHaveLength(1);
    expect(handedTo('li')).toHaveLength(1);
  });
});
