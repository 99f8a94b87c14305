import { type IncomingMessage, type ServerResponse } from 'node:http';

export const BAD_AUTHORIZATION_HEADER = 'bad_authorization_header';

export type RequestWithAuthProblem = IncomingMessage & { authorizationProblem?: string };

/**
 * simplejwt's reading of `Authorization`: only `Bearer <token>` (case-sensitive scheme, exactly two
 * whitespace-separated values) is a credential. Another scheme counts as no credentials; `Bearer` with one
 * or three values is `bad_authorization_header`. The header is normalised so the passport strategy sees
 * exactly what simplejwt would accept, and nothing else.
 */
export function authorizationHeaderMiddleware(
  request: IncomingMessage,
  _response: ServerResponse,
  next: () => void,
): void {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const parts = header.trim().split(/\s+/).filter(Boolean);
    if (parts[0] !== 'Bearer') {
      delete request.headers.authorization;
    } else if (parts.length !== 2) {
      delete request.headers.authorization;
      (request as RequestWithAuthProblem).authorizationProblem = BAD_AUTHORIZATION_HEADER;
    } else {
      request.headers.authorization = `Bearer ${parts[1]}`;
    }
  }
  next();
}
