/** The token endpoint of a tenant (also the `aud` a client assertion must carry). */
export function tokenEndpointUrl(baseUrl: string, tenant: string): string {
  return `${baseUrl}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`;
}
