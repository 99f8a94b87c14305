import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { getIronSession, type IronSession } from 'iron-session';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { type AccountTokens, InspectionAccounts } from './inspection-accounts';

export const SESSION_COOKIE = 'fieldops_chat';

/** What the sealed cookie holds: a session id (for rate limits and sign-out) and the account's tokens. */
export interface ChatSessionData {
  sid?: string;
  account?: AccountTokens;
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
 * the cookie again, so the session lasts while the user is active. Sign-out clears the cookie and revokes its id
 * in this process, so a copy of the cookie is refused too (one bot instance).
 */
@Injectable()
export class ChatSessions {
  private readonly password: string;
  private readonly ttlSeconds: number;
  /** Signed-out session ids → when their cookies would have expired (epoch ms). */
  private readonly revoked = new Map<string, number>();

  constructor(
    environment: InspectionBotEnvironment,
    private readonly accounts: InspectionAccounts,
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

  /** Starts a session for a signed-in account (a new session id). */
  async start(request: Request, response: Response, account: AccountTokens): Promise<LiveSession> {
    const session = await this.open(request, response);
    session.sid = randomBytes(16).toString('base64url');
    session.account = account;
    await session.save();
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
    if (this.isRevoked(sid)) {
      session.destroy();
      return undefined;
    }
    let current = account;
    if (account.accessExpiresAt - RENEWAL_MARGIN_SECONDS <= Date.now() / 1000) {
      const renewed = await this.accounts.renew(account);
      if (!renewed) {
        session.destroy();
        return undefined;
      }
      current = renewed;
    }
    session.account = current;
    await session.save();
    return { sid, account: current };
  }

  /** Ends the session: the cookie is cleared and its id refused from now on. */
  async end(request: Request, response: Response): Promise<void> {
    const session = await this.open(request, response);
    if (session.sid) this.revoke(session.sid);
    session.destroy();
  }

  private revoke(sid: string): void {
    const now = Date.now();
    for (const [id, until] of this.revoked) if (until <= now) this.revoked.delete(id);
    this.revoked.set(sid, now + this.ttlSeconds * 1000);
  }

  private isRevoked(sid: string): boolean {
    const until = this.revoked.get(sid);
    return until !== undefined && until > Date.now();
  }
}
