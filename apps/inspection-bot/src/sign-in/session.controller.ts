import { Body, Controller, Delete, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { ErrorEnvelopeException } from '@fieldops/platform';
import { ChatSessions } from './chat-sessions';
import { InspectionAccounts, type SignInOutcome } from './inspection-accounts';
import { SignInThrottle } from './sign-in-throttle';

export interface SessionView {
  /** null: not signed in (answered 200, so a signed-out page load logs no failed request). */
  user: { id: number; username: string } | null;
}

export const NOT_SIGNED_IN = (): ErrorEnvelopeException =>
  new ErrorEnvelopeException(401, 'NotSignedIn', 'Sign in first.');

export function tooManyRequests(retryAfterSeconds: number, message: string): ErrorEnvelopeException {
  return new ErrorEnvelopeException(429, 'TooManyRequests', message, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

function credential(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

/**
 * The chat page's sign-in: `POST /api/session` exchanges an inspection-api user name and password for a session
 * cookie (401 `InvalidCredentials`, 429 with Retry-After when throttled), `GET /api/session` is the live session
 * (renewed) or `{"user": null}`, `DELETE /api/session` signs out.
 */
@Controller('api/session')
export class SessionController {
  constructor(
    private readonly sessions: ChatSessions,
    private readonly accounts: InspectionAccounts,
    private readonly throttle: SignInThrottle,
  ) {}

  @Get()
  @Header('cache-control', 'no-store')
  async current(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionView> {
    const live = await this.sessions.current(request, response);
    if (!live) return { user: null };
    return { user: { id: live.account.userId, username: live.account.username } };
  }

  @Post()
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  async signIn(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<SessionView> {
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const username = credential(
      typeof fields.username === 'string' ? fields.username.trim() : undefined,
      150,
    );
    const password = credential(fields.password, 1024);
    if (!username || !password) {
      throw new ErrorEnvelopeException(400, 'MissingProperty', 'A user name and a password are required.');
    }
    const address = request.ip ?? request.socket.remoteAddress ?? 'unknown';
    const wait = await this.throttle.attempt(username, address);
    if (wait !== undefined) throw tooManyRequests(wait, 'Too many sign-in attempts.');
    let outcome: SignInOutcome;
    try {
      outcome = await this.accounts.signIn(username, password, address);
    } catch (error) {
      // Only a refused password counts: a sign-in inspection-api could not check gives its points back.
      await this.throttle.notCounted(username, address);
      throw error;
    }
    if (outcome.kind === 'throttled') {
      await this.throttle.notCounted(username, address);
      throw tooManyRequests(outcome.retryAfterSeconds, 'Too many sign-in attempts.');
    }
    if (outcome.kind === 'refused') {
      throw new ErrorEnvelopeException(401, 'InvalidCredentials', 'Wrong user name or password.');
    }
    await this.throttle.succeeded(username, address);
    const live = await this.sessions.start(request, response, outcome.account);
    return { user: { id: live.account.userId, username: live.account.username } };
  }

  @Delete()
  @HttpCode(204)
  async signOut(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    await this.sessions.end(request, response);
  }
}
