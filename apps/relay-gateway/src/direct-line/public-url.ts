import { type Request } from 'express';

/** This gateway's base URL as the client sees it: the configured one, or the request's (trusted X-Forwarded-*). */
export function publicBaseUrl(request: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** The v3 prefix this request came in on (`v3/directline` or `v3/relay`), so streamUrls stay on it. */
export function v3PrefixOf(request: Request): string {
  return request.path.startsWith('/v3/relay/') ? 'v3/relay' : 'v3/directline';
}

export function streamUrlFor(
  request: Request,
  configured: string | undefined,
  conversationId: string,
  watermark: string,
  streamToken: string,
): string {
  const base = publicBaseUrl(request, configured).replace(/^http/, 'ws');
  const query = new URLSearchParams({ watermark, t: streamToken });
  return `${base}/${v3PrefixOf(request)}/conversations/${encodeURIComponent(conversationId)}/stream?${query.toString()}`;
}

/** Parses a client watermark: empty, `-` or absent mean "from the start" (undefined). */
export function parseWatermark(value: unknown): number | undefined | 'invalid' {
  if (value === undefined || value === '' || value === '-') return undefined;
  if (typeof value !== 'string' || !/^-?\d{1,15}$/.test(value)) return 'invalid';
  return Number(value);
}
