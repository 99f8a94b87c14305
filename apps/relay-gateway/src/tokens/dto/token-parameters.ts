import { badArgument } from '@fieldops/contracts';
import { lowerKeys } from '../../direct-line/case-insensitive';

/** The optional body of tokens/generate, property names case-insensitive (`user.id` or `User.Id`). */
export interface TokenParameters {
  userId?: string;
  userName?: string;
  trustedOrigins: string[];
  /**
   * `refreshableUntil` (an extension of this relay, ISO 8601): the token and all its refreshes expire by then, e.g. a
   * sign-in service ties a page's token to the page's session. Absent: refreshable while unexpired (Direct Line).
   */
  until?: number;
  /**
   * `homeConversation: true` (an extension of this relay; needs `user.id`): the token is for the user's home
   * conversation with the bot, the one the bot's proactive messages to that user go to (created when there is none),
   * instead of a new conversation.
   */
  home: boolean;
}

export function parseTokenParameters(body: unknown): TokenParameters {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw badArgument('Token parameters must be a JSON object');
  }
  const record = lowerKeys(body);
  const user = lowerKeys(record.user);
  const parameters: TokenParameters = { trustedOrigins: [], home: false };
  if (user.id !== undefined) {
    if (typeof user.id !== 'string' || user.id.trim() === '' || user.id.length > 256) {
      throw badArgument('user.id must be a non-empty string');
    }
    parameters.userId = user.id;
  }
  if (user.name !== undefined) {
    if (typeof user.name !== 'string') throw badArgument('user.name must be a string');
    parameters.userName = user.name;
  }
  const origins = record.trustedorigins;
  if (origins !== undefined) {
    if (!Array.isArray(origins) || !origins.every((origin) => typeof origin === 'string')) {
      throw badArgument('trustedOrigins must be an array of strings');
    }
    parameters.trustedOrigins = origins.map((origin) => {
      try {
        return new URL(origin).origin;
      } catch {
        throw badArgument(`trustedOrigins: ${origin} is not an origin URL`);
      }
    });
  }
  const until = record.refreshableuntil;
  if (until !== undefined) {
    const instant = typeof until === 'string' ? Date.parse(until) : Number.NaN;
    if (!Number.isFinite(instant) || instant <= Date.now()) {
      throw badArgument('refreshableUntil must be an ISO 8601 instant in the future');
    }
    parameters.until = Math.floor(instant / 1000);
  }
  const home = record.homeconversation;
  if (home !== undefined) {
    if (typeof home !== 'boolean') throw badArgument('homeConversation must be true or false');
    if (home && parameters.userId === undefined) throw badArgument('homeConversation needs user.id');
    parameters.home = home;
  }
  return parameters;
}
