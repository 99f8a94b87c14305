/** Body of `POST /api/directline/token`: who is chatting (the name becomes `checked_by` of their records). */
export interface DirectLineTokenRequest {
  name?: unknown;
  /** The page's locale (`?locale=` or the browser's), for the language of the welcome. */
  locale?: unknown;
}

/** What the chat page needs to open Web Chat. */
export interface DirectLineTokenResponse {
  token: string;
  conversationId: string;
  expiresIn: number;
  userId: string;
  userName: string;
  /** Web Chat's `domain`: the relay's public `/v3/directline` URL. */
  domain: string;
}
