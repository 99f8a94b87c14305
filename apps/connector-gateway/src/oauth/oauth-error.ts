import { randomUUID } from 'node:crypto';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

/** The RFC 6749 §5.2 error body, with the details Azure AD adds (`error_codes`, trace and correlation ids). */
export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
  error_codes: number[];
  timestamp: string;
  trace_id: string;
  correlation_id: string;
  error_uri: string;
}

/**
 * A refused token request. `aadCode` is the AADSTS number a client would see from Azure AD in the same
 * situation, so logs and client-side handling read the same.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly error: OAuthErrorCode,
    readonly aadCode: number,
    readonly description: string,
  ) {
    super(`AADSTS${aadCode}: ${description}`);
    this.name = 'OAuthError';
  }

  static missingParameter(name: string): OAuthError {
    return new OAuthError(
      400,
      'invalid_request',
      900144,
      `The request body must contain the following parameter: '${name}'.`,
    );
  }

  static duplicateParameter(name: string): OAuthError {
    return new OAuthError(400, 'invalid_request', 90015, `The parameter '${name}' is duplicated.`);
  }

  static unknownTenant(tenant: string): OAuthError {
    return new OAuthError(400, 'invalid_request', 90002, `Tenant '${tenant}' not found.`);
  }

  static unsupportedGrantType(grantType: string): OAuthError {
    return new OAuthError(
      400,
      'unsupported_grant_type',
      70003,
      `The app requested an unsupported grant type '${grantType}'. Only 'client_credentials' is supported.`,
    );
  }

  static unknownClient(clientId: string): OAuthError {
    return new OAuthError(
      401,
      'invalid_client',
      700016,
      `Application with identifier '${clientId}' was not found in the directory.`,
    );
  }

  static noCredentials(): OAuthError {
    return new OAuthError(
      401,
      'invalid_client',
      7000218,
      "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
    );
  }

  static badSecret(clientId: string): OAuthError {
    return new OAuthError(
      401,
      'invalid_client',
      7000215,
      `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value for app '${clientId}'.`,
    );
  }

  static badAssertion(reason: string): OAuthError {
    return new OAuthError(
      401,
      'invalid_client',
      700027,
      `Client assertion failed validation. [Reason - ${reason}]`,
    );
  }

  static invalidScope(scope: string, reason: string): OAuthError {
    return new OAuthError(
      400,
      'invalid_scope',
      reason === 'no-default' ? 1002012 : 70011,
      reason === 'no-default'
        ? `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`
        : `The provided value for the input parameter 'scope' is not valid. The scope ${scope} is not valid.`,
    );
  }

  /** The wire body; `traceId`/`correlationId` tie it to the log line. */
  toBody(
    baseUrl: string,
    correlationId: string,
    traceId: string = randomUUID(),
    now = new Date(),
  ): OAuthErrorBody {
    const timestamp = now
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d{3}Z$/, 'Z');
    return {
      error: this.error,
      error_description: `${this.message}\r\nTrace ID: ${traceId}\r\nCorrelation ID: ${correlationId}\r\nTimestamp: ${timestamp}`,
      error_codes: [this.aadCode],
      timestamp,
      trace_id: traceId,
      correlation_id: correlationId,
      error_uri: `${baseUrl}/error?code=${this.aadCode}`,
    };
  }
}
