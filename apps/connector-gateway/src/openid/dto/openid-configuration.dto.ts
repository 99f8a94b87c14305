/** The OpenID Provider Metadata fields this gateway publishes (msal-node needs the first four). */
export interface OpenIdConfiguration {
  token_endpoint: string;
  issuer: string;
  authorization_endpoint: string;
  jwks_uri: string;
  end_session_endpoint?: string;
  token_endpoint_auth_methods_supported: string[];
  grant_types_supported?: string[];
  response_types_supported?: string[];
  scopes_supported?: string[];
  id_token_signing_alg_values_supported: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  tenant_region_scope?: string | null;
}
