import { type PlainActivity as Activity } from '@fieldops/testing/directline-client';
import { exchange, signedInChat } from './support/directline-chat';
import { type RunningInspectionPlatform, startInspectionPlatform } from './support/platform';

/**
 * The "notifications" command (通知) end to end: inspection-api, connector-gateway, relay-gateway and the bot on
 * loopback, and the stock DirectLineJS client signed in as the inspector through the chat page's token route. The
 * inspector reads their preferences, turns the chat channel off and on, sets and clears quiet hours, in English and
 * Chinese; inspection-api holds each change; input the bot cannot read gets a hint and changes nothing.
 */
describe('"notifications" in the chat (DirectLineJS against the real platform)', () => {
  let platform: RunningInspectionPlatform;

  beforeAll(async () => {
    platform = await startInspectionPlatform();
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
  });

  const stored = () => platform.client.notificationPreferences(platform.inspectorId);
  const texts = (replies: Activity[]): string[] => replies.map((reply) => reply.text ?? '');

  it('shows the preferences, switches the chat off and on, and sets and clears quiet hours, saved in inspection-api', async () => {
    const chat = await signedInChat(platform);
    try {
      const [shown] = texts(await exchange(chat, { text: 'notifications' }, 1));
      expect(shown).toMatch(
        /^Your notifications: actions assigned to you, checks due, overdue checks, overdue actions\.\nQuiet hours: none\. Due-check reminders: when checks fall due\. Time zone: the service's\.\nIn the chat: on\. By email: off\.\n/,
      );

      const [saved, off] = texts(await exchange(chat, { text: 'notifications off' }, 2));
      expect(saved).toBe('Saved.');
      expect(off).toContain('In the chat: off.');
      await expect(stored()).resolves.toMatchObject({ chat: false });

      const [, quiet] = texts(await exchange(chat, { text: 'quiet 22:00-07:00' }, 2));
      expect(quiet).toContain('Quiet hours: 22:00–07:00.');
      await expect(stored()).resolves.toMatchObject({
        chat: false,
        quiet_hours_start: '22:00:00',
        quiet_hours_end: '07:00:00',
      });

      const [已保存, 开启] = texts(await exchange(chat, { text: '通知 开启', locale: 'zh-CN' }, 2));
      expect(已保存).toBe('已保存。');
      expect(开启).toContain('免打扰时段：22:00–07:00。');
      expect(开启).toContain('聊天通知：开启。邮件通知：关闭。');
      await expect(stored()).resolves.toMatchObject({ chat: true, quiet_hours_start: '22:00:00' });

      const [, 免打扰] = texts(await exchange(chat, { text: '免打扰 23:30-06:00', locale: 'zh-CN' }, 2));
      expect(免打扰).toContain('免打扰时段：23:30–06:00。');
      await expect(stored()).resolves.toMatchObject({
        quiet_hours_start: '23:30:00',
        quiet_hours_end: '06:00:00',
      });

      const [, cleared] = texts(await exchange(chat, { text: 'quiet off' }, 2));
      expect(cleared).toContain('Quiet hours: none.');
      await expect(stored()).resolves.toMatchObject({
        chat: true,
        quiet_hours_start: null,
        quiet_hours_end: null,
      });
    } finally {
      chat.client.end();
    }
  });

  it("answers input it cannot read with a short hint in the person's language, and changes nothing", async () => {
    const before = await stored();
    const chat = await signedInChat(platform);
    try {
      const [hint] = texts(await exchange(chat, { text: 'quiet 25:00-07:00' }, 1));
      expect(hint).toMatch(/^I did not understand that\. Try "notifications", "notifications off", /);
      const [提示] = texts(await exchange(chat, { text: '通知 全部', locale: 'zh-CN' }, 1));
      expect(提示).toMatch(/^没有看懂这条指令。可发送“通知”“通知 关闭”“通知 开启”/);
      const [help] = texts(await exchange(chat, { text: 'help' }, 1));
      expect(help).toContain('- "notifications": what I tell you and when');
    } finally {
      chat.client.end();
    }
    await expect(stored()).resolves.toEqual(before);
  });
});
