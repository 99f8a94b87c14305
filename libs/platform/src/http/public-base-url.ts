import { type IncomingMessage } from 'node:http';
import { HostNotAllowedException, namedHostAllowed } from './allowed-hosts';

/**
 * The one rule for the base URL (`scheme://host[:port]`, no trailing slash) clients reach a service at, for the
 * absolute URLs it hands out (streamUrls, upload and media links, pagination links, OpenID documents). A configured
 * public URL wins. Otherwise the request's protocol and host: `X-Forwarded-Proto` / `X-Forwarded-Host` count only
 * when they come from a proxy the app's `trust proxy` setting (`TRUST_PROXY`) believes, as Express decides in
 * `request.protocol` and `request.host`; a request without a Host header gets `localhost`. With `allowedHosts`
 * given, a host that matches none of them (allowed-hosts' patterns) never becomes a URL: HostNotAllowedException
 * (400).
 */
export function publicBaseUrl(
  request: { protocol: string; host: string | undefined },
  configured?: string,
  allowedHosts?: readonly string[],
): string {
  if (configured) return configured.replace(/\/+$/, '');
  if (allowedHosts && request.host && !namedHostAllowed(request.host, allowedHosts))
    throw new HostNotAllowedException(request.host);
  return `${request.protocol}://${request.host || 'localhost'}`;
}

/** Express's compiled `trust proxy` setting (its `trust proxy fn`): whether the hop at `index` is a trusted proxy. */
export type TrustProxy = (address: string | undefined, index: number) => boolean;

/**
 * `request.protocol` and `request.host` exactly as Express 5 computes them, from Node's request and the app's
 * `trust proxy fn`, for code that runs on Node's request too (the fast path's middleware): `X-Forwarded-Proto` and
 * `X-Forwarded-Host` (their first value) count only when the socket's peer is a trusted proxy.
 */
export function namedHostOf(
  request: IncomingMessage,
  trust: TrustProxy,
): { protocol: string; host: string | undefined } {
  const socket = request.socket as IncomingMessage['socket'] & { encrypted?: boolean };
  const trusted = trust(socket.remoteAddress, 0);
  let protocol = socket.encrypted ? 'https' : 'http';
  if (trusted) {
    const header = headerValue(request, 'x-forwarded-proto') || protocol;
    const comma = header.indexOf(',');
    protocol = comma !== -1 ? header.slice(0, comma).trim() : header.trim();
  }
  let host = headerValue(request, 'x-forwarded-host');
  if (!host || !trusted) host = headerValue(request, 'host');
  else if (host.includes(',')) host = host.slice(0, host.indexOf(',')).trimEnd();
  return { protocol, host: host || undefined };
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
