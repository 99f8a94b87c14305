/** Body of `POST /api/directline/token` (a signed-in session only: the account is the session's). */
export interface DirectLineTokenRequest {
  /** The page's locale (`?locale=` or the browser's), for the language of the welcome. */
  locale?: unknown;
  /** The conversation the page is in and its current token: rejoined with a refreshed token when still valid. */
  conversationId?: unknown;
  token?: unknown;
}

/** What the chat page needs to open Web Chat. */
export interface DirectLineTokenResponse {
  token: string;
  conversationId: string;
  expiresIn: number;
  /** `dl_<inspection-api user id>`. */
  userId: string;
  userName: string;
  /** Web Chat's `domain`: the relay's public `/v3/directline` URL. */
  domain: string;
}
