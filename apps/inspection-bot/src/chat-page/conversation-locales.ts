import { Injectable } from '@nestjs/common';

const LIFETIME_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 10_000;

/**
 * The locale the chat page asked for, per conversation, remembered when its token is generated. The relay does
 * not put the start body's locale on the conversationUpdate of a conversation pre-allocated by
 * `tokens/generate`, so the welcome's language comes from here (message activities carry Web Chat's locale).
 * In-process: one bot instance.
 */
@Injectable()
export class ConversationLocales {
  private readonly locales = new Map<string, { locale: string; expiresAt: number }>();

  remember(conversationId: string, locale: string): void {
    const now = Date.now();
    for (const [id, entry] of this.locales) {
      if (entry.expiresAt > now && this.locales.size < MAX_ENTRIES) break;
      this.locales.delete(id);
    }
    this.locales.set(conversationId, { locale, expiresAt: now + LIFETIME_MS });
  }

  localeOf(conversationId: string): string | undefined {
    const entry = this.locales.get(conversationId);
    return entry && entry.expiresAt > Date.now() ? entry.locale : undefined;
  }
}
