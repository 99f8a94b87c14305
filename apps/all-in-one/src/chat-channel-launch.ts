import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { repositoryRoot } from '@fieldops/platform';
import { secretKeptIn } from './generated-password';

/** Where the embedded default keeps the secret inspection-api signs chat notifications with for the bundled bot. */
export const CHAT_NOTIFICATIONS_SECRET_FILE = join(
  repositoryRoot(__dirname),
  '.data',
  'inspection-bot',
  'notifications-secret',
);

/** The chat channel's settings for inspection-api and the bundled bot. */
export interface ChatChannelSettings {
  api: NodeJS.ProcessEnv;
  bot: NodeJS.ProcessEnv;
}

/**
 * The chat channel on for the bundled bot: inspection-api hands chat notifications to the bot's
 * `/api/notifications` on this machine, signed with a Standard Webhooks secret generated once and kept in `.data/`
 * (or INSPECTION_BOT_NOTIFICATIONS_SECRET); the chat page opens each person's home conversation, where the cards
 * wait (the bot's default). Undefined when INSPECTION_CHAT_NOTIFICATIONS_URL is set (the operator's
 * own choice, the empty string turning it off).
 */
export function chatChannelSettings(
  environment: NodeJS.ProcessEnv,
  botPort: string | number,
  file = CHAT_NOTIFICATIONS_SECRET_FILE,
): ChatChannelSettings | undefined {
  if (environment.INSPECTION_CHAT_NOTIFICATIONS_URL !== undefined) return undefined;
  const secret =
    environment.INSPECTION_BOT_NOTIFICATIONS_SECRET ??
    environment.INSPECTION_CHAT_NOTIFICATIONS_SECRET ??
    secretKeptIn(file, () => `whsec_${randomBytes(32).toString('base64')}`);
  return {
    api: {
      INSPECTION_CHAT_NOTIFICATIONS_URL: `http://127.0.0.1:${botPort}/api/notifications`,
      INSPECTION_CHAT_NOTIFICATIONS_SECRET: secret,
    },
    bot: { INSPECTION_BOT_NOTIFICATIONS_SECRET: secret },
  };
}
