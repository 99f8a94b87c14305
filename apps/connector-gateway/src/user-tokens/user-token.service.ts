import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type Activity, badArgument, forbidden } from '@fieldops/contracts';
import { LOGGER, type Logger } from '@fieldops/platform';
import { type OAuthConnectionConfig } from '@fieldops/platform-config';
import { type BotPrincipal } from '../bot-auth/bot-access-token-verifier';
import { BotRegistry } from '../bots/bot-registry';
import { BotDeliverer } from '../delivery/bot-deliverer.service';
import { OAuthProviderError, OAuthProviders } from './oauth-providers';
import { parseTokenExchangeState, type SignInConversation } from './token-exchange-state';
import { UserTokenCrypto } from './user-token-crypto';
import { USER_TOKEN_STORE, type UserTokenStore } from './user-token-store';

/** How long a sign-in link works (OAuthPrompt's default timeout). */
export const SIGN_IN_TTL_SECONDS = 900;
/** How long a magic code waits to be typed in the chat. */
export const MAGIC_CODE_TTL_SECONDS = 300;
/** Wrong codes a pending magic code survives; the next wrong one discards it. */
export const MAGIC_CODE_ATTEMPTS = 3;
/** A stored token this close to its expiry is refreshed (or, without a refresh token, no longer given out). */
export const EXPIRY_MARGIN_SECONDS = 60;

/** The Bot Framework TokenResponse. */
export interface TokenResponse {
  channelId: string;
  connectionName: string;
  token: string;
  /** ISO 8601; absent when the provider gave no lifetime. */
  expiration?: string;
}

export interface TokenStatus {
  channelId: string;
  connectionName: string;
  hasToken: boolean;
  serviceProviderDisplayName: string;
}

export interface SignInResource {
  signInLink: string;
  tokenExchangeResource?: { id?: string; uri?: string; providerId?: string };
  tokenPostResource?: { sasUrl?: string };
}

/** Who a token belongs to: one user of one channel, for one connection of one bot. */
export interface UserTokenKey {
  userId: string;
  connectionName: string;
  channelId: string;
}

/** A user's tokens from the provider, as stored (encrypted). */
export interface StoredTokens {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** Seconds since the epoch. */
  expiresAt?: number;
}

/** A sign-in a bot asked for, waiting for the user's browser (stored encrypted, single use). */
export interface PendingSignIn {
  appId: string;
  connectionName: string;
  channelId: string;
  userId: string;
  conversation: SignInConversation;
  codeVerifier: string;
  finalRedirect?: string;
  /** Milliseconds since the epoch. */
  expiresAt?: number;
  /** The browser that opened the link is the chat's own (its Direct Line session matched Web Chat's code_challenge). */
  sameBrowser?: boolean;
}

/** Tokens waiting for the user to type their magic code in the conversation that asked. */
interface PendingCode {
  code: string;
  tokens: StoredTokens;
  attemptsLeft: number;
  expiresAt: number;
}

/** Web Chat's code_challenge equals the browser's Direct Line session (both present). */
function sameSecret(challenge: string | undefined, session: string | undefined): boolean {
  if (!challenge || !session) return false;
  const given = Buffer.from(challenge, 'utf8');
  const expected = Buffer.from(session, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const digest = (parts: readonly string[]): string =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url');

/**
 * The Bot Framework token service's rules: per bot (the caller's own connector token names it), per connection, per
 * channel and user. Records are sealed for their own key (UserTokenCrypto), so a record cannot be read as another
 * user's. Docs: docs/protocols/user-token-service.md.
 */
@Injectable()
export class UserTokenService {
  constructor(
    @Inject(USER_TOKEN_STORE) private readonly store: UserTokenStore,
    private readonly crypto: UserTokenCrypto,
    private readonly registry: BotRegistry,
    private readonly providers: OAuthProviders,
    private readonly deliverer: BotDeliverer,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The calling bot's connection named `name`; 400 when it has none by that name. */
  connection(bot: BotPrincipal, name: string): OAuthConnectionConfig {
    const found = this.connectionsOf(bot).find((connection) => connection.name === name);
    if (!found) throw badArgument(`The bot has no OAuth connection named '${name}'.`);
    return found;
  }

  connectionsOf(bot: BotPrincipal): readonly OAuthConnectionConfig[] {
    return this.registry.find(bot.appId)?.oauthConnections ?? [];
  }

  /** GetToken: the user's token, or a pending sign-in redeemed by `code`; undefined: no token (404). */
  async getToken(bot: BotPrincipal, key: UserTokenKey, code?: string): Promise<TokenResponse | undefined> {
    this.connection(bot, key.connectionName);
    if (code !== undefined && code !== '') {
      const tokens = await this.redeemCode(bot, key, code);
      if (!tokens) return undefined;
      await this.saveTokens(bot, key, tokens);
      return this.response(key, tokens);
    }
    const tokens = await this.currentTokens(bot, key);
    return tokens && this.response(key, tokens);
  }

  /**
   * exchange (SSO): stores and returns the token the client already holds for the connection's provider, when the
   * provider's keys vouch for it (OAuthProviders.exchangeable); undefined (404) otherwise, and the SDKs show the card.
   */
  async exchange(bot: BotPrincipal, key: UserTokenKey, token: string): Promise<TokenResponse | undefined> {
    const connection = this.connection(bot, key.connectionName);
    let tokens: StoredTokens | undefined;
    try {
      tokens = await this.providers.exchangeable(bot.appId, connection, token);
    } catch (error) {
      // The provider's keys cannot be read: nothing vouches for the token, the SDKs show the card.
      if (!(error instanceof OAuthProviderError)) throw error;
    }
    if (!tokens) return undefined;
    await this.saveTokens(bot, key, tokens);
    return this.response(key, tokens);
  }

  /** SignOut: forgets the user's tokens (and pending code) of one connection, or of all the bot's connections. */
  async signOut(
    bot: BotPrincipal,
    userId: string,
    channelId: string,
    connectionName?: string,
  ): Promise<void> {
    const names =
      connectionName !== undefined && connectionName !== ''
        ? [this.connection(bot, connectionName).name]
        : this.connectionsOf(bot).map((connection) => connection.name);
    for (const name of names) {
      const key = { userId, channelId, connectionName: name };
      await this.store.delete(this.tokenRecord(bot, key));
      await this.store.delete(this.codeRecord(bot, key));
    }
  }

  /** GetTokenStatus: one entry per connection of the bot (those named in `include`, comma-separated, when given). */
  async tokenStatus(
    bot: BotPrincipal,
    userId: string,
    channelId: string,
    include?: string,
  ): Promise<TokenStatus[]> {
    const wanted = include
      ?.split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && name !== 'null');
    const connections = this.connectionsOf(bot).filter(
      (connection) => !wanted?.length || wanted.includes(connection.name),
    );
    return Promise.all(
      connections.map(async (connection) => ({
        channelId,
        connectionName: connection.name,
        hasToken:
          (await this.currentTokens(bot, { userId, channelId, connectionName: connection.name })) !==
          undefined,
        serviceProviderDisplayName: connection.displayName,
      })),
    );
  }

  /**
   * GetSignInResource: a sign-in link bound to the conversation and user the bot's `state` names (single use,
   * SIGN_IN_TTL_SECONDS). `baseUrl` is where users' browsers reach this service.
   */
  async signInResource(
    bot: BotPrincipal,
    state: string | undefined,
    baseUrl: string,
    options: { userId?: string; finalRedirect?: string } = {},
  ): Promise<SignInResource> {
    const parsed = parseTokenExchangeState(state);
    if (parsed.msAppId !== '' && parsed.msAppId !== bot.appId)
      throw forbidden('The state names another bot (msAppId).');
    if (options.userId !== undefined && options.userId !== parsed.conversation.userId)
      throw badArgument('The state names another user than userId.');
    this.connection(bot, parsed.connectionName);
    const id = randomBytes(24).toString('base64url');
    const pending: PendingSignIn = {
      appId: bot.appId,
      connectionName: parsed.connectionName,
      channelId: parsed.conversation.channelId,
      userId: parsed.conversation.userId,
      conversation: parsed.conversation,
      codeVerifier: randomBytes(32).toString('base64url'),
      ...(options.finalRedirect && { finalRedirect: options.finalRedirect }),
      expiresAt: Date.now() + SIGN_IN_TTL_SECONDS * 1000,
    };
    const record = this.signInRecord(id);
    await this.store.set(record, this.crypto.seal(pending, record), SIGN_IN_TTL_SECONDS);
    return {
      signInLink: `${baseUrl}/api/oauth/signin?signin=${encodeURIComponent(this.crypto.signState(id))}`,
    };
  }

  /** GetTokenOrSignInResource: the token when there is one (or `code` redeems one), else a sign-in resource. */
  async tokenOrSignInResource(
    bot: BotPrincipal,
    key: UserTokenKey,
    state: string | undefined,
    baseUrl: string,
    options: { code?: string; finalRedirect?: string } = {},
  ): Promise<{ tokenResponse: TokenResponse } | { signInResource: SignInResource }> {
    const tokenResponse = await this.getToken(bot, key, options.code);
    if (tokenResponse) return { tokenResponse };
    return {
      signInResource: await this.signInResource(bot, state, baseUrl, {
        userId: key.userId,
        finalRedirect: options.finalRedirect,
      }),
    };
  }

  /**
   * The user's browser opened the sign-in link: where to send it at the provider (the pending sign-in stays until the
   * callback). Undefined: the link is forged, expired or already used. `browser`: Web Chat's `code_challenge` and the
   * browser's Direct Line session cookie; when they match, the callback hands the token to the bot.
   */
  async startSignIn(
    signedId: string,
    redirectUri: string,
    browser: { codeChallenge?: string; session?: string } = {},
  ): Promise<URL | undefined> {
    const id = this.crypto.verifyState(signedId);
    if (id === undefined) return undefined;
    const record = this.signInRecord(id);
    const sealed = await this.store.get(record);
    const pending = sealed === undefined ? undefined : this.crypto.open<PendingSignIn>(sealed, record);
    const connection = pending && this.pendingConnection(pending);
    if (!pending || !connection) return undefined;
    const sameBrowser = sameSecret(browser.codeChallenge, browser.session);
    if (sameBrowser !== Boolean(pending.sameBrowser)) {
      const remainingSeconds = Math.ceil(((pending.expiresAt ?? 0) - Date.now()) / 1000);
      if (remainingSeconds <= 0) return undefined;
      await this.store.set(record, this.crypto.seal({ ...pending, sameBrowser }, record), remainingSeconds);
    }
    return this.providers.authorizationUrl(pending.appId, connection, {
      redirectUri,
      state: signedId,
      codeVerifier: pending.codeVerifier,
    });
  }

  /**
   * The provider sent the browser back: consumes the pending sign-in the signed `state` names (of two callbacks with
   * one state, one gets it) and redeems the code. When the chat's own browser signed in, the token goes to the bot
   * (handOver) and no code is returned; otherwise the magic code the user types in the chat. Undefined: the state is
   * forged, expired or already used. Throws OAuthProviderError when the provider refuses.
   */
  async completeSignIn(
    state: string,
    callbackUrl: URL,
  ): Promise<{ code?: string; provider: string } | undefined> {
    const id = this.crypto.verifyState(state);
    if (id === undefined) return undefined;
    const record = this.signInRecord(id);
    const sealed = await this.store.take(record);
    const pending = sealed === undefined ? undefined : this.crypto.open<PendingSignIn>(sealed, record);
    const connection = pending && this.pendingConnection(pending);
    if (!pending || !connection) return undefined;
    if (callbackUrl.searchParams.has('error')) {
      throw new OAuthProviderError(callbackUrl.searchParams.get('error') ?? 'error');
    }
    const tokens = await this.providers.redeem(pending.appId, connection, callbackUrl, {
      state,
      codeVerifier: pending.codeVerifier,
    });
    if (pending.sameBrowser && (await this.handOver(pending, tokens)))
      return { provider: connection.displayName };
    return { code: await this.awaitMagicCode(pending, tokens), provider: connection.displayName };
  }

  /**
   * Delivers a sign-in to the bot in the conversation that asked, as its SDK takes it: botbuilder (OAuthPrompt) the
   * `tokens/response` event with the TokenResponse; the Agents SDK, whose user authorization completes only on a
   * code, the `signin/verifyState` invoke carrying the magic code, which it redeems itself. False when the bot did not
   * take it (the user then types the code).
   */
  private async handOver(pending: PendingSignIn, tokens: StoredTokens): Promise<boolean> {
    const bot = this.registry.find(pending.appId);
    const { conversation } = pending;
    if (!bot || conversation.serviceUrl === undefined) return false;
    const key = {
      userId: pending.userId,
      channelId: pending.channelId,
      connectionName: pending.connectionName,
    };
    const activity: Activity = {
      id: randomUUID(),
      timestamp: new Date().toISOString(),
      channelId: conversation.channelId,
      serviceUrl: conversation.serviceUrl,
      conversation: { id: conversation.conversationId },
      from: { id: conversation.userId },
      recipient: { id: conversation.botId ?? bot.appId },
      ...(bot.sdk === 'agents'
        ? {
            type: 'invoke',
            name: 'signin/verifyState',
            value: { state: await this.awaitMagicCode(pending, tokens) },
          }
        : { type: 'event', name: 'tokens/response', value: this.response(key, tokens) }),
    };
    if (bot.sdk !== 'agents') await this.saveTokens(bot, key, tokens);
    const report = await this.deliverer.deliver(bot, activity);
    // Off Teams the Agents SDK answers every invoke 501 (its invoke responses are Teams-only): it took the sign-in
    // when it redeemed the code during that turn.
    const taken =
      bot.sdk === 'agents'
        ? report.kind !== 'unreachable' && (await this.store.get(this.codeRecord(bot, key))) === undefined
        : report.kind === 'delivered';
    if (taken) return true;
    this.logger.info(
      { bot: bot.id, connectionName: pending.connectionName, delivery: report.kind },
      'sign-in not taken by the bot; the user types the magic code',
    );
    return false;
  }

  private pendingConnection(pending: PendingSignIn): OAuthConnectionConfig | undefined {
    return this.registry
      .find(pending.appId)
      ?.oauthConnections.find((connection) => connection.name === pending.connectionName);
  }

  /** After the provider's callback: the tokens wait for the six-digit code, typed by the user the sign-in is bound to. */
  private async awaitMagicCode(pending: PendingSignIn, tokens: StoredTokens): Promise<string> {
    const code = String(randomBytes(4).readUInt32BE(0) % 1_000_000).padStart(6, '0');
    const key = {
      userId: pending.userId,
      channelId: pending.channelId,
      connectionName: pending.connectionName,
    };
    const record = this.codeRecord({ appId: pending.appId }, key);
    const value: PendingCode = {
      code,
      tokens,
      attemptsLeft: MAGIC_CODE_ATTEMPTS,
      expiresAt: Date.now() + MAGIC_CODE_TTL_SECONDS * 1000,
    };
    await this.store.set(record, this.crypto.seal(value, record), MAGIC_CODE_TTL_SECONDS);
    return code;
  }

  private async redeemCode(
    bot: Pick<BotPrincipal, 'appId'>,
    key: UserTokenKey,
    code: string,
  ): Promise<StoredTokens | undefined> {
    const record = this.codeRecord(bot, key);
    const sealed = await this.store.take(record);
    const pending = sealed === undefined ? undefined : this.crypto.open<PendingCode>(sealed, record);
    if (!pending) return undefined;
    const given = Buffer.from(code.trim(), 'utf8');
    const expected = Buffer.from(pending.code, 'utf8');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return pending.tokens;
    const remainingSeconds = Math.floor((pending.expiresAt - Date.now()) / 1000);
    if (pending.attemptsLeft > 1 && remainingSeconds > 0) {
      const next: PendingCode = { ...pending, attemptsLeft: pending.attemptsLeft - 1 };
      await this.store.set(record, this.crypto.seal(next, record), remainingSeconds);
    } else {
      this.logger.warn({ connectionName: key.connectionName }, 'magic code discarded after wrong attempts');
    }
    return undefined;
  }

  /** The user's tokens, refreshed when they are about to expire; undefined when there are none (any more). */
  private async currentTokens(
    bot: Pick<BotPrincipal, 'appId'>,
    key: UserTokenKey,
  ): Promise<StoredTokens | undefined> {
    const record = this.tokenRecord(bot, key);
    const sealed = await this.store.get(record);
    const tokens = sealed === undefined ? undefined : this.crypto.open<StoredTokens>(sealed, record);
    if (!tokens) return undefined;
    if (tokens.expiresAt === undefined || tokens.expiresAt - EXPIRY_MARGIN_SECONDS > Date.now() / 1000)
      return tokens;
    const connection = this.registry
      .find(bot.appId)
      ?.oauthConnections.find((candidate) => candidate.name === key.connectionName);
    if (tokens.refreshToken !== undefined && connection) {
      try {
        const refreshed = await this.providers.refresh(bot.appId, connection, tokens.refreshToken);
        await this.saveTokens(bot, key, refreshed);
        return refreshed;
      } catch (error) {
        if (!(error instanceof OAuthProviderError)) throw error;
        // Unreachable provider: keep the refresh token for the next call; refused: the user signs in again.
        if (!error.refused) return undefined;
      }
    }
    await this.store.delete(record);
    return undefined;
  }

  private async saveTokens(
    bot: Pick<BotPrincipal, 'appId'>,
    key: UserTokenKey,
    tokens: StoredTokens,
  ): Promise<void> {
    const record = this.tokenRecord(bot, key);
    await this.store.set(record, this.crypto.seal(tokens, record));
  }

  private response(key: UserTokenKey, tokens: StoredTokens): TokenResponse {
    return {
      channelId: key.channelId,
      connectionName: key.connectionName,
      token: tokens.accessToken,
      ...(tokens.expiresAt !== undefined && { expiration: new Date(tokens.expiresAt * 1000).toISOString() }),
    };
  }

  private tokenRecord(bot: Pick<BotPrincipal, 'appId'>, key: UserTokenKey): string {
    return `usertoken:token:${digest([bot.appId, key.connectionName, key.channelId, key.userId])}`;
  }

  private codeRecord(bot: Pick<BotPrincipal, 'appId'>, key: UserTokenKey): string {
    return `usertoken:code:${digest([bot.appId, key.connectionName, key.channelId, key.userId])}`;
  }

  private signInRecord(id: string): string {
    return `usertoken:signin:${id}`;
  }
}
