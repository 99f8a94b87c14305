/**
 * The paths of Direct Line 3.0. Both prefixes are served by the same handlers (`v3/relay` lets a proxy route the
 * relay by path); the URLs a client is given stay on the prefix it came in on.
 */
export const V3_PREFIXES = ['v3/directline', 'v3/relay'] as const;

export type V3Prefix = (typeof V3_PREFIXES)[number];

/** The v3 prefix a request path came in on (`v3/directline` for any other path). */
export function v3PrefixOf(path: string): V3Prefix {
  return V3_PREFIXES.find((prefix) => path.startsWith(`/${prefix}/`)) ?? V3_PREFIXES[0];
}

/** `{prefix}/conversations/{id}/stream`: the WebSocket stream of a conversation. */
export function streamPath(prefix: V3Prefix, conversationId: string): string {
  return `${prefix}/conversations/${encodeURIComponent(conversationId)}/stream`;
}

const STREAM_PATH = new RegExp(`^/(?:${V3_PREFIXES.join('|')})/conversations/([^/]+)/stream$`);

/** The conversation of a stream path (on either prefix); undefined for any other path. */
export function streamConversationOf(pathname: string): string | undefined {
  const encoded = STREAM_PATH.exec(pathname)?.[1];
  return encoded === undefined ? undefined : decodeURIComponent(encoded);
}

/** The route pattern of a stream path, as the metrics label it (undefined for any other path). */
export function streamRouteOf(pathname: string): string | undefined {
  if (streamConversationOf(pathname) === undefined) return undefined;
  return `/${v3PrefixOf(pathname)}/conversations/:conversationId/stream`;
}

/** `v3/directline/attachments/{conversationId}/{attachmentId}/{name}`: the download of an uploaded file. */
export function attachmentPath(conversationId: string, attachmentId: string, name: string): string {
  return `${V3_PREFIXES[0]}/attachments/${encodeURIComponent(conversationId)}/${attachmentId}/${encodeURIComponent(name)}`;
}
