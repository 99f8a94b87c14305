import { type Request } from 'express';
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
  request: Pick<Request, 'protocol' | 'host'>,
  configured?: string,
  allowedHosts?: readonly string[],
): string {
  if (configured) return configured.replace(/\/+$/, '');
  if (allowedHosts && request.host && !namedHostAllowed(request.host, allowedHosts))
    throw new HostNotAllowedException(request.host);
  return `${request.protocol}://${request.host || 'localhost'}`;
}
