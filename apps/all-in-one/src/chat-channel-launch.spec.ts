import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatChannelSettings } from './chat-channel-launch';

describe('chatChannelSettings', () => {
  it('turns the chat channel on with a secret generated once, kept in .data (0600)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'chat-channel-')), 'inspection-bot', 'notifications-secret');
    const first = chatChannelSettings({}, 3978, file);
    const secret = first?.bot.INSPECTION_BOT_NOTIFICATIONS_SECRET ?? '';
    expect(first).toEqual({
      api: {
        INSPECTION_CHAT_NOTIFICATIONS_URL: 'http://127.0.0.1:3978/api/notifications',
        INSPECTION_CHAT_NOTIFICATIONS_SECRET: secret,
      },
      bot: { INSPECTION_BOT_NOTIFICATIONS_SECRET: secret },
    });
    // Standard Webhooks' form, as the bot's INSPECTION_BOT_NOTIFICATIONS_SECRET takes it: 32 bytes in base64.
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(readFileSync(file, 'utf8')).toBe(`${secret}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The next start: the same secret (inspection-api's pending rows are signed with it).
    expect(chatChannelSettings({}, 4000, file)?.api).toEqual({
      INSPECTION_CHAT_NOTIFICATIONS_URL: 'http://127.0.0.1:4000/api/notifications',
      INSPECTION_CHAT_NOTIFICATIONS_SECRET: secret,
    });
  });

  it("leaves the operator's choice alone: a URL set (empty: off) wins; a configured secret is used", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'chat-channel-')), 'secret');
    expect(chatChannelSettings({ INSPECTION_CHAT_NOTIFICATIONS_URL: '' }, 3978, file)).toBeUndefined();
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(
      chatChannelSettings({ INSPECTION_BOT_NOTIFICATIONS_SECRET: secret }, 3978, file)?.api,
    ).toMatchObject({
      INSPECTION_CHAT_NOTIFICATIONS_SECRET: secret,
    });
  });
});
