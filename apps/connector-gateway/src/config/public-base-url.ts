import { type Request } from 'express';
import { type ConnectorGatewayEnvironment } from './connector-gateway.environment';

/**
 * The base URL bots reach this gateway at: CONNECTOR_PUBLIC_URL, or the request's protocol and Host
 * (X-Forwarded-* believed only as TRUST_PROXY allows).
 */
export function publicBaseUrl(environment: ConnectorGatewayEnvironment, request: Request): string {
  if (environment.CONNECTOR_PUBLIC_URL) return environment.CONNECTOR_PUBLIC_URL;
  return `${request.protocol}://${request.get('host') ?? 'localhost'}`;
}

/** The token endpoint of a tenant (also the `aud` a client assertion must carry). */
export function tokenEndpointUrl(baseUrl: string, tenant: string): string {
  return `${baseUrl}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`;
}
