import { type BotConfig } from '@fieldops/platform-config';

/** A client presented a Direct Line secret: any conversation of its bot. */
export interface SecretCredential {
  kind: 'secret';
  bot: BotConfig;
  /** Rate-limit key (never the secret itself). */
  key: string;
}

/** A client presented a conversation token. */
export interface TokenCredential {
  kind: 'token';
  bot: BotConfig;
  conversationId: string;
  token: string;
  /** Embedded user (the `user` claim): replaces `from.id` of everything the client sends. */
  userId?: string;
  userName?: string;
  /** Origins allowed to use the token (empty: any). */
  origins: string[];
  /** Epoch seconds. */
  expiresAt: number;
  /** Epoch seconds past which no refresh of this token reaches (tokens/generate's `refreshableUntil`). */
  until?: number;
  /** The opening of a home conversation this token (and its refreshes) belongs to (the `join` claim). */
  join?: string;
  key: string;
}

export type Credential = SecretCredential | TokenCredential;

/** What a Direct Line token carries. */
export interface DirectLineTokenClaims {
  bot: string;
  site: string;
  conv: string;
  /** `conversation` for REST calls, `stream` for the 60-s token in a streamUrl, `attachment` for one download. */
  scope: 'conversation' | 'stream' | 'attachment';
  /** The attachment an `attachment` token downloads. */
  att?: string;
  user?: string;
  name?: string;
  origins?: string[];
  /** Epoch seconds: this token and its refreshes expire by then (tokens/generate's `refreshableUntil`). */
  until?: number;
  /**
   * A home-conversation token from tokens/generate (and its refreshes): the id of that opening, so its first start
   * announces the user to the bot again (ConversationsService.start), and a retried start does not.
   */
  join?: string;
}
