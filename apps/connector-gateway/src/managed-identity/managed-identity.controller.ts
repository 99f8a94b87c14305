import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Headers, Query, Res, UseFilters } from '@nestjs/common';
import { type Response } from 'express';
import { Public } from '@fieldops/platform';
import { BotRegistry } from '../bots/bot-registry';
import { type BotRegistration } from '../bots/registered-bot';
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
 * An App Service-style managed-identity endpoint: `GET /msi/token?api-version=2019-08-01&resource=…[&client_id=…]`
 * with `X-IDENTITY-HEADER`. Two kinds of header:
 * - the shared CONNECTOR_IDENTITY_HEADER with `client_id` (user-assigned: botbuilder `UserAssignedMsi`, Agents SDK
 *   `UserManagedIdentity`), for bots registered with `managedIdentity: true`;
 * - a bot's own `identityHeader`, which names the bot, so `client_id` may be left out (system-assigned: Agents SDK
 *   `SystemManagedIdentity`); given, it must be the bot's app id.
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
    const shared = this.environment.CONNECTOR_IDENTITY_HEADER;
    const ownHeaders = this.registry.all().some((bot) => bot.identityHeaderDigest !== undefined);
    if (shared === undefined && !ownHeaders) {
      throw new ManagedIdentityError(404, 'not_found', 'The managed-identity endpoint is not enabled.');
    }
    // A bot's own identity header names the bot (as App Service's does the app); the shared one needs client_id.
    const owner =
      identityHeader === undefined ? undefined : this.registry.findByIdentityHeader(identityHeader);
    const sharedHeader =
      owner === undefined &&
      identityHeader !== undefined &&
      shared !== undefined &&
      sameSecret(identityHeader, shared);
    if (owner === undefined && !sharedHeader) {
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
    const bot = owner ?? this.userAssignedIdentity(clientId);
    if (clientId !== undefined && clientId !== bot.appId) {
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

  /** With the shared header: the user-assigned identity `client_id` names (a bot with `managedIdentity: true`). */
  private userAssignedIdentity(clientId: string | undefined): BotRegistration {
    if (clientId === undefined) {
      throw new ManagedIdentityError(
        400,
        'invalid_request',
        "'client_id' is required with the shared identity header (a bot's own identityHeader needs none).",
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
    return bot;
  }
}
