import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';
import { type Request, type Response } from 'express';
import { getIronSession, type IronSession } from 'iron-session';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { type AccountTokens, InspectionAccounts } from './inspection-accounts';
import { InspectorTokens } from './inspector-tokens';

export const SESSION_COOKIE = 'fieldops_chat';

/** What the sealed cookie holds: a session id (for rate limits and sign-out) and the account's tokens. */
export interface ChatSessionData {
  sid?: string;
  account?: AccountTokens;
  /** A sign-in started at the provider: the value its return must bring back (once). */
  providerBinding?: string;
}

export interface LiveSession {
  sid: string;
  account: AccountTokens;
}

/** Renew the access token when it expires within this margin. */
const RENEWAL_MARGIN_SECONDS = 60;

/**
 * The chat page's sessions: iron-session seals (encrypts and signs) the session into an httpOnly, SameSite=Lax
 * cookie, `Secure` when the request came over https (behind a trusted proxy: X-Forwarded-Proto). Each use of a
 * live session renews its inspection-api access token with the refresh token when it is about to expire and seals
 * the cookie again, so the session lasts while the user is active. Sign-out clears the cookie, revokes its id in
 * this process and blacklists its refresh token at inspection-api (PostgreSQL), where the session's tokens are
 * decided: a process checks each session once with inspection-api (renewing its access token) before it first
 * trusts it, so a copy of a signed-out cookie is refused after a restart too, and by every bot instance.
 */
@Injectable()
export class ChatSessions {
  private readonly password: string;
  private readonly ttlSeconds: number;
  /** Signed-out session ids → when their cookies would have expired (epoch ms). */
  private readonly revoked = new Map<string, number>();
  /** Session ids whose tokens inspection-api renewed for this process → until when that is trusted (epoch ms). */
  private readonly confirmed = new Map<string, number>();

  constructor(
    environment: InspectionBotEnvironment,
    private readonly accounts: InspectionAccounts,
    private readonly inspectorTokens: InspectorTokens,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.password = environment.INSPECTION_BOT_SESSION_SECRET ?? randomBytes(32).toString('base64url');
    this.ttlSeconds = environment.INSPECTION_BOT_SESSION_TTL_SECONDS;
  }

  private open(request: Request, response: Response): Promise<IronSession<ChatSessionData>> {
    return getIronSession<ChatSessionData>(request, response, {
      password: this.password,
      cookieName: SESSION_COOKIE,
      ttl: this.ttlSeconds,
      cookieOptions: { httpOnly: true, sameSite: 'lax', secure: request.secure, path: '/' },
    });
  }

  /**
   * Starts a sign-in through inspection-api's provider in this browser: a random value kept in the sealed cookie,
   * which the return must bring back, so a return link made in another browser (someone else's code) is refused.
   */
  async beginProviderSignIn(request: Request, response: Response): Promise<string> {
    const session = await this.open(request, response);
    session.providerBinding = randomBytes(16).toString('base64url');
    await session.save();
    return session.providerBinding;
  }

  /** Whether the return brings this browser's sign-in back; the value is used up either way. */
  async endProviderSignIn(
    request: Request,
    response: Response,
    binding: string | undefined,
  ): Promise<boolean> {
    const session = await this.open(request, response);
    const expected = session.providerBinding;
    if (expected === undefined) return false;
    delete session.providerBinding;
    await session.save();
    return binding === expected;
  }

  /** Starts a session for a signed-in account (a new session id). */
  async start(request: Request, response: Response, account: AccountTokens): Promise<LiveSession> {
    const session = await this.open(request, response);
    session.sid = randomBytes(16).toString('base64url');
    session.account = account;
    await session.save();
    this.remember(this.confirmed, session.sid);
    this.inspectorTokens.remember(account);
    return { sid: session.sid, account };
  }

  /**
   * The live session of this request, its access token renewed when due; undefined (and the cookie cleared) when
   * there is none, it was signed out, or inspection-api no longer renews its tokens.
   */
  async current(request: Request, response: Response): Promise<LiveSession | undefined> {
    const session = await this.open(request, response);
    const { sid, account } = session;
    if (!sid || !account) return undefined;
    if (this.isKnown(this.revoked, sid)) {
      session.destroy();
      return undefined;
    }
    let current = account;
    // Renewed when due, and once per process before it is first trusted (a restart, another instance): a session
    // signed out (its refresh token blacklisted) or whose user's tokens were revoked ends here.
    const due = account.accessExpiresAt - RENEWAL_MARGIN_SECONDS <= Date.now() / 1000;
    if (due || !this.isKnown(this.confirmed, sid)) {
      const renewed = await this.accounts.renew(account);
      if (!renewed) {
        session.destroy();
        return undefined;
      }
      this.remember(this.confirmed, sid);
      current = renewed;
    }
    session.account = current;
    await session.save();
    this.inspectorTokens.remember(current);
    return { sid, account: current };
  }

  /**
   * Ends the session: the cookie is cleared, its id refused by this process and its refresh token blacklisted at
   * inspection-api (when inspection-api cannot take it, a warning is logged and this process still refuses it).
   */
  async end(request: Request, response: Response): Promise<void> {
    const session = await this.open(request, response);
    const { sid, account } = session;
    if (sid) {
      this.remember(this.revoked, sid);
      this.confirmed.delete(sid);
    }
    session.destroy();
    if (!account) return;
    this.inspectorTokens.forget(account);
    const done = await this.accounts.signOut(account).catch(() => false);
    if (!done) {
      this.logger.warn(
        { userId: account.userId },
        'sign-out: inspection-api did not blacklist the refresh token; only this process refuses the session',
      );
    }
  }

  /** Notes a session id for the session's lifetime (the cookie's TTL); entries past theirs are dropped. */
  private remember(ids: Map<string, number>, sid: string): void {
    const now = Date.now();
    if (ids.size >= 1000) for (const [id, until] of ids) if (until <= now) ids.delete(id);
    ids.set(sid, now + this.ttlSeconds * 1000);
  }

  private isKnown(ids: Map<string, number>, sid: string): boolean {
    const until = ids.get(sid);
    return until !== undefined && until > Date.now();
  }
}
