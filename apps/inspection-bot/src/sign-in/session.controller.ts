import { Body, Controller, Delete, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { ErrorEnvelopeException } from '@fieldops/platform';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
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

const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

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
    private readonly environment: InspectionBotEnvironment,
  ) {}

  /** How people sign in: inspection-api's provider (its name, for "Sign in with …") and whether passwords work. */
  @Get('options')
  @Header('cache-control', 'no-store')
  async options(): Promise<{ provider: string | null; passwords: boolean }> {
    const options = await this.accounts.signInOptions();
    return { provider: options.provider?.name ?? null, passwords: options.local_passwords };
  }

  /**
   * Starts a sign-in through inspection-api's OpenID Connect provider: to inspection-api's login, which returns
   * to `oidc/return` here with a one-time code, bound to this browser (see {@link ChatSessions.beginProviderSignIn}).
   */
  @Get('oidc/start')
  async startProviderSignIn(
    @Query('locale') locale: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const provider = (await this.accounts.signInOptions()).provider;
    if (!provider) return this.backToPage(response, locale, 'temporarily_unavailable');
    const binding = await this.sessions.beginProviderSignIn(request, response);
    const back = new URL(`${this.origin(request)}/api/session/oidc/return`);
    back.searchParams.set('binding', binding);
    if (typeof locale === 'string' && LOCALE.test(locale)) back.searchParams.set('locale', locale);
    const login = new URL(provider.login_url);
    login.searchParams.set('next', back.href);
    response.setHeader('Cache-Control', 'no-store');
    response.redirect(302, login.href);
  }

  /** The provider's sign-in came back: the code becomes this browser's session, then the chat page. */
  @Get('oidc/return')
  async finishProviderSignIn(
    @Query('binding') binding: unknown,
    @Query('oidc_code') code: unknown,
    @Query('oidc_error') error: unknown,
    @Query('locale') locale: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const bound = await this.sessions.endProviderSignIn(
      request,
      response,
      typeof binding === 'string' ? binding : undefined,
    );
    if (!bound) return this.backToPage(response, locale, 'expired');
    if (typeof error === 'string' || typeof code !== 'string' || code.length > 200) {
      return this.backToPage(response, locale, typeof error === 'string' ? error : 'expired');
    }
    const account = await this.accounts.exchangeProviderCode(code).catch(() => 'unavailable' as const);
    if (account === 'unavailable') return this.backToPage(response, locale, 'temporarily_unavailable');
    if (!account) return this.backToPage(response, locale, 'expired');
    await this.sessions.start(request, response, account);
    this.backToPage(response, locale);
  }

  /** The chat page (in its locale), with the reason a provider sign-in did not complete. */
  private backToPage(response: Response, locale: unknown, error?: string): void {
    const query = new URLSearchParams();
    if (typeof locale === 'string' && LOCALE.test(locale)) query.set('locale', locale);
    if (error) query.set('sign_in_error', /^[a-z_]{1,40}$/.test(error) ? error : 'other');
    const search = query.toString();
    response.setHeader('Cache-Control', 'no-store');
    response.redirect(302, search ? `/?${search}` : '/');
  }

  /** Where browsers reach this server (INSPECTION_BOT_PUBLIC_URL, else the request's own). */
  private origin(request: Request): string {
    return (
      this.environment.INSPECTION_BOT_PUBLIC_URL ??
      `${request.protocol}://${request.get('host') ?? 'localhost'}`
    );
  }

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
