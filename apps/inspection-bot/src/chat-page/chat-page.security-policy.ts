import { inlineScriptHashes, pageContentSecurityPolicy } from '@fieldops/platform';
import { type InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { type ChatPageSettings, renderChatPage } from './chat-page.html';

/** What the chat page is rendered with. */
export function chatPageSettings(environment: InspectionBotEnvironment): ChatPageSettings {
  return { defaultLocale: environment.INSPECTION_BOT_DEFAULT_LOCALE, title: 'FieldOps inspections' };
}

/**
 * The chat page's Content-Security-Policy: the platform's page policy, its own inline script (by hash), and the relay
 * as browsers reach it — Web Chat's Direct Line calls and WebSocket stream (`connect-src`), and the uploads it shows
 * (`img-src`/`media-src`, with the `blob:` and `data:` URLs of local previews); Web Chat runs a worker from a `blob:`
 * URL and reads `blob:` URLs (`worker-src`, `connect-src`).
 */
export function chatPageSecurityPolicy(environment: InspectionBotEnvironment) {
  const relay = new URL(environment.INSPECTION_BOT_RELAY_PUBLIC_URL ?? environment.INSPECTION_BOT_RELAY_URL)
    .origin;
  const relayStream = relay.replace(/^http/, 'ws');
  return pageContentSecurityPolicy({
    paths: ['/'],
    publicUrl: environment.INSPECTION_BOT_PUBLIC_URL,
    directives: {
      'script-src': inlineScriptHashes(renderChatPage(chatPageSettings(environment))),
      'connect-src': [relay, relayStream, 'blob:'],
      'worker-src': ["'self'", 'blob:'],
      'img-src': [relay, 'blob:'],
      'media-src': [relay, 'blob:', 'data:'],
    },
  });
}
