/** The form fields of a token request this gateway reads; every other field is ignored (msal adds several). */
export interface TokenRequestForm {
  grant_type?: string;
  client_id?: string;
  client_secret?: string;
  client_assertion_type?: string;
  client_assertion?: string;
  scope?: string;
}

/** 200 body of the token endpoint (the Azure AD v2.0 shape). */
export interface TokenResponse {
  token_type: 'Bearer';
  expires_in: number;
  ext_expires_in: number;
  access_token: string;
}

export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
