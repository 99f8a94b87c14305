import { type Request } from 'express';
import { publicBaseUrl } from '@fieldops/platform';
import { type RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { attachmentPath, streamPath, v3PrefixOf } from './v3-paths';

/*
 * The relay's public URLs, on the base URL of platform's one rule (RELAY_PUBLIC_URL, else the request's protocol and
 * host with trusted X-Forwarded-*, when RELAY_ALLOWED_HOSTS allows that host).
 */

/** The settings the relay's absolute URLs follow. */
export type RelayUrlSettings = Pick<RelayGatewayEnvironment, 'RELAY_PUBLIC_URL' | 'RELAY_ALLOWED_HOSTS'>;

/** The relay's base URL: RELAY_PUBLIC_URL, else the request's host when RELAY_ALLOWED_HOSTS allows it (else 400). */
export function relayBaseUrl(
  request: Pick<Request, 'protocol' | 'host'>,
  settings: RelayUrlSettings,
): string {
  return publicBaseUrl(request, settings.RELAY_PUBLIC_URL, settings.RELAY_ALLOWED_HOSTS);
}

/** The streamUrl handed to a client: `ws`/`wss` on the public host, on the v3 prefix the request came in on. */
export function streamUrlFor(
  request: Request,
  settings: RelayUrlSettings,
  conversationId: string,
  watermark: string,
  streamToken: string,
): string {
  const base = relayBaseUrl(request, settings).replace(/^http/, 'ws');
  const query = new URLSearchParams({ watermark, t: streamToken });
  return `${base}/${streamPath(v3PrefixOf(request.path), conversationId)}?${query.toString()}`;
}

/** The download URL of an uploaded file, signed with its attachment token `t`. */
export function attachmentUrlFor(
  request: Request,
  settings: RelayUrlSettings,
  file: { conversationId: string; attachmentId: string; name: string; token: string },
): string {
  const path = attachmentPath(file.conversationId, file.attachmentId, file.name);
  return `${relayBaseUrl(request, settings)}/${path}?t=${file.token}`;
}
