import { Controller, Get, Header, NotFoundException, Param, Req } from '@nestjs/common';
import { type Request } from 'express';
import { KeyRing } from '@fieldops/auth';
import { Public, publicBaseUrl } from '@fieldops/platform';
import { ConnectorGatewayEnvironment } from '../config/connector-gateway.environment';
import { tokenEndpointUrl } from '../oauth/token-endpoint-url';
import { type OpenIdConfiguration } from './dto/openid-configuration.dto';
import { publishedJwks, type PublishedJwk } from './jwks';

/**
 * The authority's discovery documents, so msal-node can be pointed at this gateway
 * (`authority: https://…/{tenant}`, `knownAuthorities`, `authorityMetadata` = this document):
 * `GET /{tenant}/v2.0/.well-known/openid-configuration` and its JWKS `GET /{tenant}/discovery/v2.0/keys`.
 */
@Public()
@Controller()
export class OpenIdController {
  constructor(
    private readonly environment: ConnectorGatewayEnvironment,
    private readonly keyRing: KeyRing,
  ) {}

  @Get(':tenant/v2.0/.well-known/openid-configuration')
  @Header('Cache-Control', 'public, max-age=3600')
  configuration(@Param('tenant') tenant: string, @Req() request: Request): OpenIdConfiguration {
    this.assertTenant(tenant);
    const base = publicBaseUrl(
      request,
      this.environment.CONNECTOR_PUBLIC_URL,
      this.environment.CONNECTOR_ALLOWED_HOSTS,
    );
    const authority = `${base}/${encodeURIComponent(tenant)}`;
    return {
      token_endpoint: tokenEndpointUrl(base, tenant),
      issuer: this.environment.CONNECTOR_TOKEN_ISSUER,
      // Only the client-credentials grant is served; these two exist because msal requires them.
      authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
      jwks_uri: `${authority}/discovery/v2.0/keys`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256'],
      grant_types_supported: ['client_credentials'],
      response_types_supported: ['token'],
      scopes_supported: [...this.environment.CONNECTOR_TOKEN_SCOPES],
      id_token_signing_alg_values_supported: ['RS256'],
      tenant_region_scope: null,
    };
  }

  @Get(':tenant/discovery/v2.0/keys')
  @Header('Cache-Control', 'public, max-age=3600')
  keys(@Param('tenant') tenant: string): { keys: PublishedJwk[] } {
    this.assertTenant(tenant);
    return publishedJwks(this.keyRing);
  }

  private assertTenant(tenant: string): void {
    if (!this.environment.CONNECTOR_TOKEN_TENANTS.includes(tenant)) {
      throw new NotFoundException(`Tenant '${tenant}' not found.`);
    }
  }
}
