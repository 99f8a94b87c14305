import { Writable } from 'node:stream';
import { Webhook } from 'standardwebhooks';
import { createLogger } from '@fieldops/platform';
import { waitFor } from '@fieldops/testing';
import {
  fetchAjax,
  type PlainActivity as Activity,
  RecordingClient,
} from '@fieldops/testing/directline-client';
import { exchange, signedInChat } from './support/directline-chat';
import { INSPECTOR } from './support/platform';
import {
  NOTIFICATIONS_SECRET,
  type RunningInspectionPlatform,
  startInspectionPlatform,
} from './support/platform';

/** The bot's log lines, parsed. */
const logs: Array<Record<string, unknown>> = [];
const botLogger = createLogger({
  service: 'inspection-bot',
  level: 'info',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
});

/** Polls until `check` gives a value (the test's timeout bounds the wait). */
async function eventually<T>(check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface CardContent {
  body: Array<{ text: string; color?: string }>;
  actions: Array<{ type: string; title: string; url?: string; data?: unknown }>;
}
const cardsOf = (activities: Activity[]): CardContent[] =>
  activities
    .filter((activity) => activity.type === 'message')
    .flatMap((activity) => activity.attachments ?? [])
    .filter((attachment) => attachment.contentType === 'application/vnd.microsoft.card.adaptive')
    .map((attachment) => attachment.content as CardContent);

/**
 * Proactive messages (docs/decisions/proactive-messages.md) on the real platform: inspection-api's event runner
 * hands a supervisor's `record.failed` notification to the bot (signed), the bot starts a conversation with the
 * person through connector-gateway (botbuilder's createConversationAsync) and sends the card into the person's home
 * conversation, which the chat page's token opens: the stock Direct Line client, signed in as the chat page does,
 * finds the card waiting, once, also after a reconnect. A repeat of the same notification is not sent twice.
 */
describe('proactive notifications in the chat', () => {
  let platform: RunningInspectionPlatform;
  let supervisorId = 0;

  beforeAll(async () => {
    platform = await startInspectionPlatform({
      botLogger,
      apiEnvironment: ({ botPort }) => ({
        INSPECTION_EVENTS_RUNNER: 'true',
        INSPECTION_EVENTS_POLL_MS: '100',
        INSPECTION_CHAT_NOTIFICATIONS_URL: `http://127.0.0.1:${botPort}/api/notifications`,
        INSPECTION_CHAT_NOTIFICATIONS_SECRET: NOTIFICATIONS_SECRET,
        INSPECTION_CONSOLE_URL: 'https://fieldops.example.test/console/',
      }),
    });
    const created = await fetch(`${platform.api.url}/api/users/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await platform.client.accessToken()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        username: 'sam.supervisor',
        password: 'sam-supervisor-pass-1',
        role: 'supervisor',
      }),
    });
    expect(created.status).toBe(201);
    supervisorId = ((await created.json()) as { id: number }).id;
  }, 90_000);
  afterAll(async () => {
    await platform?.close();
  });

  const sentLog = (user: string) =>
    logs.filter((line) => line.msg === 'notification sent in the chat' && line.user === user);

  it('a failed check reaches the supervisor’s Direct Line conversation as a card, once', async () => {
    const device = await platform.client.findDeviceByCode('PUMP-001');
    const item = device?.check_items[0];
    if (!device || !item) throw new Error('demo data');
    const record = await platform.client.createRecord({
      device: device.id,
      item: item.id,
      status: 'fail',
      value: '9 bar',
      checked_by: 'alice.inspector',
    });
    const [sent] = await eventually(() =>
      sentLog(`dl_${supervisorId}`).length ? sentLog(`dl_${supervisorId}`) : undefined,
    );
    const conversationId = String(sent?.conversation);
    expect(conversationId).not.toBe('');
    // The conversation the bot started with the supervisor (connector-gateway's, in the store the relay reads).
    const conversation = await platform.store.get(conversationId);
    expect(conversation?.userId).toBe(`dl_${supervisorId}`);
    const activities = async (): Promise<Activity[]> =>
      (await platform.store.read(conversationId)).map((entry) => entry.activity as unknown as Activity);
    const [card] = await eventually(async () => {
      const cards = cardsOf(await activities());
      return cards.length ? cards : undefined;
    });
    // The title in the failure's colour, as the check cards draw a failure.
    expect(card?.body[0]).toMatchObject({
      text: `Check failed: ${device.code} ${device.name} — ${item.name}`,
      color: 'Attention',
    });
    expect(card?.body.map((block) => block.text)).toContain('Value: 9 bar');
    expect(card?.actions).toEqual([
      {
        type: 'Action.OpenUrl',
        title: 'Open in the console',
        url: `https://fieldops.example.test/console/#/records/${record.id}/show`,
      },
    ]);
    // Only supervisors are told of a failed check; and only once.
    expect(sentLog(`dl_${platform.inspectorId}`)).toHaveLength(0);
    expect(cardsOf(await activities())).toHaveLength(1);
    expect(sentLog(`dl_${supervisorId}`)).toHaveLength(1);
  }, 60_000);

  it('the card is waiting in the supervisor’s chat when they open it, once, also after the relay restarts', async () => {
    const [sent] = sentLog(`dl_${supervisorId}`);
    const conversationId = String(sent?.conversation);
    const supervisor = { username: 'sam.supervisor', password: 'sam-supervisor-pass-1' };
    const chat = await signedInChat(platform, supervisor);
    try {
      await waitFor(() => cardsOf(chat.client.activities).length === 1, 'the waiting card', 20_000);
      expect(cardsOf(chat.client.activities)[0]?.body[0]?.text).toMatch(/^Check failed: PUMP-001 /);
      // The chat page's token opened the conversation the bot sent the card to (the user's home conversation).
      expect(
        new Set(
          chat.client.activities.map(
            (activity) => (activity as { conversation?: { id?: string } }).conversation?.id,
          ),
        ),
      ).toEqual(new Set([conversationId]));
      // The relay restarts: the client reconnects from its watermark and gets nothing twice.
      const startRelay = await platform.stopRelay();
      await startRelay();
      // A message and the bot's answer, which arrives on the reconnected stream.
      await exchange(chat, { text: 'help' }, (reply) => reply.type === 'message');
      expect(cardsOf(chat.client.activities)).toHaveLength(1);
      const ids = chat.client.ids();
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      chat.client.end();
    }
    // Opened again (the next visit): the same conversation, the card in its history once.
    const again = await signedInChat(platform, supervisor);
    try {
      await waitFor(() => cardsOf(again.client.activities).length >= 1, 'the card in the history', 20_000);
      expect(cardsOf(again.client.activities)).toHaveLength(1);
    } finally {
      again.client.end();
    }
  }, 120_000);

  it('welcomes each sign-in in the home conversation, in its language; a reload rejoining it is not welcomed', async () => {
    const account = { username: 'hana.inspector', password: 'hana-inspector-pass-1' };
    await platform.createAccount(account.username, account.password);
    const signIn = async (): Promise<string> => {
      const session = await fetch(`${platform.bot.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(account),
      });
      expect(session.status).toBe(200);
      return (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    };
    const pageToken = async (cookie: string, body: Record<string, string>) => {
      const issued = await fetch(`${platform.bot.url}/api/directline/token`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(issued.status).toBe(200);
      return (await issued.json()) as {
        token: string;
        conversationId: string;
        domain: string;
        userId: string;
      };
    };
    const english = /^Hello hana\.inspector!/;
    const chinese = /^hana\.inspector，您好！/;
    const welcomes = (client: RecordingClient<Activity>, words: RegExp) =>
      client.activities.filter((activity) => activity.type === 'message' && words.test(activity.text ?? ''));
    const open = (issued: { token: string; domain: string }, options: Record<string, unknown>) =>
      new RecordingClient<Activity>({
        token: issued.token,
        domain: issued.domain,
        webSocket: true,
        ajax: fetchAjax,
        ...options,
      });

    // Signed in on the page in English: the conversation starts, the bot welcomes.
    const first = await pageToken(await signIn(), { locale: 'en-US' });
    const phone = open(first, { conversationStartProperties: { locale: 'en-US' } });
    try {
      await waitFor(() => welcomes(phone, english).length === 1, 'the welcome', 20_000);
    } finally {
      phone.end();
    }

    // A new sign-in elsewhere, in Chinese: the same home conversation, its history, and a welcome of its own.
    const cookie = await signIn();
    const second = await pageToken(cookie, { locale: 'zh-CN' });
    expect(second.conversationId).toBe(first.conversationId);
    const tablet = open(second, { conversationStartProperties: { locale: 'zh-CN' } });
    let token: string | undefined;
    try {
      await waitFor(() => welcomes(tablet, chinese).length === 1, 'the welcome in Chinese', 20_000);
      expect(welcomes(tablet, english)).toHaveLength(1);
      token = (tablet.client as unknown as { token: string }).token;
    } finally {
      tablet.end();
    }

    // The page reloaded: its token renewed for the same conversation, rejoined from the start of the history.
    const reloaded = await pageToken(cookie, {
      locale: 'zh-CN',
      conversationId: second.conversationId,
      token: token ?? second.token,
    });
    expect(reloaded.conversationId).toBe(second.conversationId);
    const chat = {
      client: open(reloaded, { conversationId: reloaded.conversationId, watermark: '' }),
      userId: reloaded.userId,
    };
    try {
      await waitFor(() => welcomes(chat.client, chinese).length === 1, 'the history', 20_000);
      // A message and the bot's answer: anything the rejoining set off would have come before it.
      await exchange(chat, { text: 'help' }, (reply) => reply.type === 'message');
      expect([welcomes(chat.client, english).length, welcomes(chat.client, chinese).length]).toEqual([1, 1]);
    } finally {
      chat.client.end();
    }
  }, 90_000);

  it('answers a repeated hand-over without sending again; refuses an unsigned one', async () => {
    const [sent] = sentLog(`dl_${supervisorId}`);
    const id = String(sent?.notification);
    const body = JSON.stringify({
      id,
      type: 'record.failed',
      occurred_at: new Date().toISOString(),
      recipient: { id: supervisorId, username: 'sam.supervisor', role: 'supervisor', language: 'en' },
      data: {},
      names: { device: null, item: null, plan: null },
      message: { title: 'Check failed', lines: [], link: null, link_label: 'Open in the console' },
    });
    const messageId = `notification_${id}`;
    const now = new Date();
    const signature = new Webhook(NOTIFICATIONS_SECRET).sign(messageId, now, body);
    const headers = {
      'content-type': 'application/json',
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    };
    const repeat = await fetch(`${platform.bot.url}/api/notifications`, {
      method: 'POST',
      headers: { ...headers, 'webhook-signature': signature },
      body,
    });
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual({ id, status: 'repeat' });
    const forged = await fetch(`${platform.bot.url}/api/notifications`, {
      method: 'POST',
      headers: { ...headers, 'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJl' },
      body,
    });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('Unauthorized');
    expect(sentLog(`dl_${supervisorId}`)).toHaveLength(1);
  });
  it('an action assigned to the inspector reaches their chat as a card whose button opens the action there', async () => {
    const token = await platform.client.accessToken();
    const created = await fetch(`${platform.api.url}/api/actions/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Tighten the flange',
        assignee: platform.inspectorId,
        due_date: '2999-01-01',
      }),
    });
    expect(created.status).toBe(201);
    const action = (await created.json()) as { id: number };
    const assignedCard = (content: CardContent) => content.body[0]?.text.startsWith('Action assigned to you');
    const chat = await signedInChat(platform, INSPECTOR);
    try {
      await waitFor(
        () => cardsOf(chat.client.activities).some(assignedCard),
        'the action card in the inspector’s chat',
        30_000,
      );
      const card = cardsOf(chat.client.activities).find(assignedCard);
      expect(card?.body.map((block) => block.text).join('\n')).toContain('Tighten the flange');
      // No status colour on a card that is not about a failed or warned check.
      expect(card?.body[0]?.color).toBeUndefined();
      expect(card?.actions).toEqual([
        {
          type: 'Action.Submit',
          title: 'Open the action',
          data: { command: 'open-action', actionId: action.id },
        },
      ]);
      // The button's submit, as Web Chat sends it: the action card with its inputs, in the chat.
      const opened = await exchange(chat, { value: card?.actions[0]?.data }, 1);
      const actionCard = cardsOf(opened)[0];
      expect(actionCard?.body[0]?.text).toBe('Tighten the flange');
      expect(actionCard?.actions.map((button) => button.title)).toEqual(['Add comment', 'Close with photo']);
    } finally {
      chat.client.end();
    }
  }, 60_000);
});
