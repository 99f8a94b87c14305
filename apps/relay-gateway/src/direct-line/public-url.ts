import { type Request } from 'express';
import { attachmentPath, streamPath, v3PrefixOf } from './v3-paths';

/** This gateway's base URL as the client sees it: the configured one, or the request's (trusted X-Forwarded-*). */
export function publicBaseUrl(request: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

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
