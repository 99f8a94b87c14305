import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Query, Res, UseFilters } from '@nestjs/common';
import { type Response } from 'express';
import { Public } from '@fieldops/platform';
import { BotRegistry } from '../bots/bot-registry';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { AccessTokenService, audienceOfScope } from '../oauth/access-token.service';
import {
  MANAGED_IDENTITY_API_VERSION,
  type ManagedIdentityTokenResponse,
} from './dto/managed-identity-token.dto';
import { ManagedIdentityError, ManagedIdentityErrorFilter } from './managed-identity-error';

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * An App Service-style managed-identity endpoint: `GET /msi/token?api-version=2019-08-01&resource=…&client_id=…`
 * with `X-IDENTITY-HEADER`. A bot set up with `MicrosoftAppType=UserAssignedMsi`, `IDENTITY_ENDPOINT`
 * pointing here and `IDENTITY_HEADER` = CONNECTOR_IDENTITY_HEADER gets its tokens with no code change.
 * Only bots registered with `managedIdentity: true` are served.
 */
@Public()
@Controller()
@UseFilters(ManagedIdentityErrorFilter)
export class ManagedIdentityController {
  constructor(
    private readonly environment: ConnectorGatewayEnvironment,
    private readonly registry: BotRegistry,
    private readonly tokens: AccessTokenService,
  ) {}

  @Get('msi/token')
  token(
    @Query() query: Record<string, unknown>,
    @Headers('x-identity-header') identityHeader: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): ManagedIdentityTokenResponse {
    const expected = this.environment.CONNECTOR_IDENTITY_HEADER;
    if (expected === undefined) {
      throw new ManagedIdentityError(404, 'not_found', 'The managed-identity endpoint is not enabled.');
    }
    if (identityHeader === undefined || !sameSecret(identityHeader, expected)) {
      throw new ManagedIdentityError(401, 'invalid_request', 'The X-IDENTITY-HEADER is missing or wrong.');
    }
    const text = (name: string): string | undefined => {
      const value = query[name];
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string') {
        throw new ManagedIdentityError(400, 'invalid_request', `The parameter '${name}' is duplicated.`);
      }
      return value;
    };
    const apiVersion = text('api-version');
    if (apiVersion !== MANAGED_IDENTITY_API_VERSION) {
      throw new ManagedIdentityError(
        400,
        'invalid_request',
        `api-version must be ${MANAGED_IDENTITY_API_VERSION} (got ${apiVersion ?? 'none'}).`,
      );
    }
    const resource = text('resource');
    if (resource === undefined)
      throw new ManagedIdentityError(400, 'invalid_request', "'resource' is required.");
    const audience = audienceOfScope(resource);
    if (!this.tokens.audiences().includes(audience)) {
      throw new ManagedIdentityError(
        400,
        'invalid_resource',
        `The resource '${resource}' is not served here.`,
      );
    }
    const clientId = text('client_id');
    if (clientId === undefined) {
      throw new ManagedIdentityError(
        400,
        'invalid_request',
        "'client_id' is required: only user-assigned identities (one per registered bot) exist here.",
      );
    }
    const bot = this.registry.find(clientId);
    if (!bot?.managedIdentity) {
      throw new ManagedIdentityError(
        400,
        'invalid_request',
        `No managed identity found for the specified client_id '${clientId}'.`,
      );
    }
    const issued = this.tokens.issue({
      appId: bot.appId,
      audience,
      tenant: this.environment.CONNECTOR_TOKEN_TENANTS[0] ?? 'botframework.com',
      method: 'managed-identity',
    });
    response.setHeader('Cache-Control', 'no-store');
    return {
      access_token: issued.accessToken,
      expires_on: String(issued.expiresOn),
      resource: audience,
      token_type: 'Bearer',
      client_id: bot.appId,
    };
  }
}
