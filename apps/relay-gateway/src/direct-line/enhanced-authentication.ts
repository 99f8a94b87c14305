import { type BotConfig } from '@fieldops/platform-config';
import { badArgument, type BotFrameworkError, missingProperty } from '@fieldops/contracts';

/**
 * A Direct Line channel's enhanced authentication (`directLine.enhancedAuthentication` in the platform configuration,
 * as the real service's "Enhanced authentication options"): the user ids of its conversations start with `dl_`, a
 * secret only generates tokens (for such a user), and the channel's trusted origins bind every token. The one owner of
 * that rule: token generation, the auth guard and the WebSocket stream call it.
 */

/** The prefix of every user id on a channel with enhanced authentication. */
export const ENHANCED_AUTHENTICATION_USER_PREFIX = 'dl_';

/** The message of every enhanced-authentication refusal (400 MissingProperty). */
export const ENHANCED_AUTHENTICATION_REFUSAL =
  'Enhanced authentication is enabled: a user id starting with dl_ is required (generate a token with user.id dl_…)';

/**
 * Refuses (throws 400 MissingProperty) a user id the bot's channel does not accept: under enhanced authentication,
 * one that is missing or does not start with `dl_`. `userId` is the `user.id` a token is generated for, or the user
 * of the token a request carries (undefined for a secret, which is refused).
 */
export function assertEnhancedAuthentication(bot: BotConfig, userId: string | undefined): void {
  if (!bot.directLine?.enhancedAuthentication) return;
  if (userId?.startsWith(ENHANCED_AUTHENTICATION_USER_PREFIX)) return;
  throw missingProperty(ENHANCED_AUTHENTICATION_REFUSAL);
}

/**
 * The origins a token or request may come from (empty: any): the bot's configured trusted origins under enhanced
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

/**
 * The refusal (403) of a request from `origin` with a credential of `bot` (a token's `tokenOrigins`; a secret has
 * none), or undefined when its origin is trusted: the rule of every Direct Line request (DirectLineAuthGuard) and of
 * the WebSocket stream's upgrade.
 */
export function originRefusal(
  origin: string | undefined,
  bot: BotConfig,
  tokenOrigins: readonly string[],
): BotFrameworkError | undefined {
  if (!originRefused(origin, trustedOriginsFor(bot, tokenOrigins))) return undefined;
  return badArgument(`Origin ${origin ?? ''} is not a trusted origin`, 403);
}
