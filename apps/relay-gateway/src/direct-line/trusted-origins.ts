import { type BotConfig } from '@fieldops/platform-config';

/**
 * The origins a request may come from (empty: any): the bot's configured trusted origins under enhanced
 * authentication (they always win), otherwise those a token was generated with (a secret has none).
 */
export function trustedOriginsFor(bot: BotConfig, tokenOrigins: readonly string[]): readonly string[] {
  const channel = bot.directLine;
  return channel?.enhancedAuthentication ? channel.trustedOrigins : tokenOrigins;
}

/** Whether a request with this `Origin` header is refused (no header: not a browser's cross-origin request). */
export function originRefused(origin: string | undefined, trusted: readonly string[]): boolean {
  return origin !== undefined && trusted.length > 0 && !trusted.includes(origin);
}
