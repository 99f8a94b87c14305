/** The bot's own routes, called from the page with the session cookie. */
export function api(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Response> {
  return fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export interface SessionUser {
  username: string;
}

/** `POST api/directline/token`: a Direct Line token for the signed-in account. */
export interface DirectLineSession {
  token: string;
  conversationId: string;
  expiresIn: number;
  userId: string;
  userName: string;
  domain: string;
}
