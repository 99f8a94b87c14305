import { type Request } from 'express';
import { publicBaseUrl } from '@fieldops/platform';
import { attachmentPath, streamPath, v3PrefixOf } from './v3-paths';

/*
 * The relay's public URLs, on the base URL of platform's one rule (RELAY_PUBLIC_URL, else the request's protocol and
 * host with trusted X-Forwarded-*).
 */

/** The streamUrl handed to a client: `ws`/`wss` on the public host, on the v3 prefix the request came in on. */
export function streamUrlFor(
  request: Request,
  configured: string | undefined,
  conversationId: string,
  watermark: string,
  streamToken: string,
): string {
  const base = publicBaseUrl(request, configured).replace(/^http/, 'ws');
  const query = new URLSearchParams({ watermark, t: streamToken });
  return `${base}/${streamPath(v3PrefixOf(request.path), conversationId)}?${query.toString()}`;
}

/** The download URL of an uploaded file, signed with its attachment token `t`. */
export function attachmentUrlFor(
  request: Request,
  configured: string | undefined,
  file: { conversationId: string; attachmentId: string; name: string; token: string },
): string {
  const path = attachmentPath(file.conversationId, file.attachmentId, file.name);
  return `${publicBaseUrl(request, configured)}/${path}?t=${file.token}`;
}
