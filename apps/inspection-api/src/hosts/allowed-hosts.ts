import { type IncomingMessage, type ServerResponse } from 'node:http';
import {
  namedHostAllowed,
  namedHostOf,
  publicBaseUrl,
  requestPath,
  type TrustProxy,
} from '@fieldops/platform';
import { sendJson } from '../drf/json-renderer';

/** Paths that build no URL and are probed by orchestrators with whatever Host they use (a pod IP). */
const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

type RequestWithOrigin = { fieldopsOrigin?: string };

/** The request as the host check reads it: what Express's `request.protocol` and `request.host` give. */
export interface NamedHost {
  protocol: string;
  host: string | undefined;
}

/**
 * Django's ALLOWED_HOSTS check (the patterns' rule is `@fieldops/platform`'s allowed-hosts): the host a request names (the Host header, or X-Forwarded-Host from a trusted proxy —
 * what `request.host` gives) must be valid and match a pattern of `allowedHosts` (the host of the configured public
 * URL is always allowed). When it does, the check fixes the origin of the request's absolute URLs on `request`: the
 * configured public URL when set, otherwise the checked host; it answers false otherwise.
 */
export function hostCheck(
  allowedHosts: readonly string[],
  publicUrl: string | undefined,
): (request: object, named: NamedHost) => boolean {
  const patterns = publicUrl ? [...allowedHosts, new URL(publicUrl).hostname] : [...allowedHosts];
  return (request, named) => {
    if (!namedHostAllowed(named.host, patterns)) return false;
    (request as RequestWithOrigin).fieldopsOrigin = publicBaseUrl(named, publicUrl);
    return true;
  };
}

/**
 * hostCheck before any route (health, readiness and metrics aside): a refused host is 400
 * `{"detail":"Invalid HTTP_HOST header."}`. It reads Node's request only (the protocol and host as Express gives
 * them, under the app's `trust proxy fn`), so the fast path runs it too.
 */
export function allowedHostsMiddleware(
  allowedHosts: readonly string[],
  publicUrl: string | undefined,
  trust: TrustProxy,
): (request: IncomingMessage, response: ServerResponse, next: () => void) => void {
  const check = hostCheck(allowedHosts, publicUrl);
  return (request, response, next) => {
    if (OPERATIONS_PATHS.has(requestPath(request))) {
      next();
      return;
    }
    if (!check(request, namedHostOf(request, trust))) {
      sendJson(response, 400, { detail: 'Invalid HTTP_HOST header.' });
      return;
    }
    next();
  };
}

/** scheme://host of the request's absolute URLs, as fixed by {@link allowedHostsMiddleware}. */
export function checkedOrigin(request: RequestWithOrigin): string | undefined {
  return request.fieldopsOrigin;
}
