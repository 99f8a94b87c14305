import { Body, Controller, Delete, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { badArgument } from '@fieldops/contracts';
import { publicBaseUrl } from '@fieldops/platform';
import { type BotPrincipal } from '../bot-auth/bot-access-token-verifier';
import { CallingBot } from '../bot-auth/calling-bot.decorator';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import {
  type SignInResource,
  type TokenResponse,
  type TokenStatus,
  type UserTokenKey,
  UserTokenService,
} from './user-token.service';

type QueryValue = string | string[] | undefined;

/** A query parameter given once; `required`: 400 when absent or empty. */
function single(query: Record<string, unknown>, name: string, required: true): string;
function single(query: Record<string, unknown>, name: string, required?: false): string | undefined;
function single(query: Record<string, unknown>, name: string, required = false): string | undefined {
  const value = query[name] as QueryValue;
  if (Array.isArray(value)) throw badArgument(`${name} must be given once`);
  if (required && (value === undefined || value === '')) throw badArgument(`${name} is required`);
  return value;
}

function tokenKey(query: Record<string, unknown>): UserTokenKey {
  return {
    userId: single(query, 'userId', true),
    connectionName: single(query, 'connectionName', true),
    channelId: single(query, 'channelId', true),
  };
}

/**
 * The Bot Framework token service API (`OAuthApiEndpoint` for botbuilder, `TOKEN_SERVICE_ENDPOINT` for the Agents
 * SDK), authenticated with the bot's connector token by the global guard. "No token" is 404 with an empty body:
 * botbuilder reads a 404's body as the TokenResponse, the Agents SDK reads 404 as no token.
 */
@Controller('api')
export class UserTokenController {
  constructor(
    private readonly tokens: UserTokenService,
    private readonly environment: ConnectorGatewayEnvironment,
  ) {}

  @Get('usertoken/GetToken')
  async getToken(
    @CallingBot() bot: BotPrincipal,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TokenResponse | undefined> {
    const token = await this.tokens.getToken(bot, tokenKey(query), single(query, 'code'));
    if (!token) response.status(404);
    return token;
  }

  @Post('usertoken/GetAadTokens')
  @HttpCode(200)
  getAadTokens(
    @CallingBot() bot: BotPrincipal,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Record<string, TokenResponse> {
    const key = tokenKey(query);
    const urls = (body as { resourceUrls?: unknown } | undefined)?.resourceUrls;
    if (!Array.isArray(urls) || !urls.every((url) => typeof url === 'string'))
      throw badArgument('resourceUrls must be a list of strings');
    this.tokens.connection(bot, key.connectionName);
    // An OpenID Connect connection holds one token, for its own provider: no per-resource (AAD v1) tokens.
    return {};
  }

  @Delete('usertoken/SignOut')
  @HttpCode(200)
  async signOut(@CallingBot() bot: BotPrincipal, @Query() query: Record<string, unknown>): Promise<object> {
    await this.tokens.signOut(
      bot,
      single(query, 'userId', true),
      single(query, 'channelId', true),
      single(query, 'connectionName'),
    );
    return {};
  }

  @Get('usertoken/GetTokenStatus')
  async getTokenStatus(
    @CallingBot() bot: BotPrincipal,
    @Query() query: Record<string, unknown>,
  ): Promise<TokenStatus[]> {
    return this.tokens.tokenStatus(
      bot,
      single(query, 'userId', true),
      single(query, 'channelId', true),
      single(query, 'include'),
    );
  }

  @Post('usertoken/exchange')
  @HttpCode(200)
  async exchange(
    @CallingBot() bot: BotPrincipal,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TokenResponse | undefined> {
    const key = tokenKey(query);
    const request = (body ?? {}) as { uri?: unknown; token?: unknown };
    if (typeof request.token !== 'string' && typeof request.uri !== 'string')
      throw badArgument('The body must be a TokenExchangeRequest {uri, token}');
    if (typeof request.token === 'string' && request.token.length > 16_384)
      throw badArgument('token is too long');
    const exchanged =
      typeof request.token === 'string' && request.token !== ''
        ? await this.tokens.exchange(bot, key, request.token)
        : (this.tokens.connection(bot, key.connectionName), undefined);
    // Not exchangeable: 404, and the SDKs fall back to the sign-in card.
    if (!exchanged) response.status(404);
    return exchanged;
  }

  @Get('usertoken/GetTokenOrSignInResource')
  async getTokenOrSignInResource(
    @CallingBot() bot: BotPrincipal,
    @Query() query: Record<string, unknown>,
    @Req() request: Request,
  ): Promise<{ tokenResponse: TokenResponse } | { signInResource: SignInResource }> {
    return this.tokens.tokenOrSignInResource(
      bot,
      tokenKey(query),
      single(query, 'state'),
      this.baseUrl(request),
      {
        code: single(query, 'code'),
        finalRedirect: single(query, 'finalRedirect'),
      },
    );
  }

  @Get('botsignin/GetSignInUrl')
  async getSignInUrl(
    @CallingBot() bot: BotPrincipal,
    @Query() query: Record<string, unknown>,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const { signInLink } = await this.tokens.signInResource(
      bot,
      single(query, 'state'),
      this.baseUrl(request),
      {
        finalRedirect: single(query, 'finalRedirect'),
      },
    );
    response.status(200).type('text/plain').send(signInLink);
  }

  @Get('botsignin/GetSignInResource')
  async getSignInResource(
    @CallingBot() bot: BotPrincipal,
    @Query() query: Record<string, unknown>,
    @Req() request: Request,
  ): Promise<SignInResource> {
    return this.tokens.signInResource(bot, single(query, 'state'), this.baseUrl(request), {
      finalRedirect: single(query, 'finalRedirect'),
    });
  }

  private baseUrl(request: Request): string {
    return publicBaseUrl(
      request,
      this.environment.CONNECTOR_PUBLIC_URL,
      this.environment.CONNECTOR_ALLOWED_HOSTS,
    );
  }
}
