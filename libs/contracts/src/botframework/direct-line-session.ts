/**
 * The browser session of Web Chat's sign-in: relay-gateway's `GET …/session/getsessionid` sets this cookie and
 * answers its value as `sessionId`; Web Chat appends `&code_challenge={sessionId}` to an OAuthCard's sign-in link;
 * connector-gateway delivers the token straight to the bot only when the browser that signs in holds the cookie
 * with that value (the same browser as the chat), and shows the magic code otherwise.
 */
export const DIRECT_LINE_SESSION_COOKIE = 'fieldops_directline_session';
