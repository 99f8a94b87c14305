/** Why a bearer token was refused after its signature checked out (the message the principal check throws). */
export const WRONG_TOKEN_TYPE = 'Token has wrong type';
export const USER_NOT_FOUND = 'User not found';
export const USER_INACTIVE = 'User is inactive';
/** Expired, or issued before its user's tokens were revoked (token-revocation.ts): simplejwt's wording. */
export const TOKEN_REVOKED = 'Token is invalid or expired';
export const TOKEN_WITHOUT_USER = 'Token contained no recognizable user identification';

/** simplejwt's 401 bodies for those reasons (JWTAuthentication.get_validated_token / get_user). */
export const AUTH_FAILURES: Record<string, object> = {
  [WRONG_TOKEN_TYPE]: {
    detail: 'Given token not valid for any token type',
    code: 'token_not_valid',
    messages: [{ token_class: 'AccessToken', token_type: 'access', message: 'Token has wrong type' }],
  },
  [USER_NOT_FOUND]: { detail: 'User not found', code: 'user_not_found' },
  [USER_INACTIVE]: { detail: 'User is inactive', code: 'user_inactive' },
  [TOKEN_REVOKED]: {
    detail: 'Given token not valid for any token type',
    code: 'token_not_valid',
    messages: [{ token_class: 'AccessToken', token_type: 'access', message: TOKEN_REVOKED }],
  },
  [TOKEN_WITHOUT_USER]: { detail: TOKEN_WITHOUT_USER, code: 'token_not_valid' },
};
