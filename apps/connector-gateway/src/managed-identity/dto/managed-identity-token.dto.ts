/** 200 body of the App Service managed-identity endpoint (api-version 2019-08-01). */
export interface ManagedIdentityTokenResponse {
  access_token: string;
  /** Epoch seconds, as a string (as App Service sends it). */
  expires_on: string;
  resource: string;
  token_type: 'Bearer';
  client_id: string;
}

/** Error body: the OAuth-style pair @azure/identity reads. */
export interface ManagedIdentityErrorBody {
  error: string;
  error_description: string;
}

export const MANAGED_IDENTITY_API_VERSION = '2019-08-01';
