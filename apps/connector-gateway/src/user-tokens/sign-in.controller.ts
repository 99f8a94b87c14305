import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { DIRECT_LINE_SESSION_COOKIE } from '@fieldops/contracts';
import { Public, publicBaseUrl } from '@fieldops/platform';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { OAuthProviderError } from './oauth-providers';
import { expiredPage, failedPage, magicCodePage, signedInPage } from './sign-in-pages';
import { UserTokenService } from './user-token.service';

const first = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : Array.isArray(value) && typeof value[0] === 'string'
      ? value[0]
      : undefined;

/** Web Chat appends `&code_challenge={sessionId}` URL-encoded to the link, so it arrives inside `signin`. */
const WEB_CHAT_CHALLENGE = '&code_challenge=';

function cookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index >= 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/**
 * The pages a user's browser goes through (no bot token: the signed, single-use sign-in id is the credential): the
 * sign-in link sends it to the provider (authorization code + PKCE), the provider sends it back to the callback,
 * which hands the token to the bot when the browser is the chat's own (Web Chat's `code_challenge` matches its Direct
Line session cookie) and otherwise shows the magic code. Register `{CONNECTOR_PUBLIC_URL}/api/oauth/callback` at the provider.
 */
@Public()
@Controller('api/oauth')
export class SignInController {
  constructor(
    private readonly tokens: UserTokenService,
    private readonly environment: ConnectorGatewayEnvironment,
  ) {}

  @Get('signin')
  async signIn(
    @Query('signin') signin: unknown,
    @Query('code_challenge') codeChallenge: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const [signedId, embeddedChallenge] = (first(signin) ?? '').split(WEB_CHAT_CHALLENGE);
    const challenge = embeddedChallenge ?? first(codeChallenge);
    try {
      const destination =
        signedId &&
        (await this.tokens.startSignIn(signedId, this.redirectUri(request), {
          codeChallenge: challenge,
          session: cookie(request, DIRECT_LINE_SESSION_COOKIE),
        }));
      if (!destination) return this.render(response, 400, expiredPage());
      response.setHeader('Cache-Control', 'no-store');
      response.redirect(302, destination.href);
    } catch (error) {
      if (!(error instanceof OAuthProviderError)) throw error;
      this.render(response, 502, failedPage());
    }
  }

  @Get('callback')
  async callback(
    @Query('state') state: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const signedState = first(state);
    const base = this.baseUrl(request);
    try {
      const completed =
        signedState &&
        (await this.tokens.completeSignIn(signedState, new URL(request.originalUrl, `${base}/`)));
      if (!completed) return this.render(response, 400, expiredPage());
      this.render(
        response,
        200,
        completed.code === undefined
          ? signedInPage(completed.provider)
          : magicCodePage(completed.code, completed.provider),
      );
    } catch (error) {
      if (!(error instanceof OAuthProviderError)) throw error;
      this.render(response, 502, failedPage());
    }
  }

  /** The base URL users' browsers reach this service at (a Host outside CONNECTOR_ALLOWED_HOSTS is refused). */
  private baseUrl(request: Request): string {
    return publicBaseUrl(
      request,
      this.environment.CONNECTOR_PUBLIC_URL,
      this.environment.CONNECTOR_ALLOWED_HOSTS,
    );
  }

  private redirectUri(request: Request): string {
    return `${this.baseUrl(request)}/api/oauth/callback`;
  }

  private render(response: Response, status: number, html: string): void {
    response
      .status(status)
      .setHeader('Cache-Control', 'no-store')
      .setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .setHeader('Referrer-Policy', 'no-referrer')
      .type('html')
      .send(html);
  }
}
