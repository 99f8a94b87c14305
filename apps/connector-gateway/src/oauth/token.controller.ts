import { Controller, HttpCode, Post, Req, Res, UseFilters } from '@nestjs/common';
import { type Request, type Response } from 'express';
import { Public, publicBaseUrl } from '@fieldops/platform';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { tokenEndpointUrl } from './token-endpoint-url';
import { AccessTokenService, audienceOfScope } from './access-token.service';
import { ClientAuthenticator } from './client-authenticator.service';
import { type TokenRequestForm, type TokenResponse } from './dto/token.dto';
import { OAuthError } from './oauth-error';
import { OAuthErrorFilter } from './oauth-error.filter';

const READ_FIELDS = [
  'grant_type',
  'client_id',
  'client_secret',
  'client_assertion_type',
  'client_assertion',
  'scope',
] as const;

/** Reads the form fields this endpoint uses; a non-form body counts as empty, a repeated field is refused. */
export function readTokenForm(request: Request): TokenRequestForm {
  const body: unknown = request.body;
  if (!request.is('application/x-www-form-urlencoded') || typeof body !== 'object' || body === null)
    return {};
  const form: TokenRequestForm = {};
  for (const name of READ_FIELDS) {
    const value = (body as Record<string, unknown>)[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') throw OAuthError.duplicateParameter(name);
    form[name] = value;
  }
  return form;
}

/**
 * The OAuth 2.0 token endpoint (client credentials only): `POST /{tenant}/oauth2/v2.0/token`, where
 * `tenant` is one of CONNECTOR_TOKEN_TENANTS (default `botframework.com`).
 */
@Public()
@Controller()
@UseFilters(OAuthErrorFilter)
export class TokenController {
  constructor(
    private readonly environment: ConnectorGatewayEnvironment,
    private readonly authenticator: ClientAuthenticator,
    private readonly tokens: AccessTokenService,
  ) {}

  @Post(':tenant/oauth2/v2.0/token')
  @HttpCode(200)
  async token(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TokenResponse> {
    const tenant = String(request.params.tenant);
    if (!this.environment.CONNECTOR_TOKEN_TENANTS.includes(tenant)) throw OAuthError.unknownTenant(tenant);
    const form = readTokenForm(request);
    if (form.grant_type === undefined) throw OAuthError.missingParameter('grant_type');
    if (form.grant_type !== 'client_credentials') throw OAuthError.unsupportedGrantType(form.grant_type);
    const clientId = form.client_id;
    if (clientId === undefined) throw OAuthError.missingParameter('client_id');
    if (form.scope === undefined) throw OAuthError.missingParameter('scope');
    const endpoint = tokenEndpointUrl(
      publicBaseUrl(request, this.environment.CONNECTOR_PUBLIC_URL, this.environment.CONNECTOR_ALLOWED_HOSTS),
      tenant,
    );
    const client = await this.authenticator.authenticate({ ...form, client_id: clientId }, endpoint);
    const audience = this.audienceFor(form.scope);
    const issued = this.tokens.issue({ appId: client.bot.appId, audience, tenant, method: client.method });
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Pragma', 'no-cache');
    return {
      token_type: 'Bearer',
      expires_in: issued.expiresInSeconds,
      ext_expires_in: issued.expiresInSeconds,
      access_token: issued.accessToken,
    };
  }

  /** Exactly one accepted `{resource}/.default` scope (msal may add nothing else for client credentials). */
  private audienceFor(scope: string): string {
    const scopes = scope.split(' ').filter((item) => item !== '');
    if (scopes.length !== 1) throw OAuthError.invalidScope(scope, 'not-one');
    const [only] = scopes as [string];
    const accepted = [...this.environment.CONNECTOR_TOKEN_SCOPES, this.environment.CONNECTOR_AI_TOKEN_SCOPE];
    if (accepted.includes(only)) return audienceOfScope(only);
    if (this.tokens.audiences().includes(only)) throw OAuthError.invalidScope(only, 'no-default');
    throw OAuthError.invalidScope(only, 'unknown');
  }
}
