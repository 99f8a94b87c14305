import { waitFor } from '@fieldops/testing';
import {
  fetchAjax,
  type PlainActivity as Activity,
  RecordingClient,
} from '@fieldops/testing/directline-client';
import { INSPECTOR, type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

/**
 * The "notifications" command (通知) end to end: inspection-api, connector-gateway, relay-gateway and the bot on
 * loopback, and the stock DirectLineJS client signed in as the inspector through the chat page's token route. The
 * inspector reads their preferences, turns the chat channel off and on, sets and clears quiet hours, in English and
 * Chinese; inspection-api holds each change; input the bot cannot read gets a hint and changes nothing.
 */
describe('"notifications" in the chat (DirectLineJS against the real platform)', () => {
  let platform: RunningInspectionPlatform;

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
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
  });

  const stored = () => platform.client.notificationPreferences(platform.inspectorId);
  const texts = (replies: Activity[]): string[] => replies.map((reply) => reply.text ?? '');

  it('shows the preferences, switches the chat off and on, and sets and clears quiet hours, saved in inspection-api', async () => {
    const { client, userId } = await chat();
    try {
      const [shown] = texts(await exchange(client, userId, { text: 'notifications' }, 1));
      expect(shown).toMatch(
        /^Your notifications: actions assigned to you, checks due, overdue checks, overdue actions\.\nQuiet hours: none\. Due-check reminders: when checks fall due\. Time zone: the service's\.\nIn the chat: on\. By email: off\.\n/,
      );

      const [saved, off] = texts(await exchange(client, userId, { text: 'notifications off' }, 2));
      expect(saved).toBe('Saved.');
      expect(off).toContain('In the chat: off.');
      await expect(stored()).resolves.toMatchObject({ chat: false });

      const [, quiet] = texts(await exchange(client, userId, { text: 'quiet 22:00-07:00' }, 2));
      expect(quiet).toContain('Quiet hours: 22:00–07:00.');
      await expect(stored()).resolves.toMatchObject({
        chat: false,
        quiet_hours_start: '22:00:00',
        quiet_hours_end: '07:00:00',
      });

      const [已保存, 开启] = texts(await exchange(client, userId, { text: '通知 开启', locale: 'zh-CN' }, 2));
      expect(已保存).toBe('已保存。');
      expect(开启).toContain('免打扰时段：22:00–07:00。');
      expect(开启).toContain('聊天通知：开启。邮件通知：关闭。');
      await expect(stored()).resolves.toMatchObject({ chat: true, quiet_hours_start: '22:00:00' });

      const [, 免打扰] = texts(
        await exchange(client, userId, { text: '免打扰 23:30-06:00', locale: 'zh-CN' }, 2),
      );
      expect(免打扰).toContain('免打扰时段：23:30–06:00。');
      await expect(stored()).resolves.toMatchObject({
        quiet_hours_start: '23:30:00',
        quiet_hours_end: '06:00:00',
      });

      const [, cleared] = texts(await exchange(client, userId, { text: 'quiet off' }, 2));
      expect(cleared).toContain('Quiet hours: none.');
      await expect(stored()).resolves.toMatchObject({
        chat: true,
        quiet_hours_start: null,
        quiet_hours_end: null,
      });
    } finally {
      client.end();
    }
  });

  it("answers input it cannot read with a short hint in the person's language, and changes nothing", async () => {
    const before = await stored();
    const { client, userId } = await chat();
    try {
      const [hint] = texts(await exchange(client, userId, { text: 'quiet 25:00-07:00' }, 1));
      expect(hint).toMatch(/^I did not understand that\. Try "notifications", "notifications off", /);
      const [提示] = texts(await exchange(client, userId, { text: '通知 全部', locale: 'zh-CN' }, 1));
      expect(提示).toMatch(/^没有看懂这条指令。可发送“通知”“通知 关闭”“通知 开启”/);
      const [help] = texts(await exchange(client, userId, { text: 'help' }, 1));
      expect(help).toContain('- "notifications": what I tell you and when');
    } finally {
      client.end();
    }
    await expect(stored()).resolves.toEqual(before);
  });
});
