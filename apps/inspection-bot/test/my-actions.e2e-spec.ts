import { waitFor } from '@fieldops/testing';
import {
  fetchAjax,
  type PlainActivity as Activity,
  RecordingClient,
} from '@fieldops/testing/directline-client';
import {
  accessToken,
  INSPECTOR,
  type RunningInspectionPlatform,
  SERVICE_ACCOUNT,
  startInspectionPlatform,
} from './support/platform';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

interface Action {
  id: number;
  title: string;
  status: string;
  overdue: boolean;
  close_out_note: string;
  close_out_photo: string | null;
  transitions: Array<{ from: string | null; to: string; by: string }>;
}

interface CardBody {
  body?: Array<{ type: string; text?: string; id?: string }>;
  actions?: Array<{ title: string; data?: Record<string, unknown> }>;
  buttons?: Array<{ title: string; value?: string }>;
  text?: string;
}

const cardsOf = (activity: Activity): CardBody[] =>
  (activity.attachments ?? []).map((attachment) => (attachment as { content?: CardBody }).content ?? {});

const textOf = (card: CardBody): string =>
  (card.body ?? [])
    .map((element) => element.text ?? '')
    .filter(Boolean)
    .join('\n');

/**
 * "My actions" in the chat, end to end: inspection-api, connector-gateway, relay-gateway and the bot on loopback, and
 * the stock DirectLineJS client signed in as the inspector through the chat page's token route. The inspector lists
 * the actions assigned to them (open first, the overdue marked), opens one, comments, and closes it with a note and
 * a photo; inspection-api shows each write under the inspector's name.
 */
describe('"my actions" in the chat (DirectLineJS against the real platform)', () => {
  let platform: RunningInspectionPlatform;
  let serviceToken: string;
  let overdue: Action;
  let later: Action;
  let bobs: Action;

  const api = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`${platform.api.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${serviceToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };

  const isoDate = (offsetDays: number): string =>
    new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

  /** Signs in on the chat page's routes and connects the stock client to the conversation it was given. */
  async function chat(): Promise<{ client: RecordingClient<Activity>; userId: string }> {
    const session = await fetch(`${platform.bot.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(INSPECTOR),
    });
    expect(session.status).toBe(200);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const issued = await fetch(`${platform.bot.url}/api/directline/token`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(issued.status).toBe(200);
    const { token, domain, userId } = (await issued.json()) as Record<string, string>;
    // As Web Chat starts it: the token names the conversation, which the client starts (the bot then welcomes).
    const client = new RecordingClient<Activity>({
      token: token ?? '',
      domain: domain ?? '',
      webSocket: true,
      ajax: fetchAjax,
    });
    // The welcome first, so it is not taken for a reply.
    await waitFor(
      () => client.activities.some((activity) => /^Hello alice\.inspector!/.test(activity.text ?? '')),
      'the welcome',
      20_000,
    ).catch((error: unknown) => {
      client.end();
      throw error;
    });
    return { client, userId: userId ?? '' };
  }

  /**
   * Sends an activity and waits for the bot's replies to it: the messages after it, until `expected` of them (a
   * number) or until one of them satisfies `expected` (a predicate).
   */
  async function exchange(
    client: RecordingClient<Activity>,
    userId: string,
    activity: Partial<Activity>,
    expected: number | ((reply: Activity) => boolean),
  ): Promise<Activity[]> {
    const before = client.activities.length;
    await client.post({
      type: 'message',
      from: { id: userId },
      locale: 'en-US',
      ...activity,
    });
    return waitFor(
      () => {
        const replies = client.activities
          .slice(before)
          .filter((reply) => reply.type === 'message' && reply.from.id !== userId);
        const done = typeof expected === 'number' ? replies.length >= expected : replies.some(expected);
        return done && replies;
      },
      `the replies to ${JSON.stringify(activity.text ?? activity.value ?? 'a photo')}`,
      20_000,
    );
  }

  beforeAll(async () => {
    platform = await startInspectionPlatform();
    serviceToken = await accessToken(platform, SERVICE_ACCOUNT);
    const create = async (fields: Record<string, unknown>) =>
      (await api('POST', '/api/actions/', fields)).body as Action;
    later = await create({
      title: 'Repaint the guard rail',
      assignee: platform.inspectorId,
      due_date: isoDate(30),
    });
    overdue = await create({
      title: 'Replace the pump seal',
      assignee: platform.inspectorId,
      due_date: isoDate(-3),
      description: 'Leaking at the shaft.',
    });
    // Someone else's action, and one of the inspector's already verified: neither is listed.
    const bob = await platform.createAccount('bob.inspector', 'bob-inspector-password-1');
    bobs = await create({ title: "Bob's action", assignee: bob });
    const finished = await create({ title: 'Old finished work', assignee: platform.inspectorId });
    await api('PATCH', `/api/actions/${finished.id}/`, { status: 'done' });
    await api('PATCH', `/api/actions/${finished.id}/`, { status: 'verified' });
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
  });

  it("lists, opens, comments on and closes an action with a note and a photo, all under the inspector's name", async () => {
    const { client, userId } = await chat();
    try {
      // `today` ends with the count of actions and a "My actions" button.
      const withButton = (card: CardBody) =>
        card.buttons?.some((button) => button.value === 'actions') === true;
      const today = await exchange(client, userId, { text: 'today' }, (reply) =>
        cardsOf(reply).some(withButton),
      );
      const prompt = today.flatMap(cardsOf).find(withButton);
      expect(prompt).toMatchObject({
        text: 'Corrective actions to work on: 2 (1 overdue).',
        buttons: [{ title: 'My actions', value: 'actions' }],
      });

      const [intro, list] = await exchange(client, userId, { text: 'actions' }, 2);
      expect(intro?.text).toBe('Your corrective actions (2, 1 overdue), open ones first:');
      const cards = cardsOf(list);
      expect(cards.map(textOf)).toEqual([
        expect.stringMatching(/^⚠ Overdue: Replace the pump seal\nopen · overdue since \d{4}-\d{2}-\d{2}/),
        expect.stringMatching(/^Repaint the guard rail\nopen · due \d{4}-\d{2}-\d{2}/),
      ]);
      expect(cards[0]?.actions).toEqual([
        { type: 'Action.Submit', title: 'Open', data: { command: 'open-action', actionId: overdue.id } },
      ]);

      const [opened] = await exchange(
        client,
        userId,
        { value: { command: 'open-action', actionId: overdue.id } },
        1,
      );
      const card = cardsOf(opened)[0];
      expect(textOf(card)).toContain('Leaking at the shaft.');
      expect(card.body?.filter((element) => element.type === 'Input.Text').map((input) => input.id)).toEqual([
        'comment',
        'note',
      ]);
      expect(card.actions?.map((action) => action.title)).toEqual(['Add comment', 'Close with photo']);

      const [commented] = await exchange(
        client,
        userId,
        { value: { command: 'comment-action', actionId: overdue.id, comment: 'Seal ordered' } },
        1,
      );
      expect(commented?.text).toBe('Comment added to "Replace the pump seal".');
      // Closing needs a note first.
      const [noNote] = await exchange(
        client,
        userId,
        { value: { command: 'close-action', actionId: overdue.id, note: '  ' } },
        1,
      );
      expect(noNote?.text).toBe('Write what was done in the close-out note, then tap "Close with photo".');
      const [photoNow] = await exchange(
        client,
        userId,
        { value: { command: 'close-action', actionId: overdue.id, note: 'New seal fitted, no leak' } },
        1,
      );
      expect(photoNow?.text).toBe(
        'Send a photo of the finished work now: it closes "Replace the pump seal" with your note.',
      );
      const [closed] = await exchange(
        client,
        userId,
        {
          attachments: [
            {
              contentType: 'image/png',
              contentUrl: `data:image/png;base64,${PNG.toString('base64')}`,
              name: 'seal.png',
            },
          ],
        },
        1,
      );
      expect(closed?.text).toBe(
        'Closed "Replace the pump seal": it is done and waits for a supervisor to verify it.',
      );
      expect(closed?.attachments?.[0]?.contentUrl).toMatch(/\/media\/photos\//);

      // inspection-api: done, with the note, the photo, and the inspector's name on every write.
      const stored = (await api('GET', `/api/actions/${overdue.id}/`)).body as Action;
      expect(stored).toMatchObject({ status: 'done', close_out_note: 'New seal fitted, no leak' });
      expect(stored.transitions.at(-1)).toMatchObject({ from: 'open', to: 'done', by: INSPECTOR.username });
      const photo = await fetch(stored.close_out_photo ?? '');
      expect(Buffer.from(await photo.arrayBuffer())).toEqual(PNG);
      expect((await api('GET', `/api/actions/${overdue.id}/comments/`)).body).toEqual([
        expect.objectContaining({ text: 'Seal ordered', author: INSPECTOR.username }),
      ]);
      const trail = (await api('GET', `/api/audit/?resource=action&resource_id=${overdue.id}&page_size=2`))
        .body as { results: Array<{ event: string; actor: number }> };
      expect(trail.results.map((entry) => [entry.event, entry.actor])).toEqual([
        ['updated', platform.inspectorId],
        ['commented', platform.inspectorId],
      ]);

      // The list now shows the closed one as waiting for verification, after the open one.
      const [, after] = await exchange(client, userId, { text: 'actions' }, 2);
      expect(cardsOf(after).map(textOf)).toEqual([
        expect.stringMatching(/^Repaint the guard rail\nopen/),
        expect.stringMatching(/^Replace the pump seal\ndone, waiting for verification/),
      ]);
      // Someone else's action cannot be opened through a crafted submit.
      const [refused] = await exchange(
        client,
        userId,
        { value: { command: 'open-action', actionId: bobs.id } },
        1,
      );
      expect(refused?.text).toBe('That corrective action is not assigned to you.');
    } finally {
      client.end();
    }
  }, 120_000);

  it('speaks Simplified Chinese: 整改 lists the actions, the cards in Chinese', async () => {
    const { client, userId } = await chat();
    try {
      const [intro, list] = await exchange(client, userId, { text: '整改', locale: 'zh-CN' }, 2);
      expect(intro?.text).toBe('您的整改项（2 项，0 项已逾期），未完成的在前：');
      expect(textOf(cardsOf(list)[0])).toMatch(/^Repaint the guard rail\n待处理 · 截止 \d{4}-\d{2}-\d{2}/);
      const [opened] = await exchange(
        client,
        userId,
        { value: { command: 'open-action', actionId: later.id }, locale: 'zh-CN' },
        1,
      );
      expect(cardsOf(opened)[0]?.actions?.map((action) => action.title)).toEqual(['添加评论', '拍照并关闭']);
    } finally {
      client.end();
    }
  }, 60_000);

  it("includes the actions of the inspector's teams, marked with the team's name, in English and Chinese", async () => {
    const team = (await api('POST', '/api/teams/', { name: 'Night crew', members: [platform.inspectorId] }))
      .body as { id: number };
    const teams = (
      await api('POST', '/api/actions/', { title: 'Check the night lights', assignee_team: team.id })
    ).body as Action;
    const { client, userId } = await chat();
    try {
      const [, list] = await exchange(client, userId, { text: 'actions' }, 2);
      expect(cardsOf(list).map(textOf)).toContainEqual(
        expect.stringMatching(/^Check the night lights\nopen · team Night crew/),
      );
      const [opened] = await exchange(
        client,
        userId,
        { value: { command: 'open-action', actionId: teams.id } },
        1,
      );
      expect(cardsOf(opened)[0]?.actions?.map((action) => action.title)).toEqual([
        'Add comment',
        'Close with photo',
      ]);
      const [, chinese] = await exchange(client, userId, { text: '整改', locale: 'zh-CN' }, 2);
      expect(cardsOf(chinese).map(textOf)).toContainEqual(
        expect.stringMatching(/^Check the night lights\n待处理 · 班组 Night crew/),
      );
    } finally {
      client.end();
    }
  }, 60_000);
});
