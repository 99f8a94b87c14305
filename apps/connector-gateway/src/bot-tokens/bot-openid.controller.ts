import { Controller, Get, Header, Req } from '@nestjs/common';
import { type Request } from 'express';
import { KeyRing } from '@fieldops/auth';
import { Public, publicBaseUrl } from '@fieldops/platform';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { publishedJwks, type PublishedJwk } from '../openid/jwks';

/** What botbuilder's `ToBotFromChannelOpenIdMetadataUrl` document holds (it reads only `jwks_uri`). */
export interface BotOpenIdMetadata {
  issuer: string;
  authorization_endpoint: string;
  jwks_uri: string;
  id_token_signing_alg_values_supported: string[];
  token_endpoint_auth_methods_supported: string[];
}

/**
 * The documents a bot fetches to validate the tokens the gateway sends it, shaped like
 * `login.botframework.com`'s: `GET /v1/.well-known/openidconfiguration` and `GET /v1/.well-known/keys`
 * (each key with `endorsements` = CONNECTOR_CHANNEL_IDS).
 */
@Public()
@Controller('v1/.well-known')
export class BotOpenIdController {
  constructor(
    private readonly environment: ConnectorGatewayEnvironment,
    private readonly keyRing: KeyRing,
  ) {}

  @Get('openidconfiguration')
  @Header('Cache-Control', 'public, max-age=3600')
  configuration(@Req() request: Request): BotOpenIdMetadata {
    const base = publicBaseUrl(
      request,
      this.environment.CONNECTOR_PUBLIC_URL,
      this.environment.CONNECTOR_ALLOWED_HOSTS,
    );
    return {
      issuer: this.environment.CONNECTOR_BOT_TOKEN_ISSUER,
      authorization_endpoint: `${base}/v1/authorize-unsupported`,
      jwks_uri: `${base}/v1/.well-known/keys`,
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
    };
  }

  @Get('keys')
  @Header('Cache-Control', 'public, max-age=3600')
  keys(): { keys: PublishedJwk[] } {
    return publishedJwks(this.keyRing, this.environment.CONNECTOR_CHANNEL_IDS);
  }
}
