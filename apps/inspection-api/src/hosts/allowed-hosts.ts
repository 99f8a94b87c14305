import { publicBaseUrl } from '@fieldops/platform';
import { type NextFunction, type Request, type Response } from 'express';
import { sendJson } from '../drf/json-renderer';

/** Django's `host_validation_re`: a DNS name or IPv4 address, or a bracketed IPv6 literal, and an optional port. */
const HOST_SYNTAX = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$/;

/**
 * Django's `split_domain_port`: the domain of a Host value (lower case, trailing dot dropped), or undefined when the
 * value is not a valid host at all.
 */
export function hostDomain(host: string): string | undefined {
  const lower = host.toLowerCase();
  if (!HOST_SYNTAX.test(lower)) return undefined;
  if (lower.endsWith(']')) return lower;
  const colon = lower.lastIndexOf(':');
  const domain = colon === -1 ? lower : lower.slice(0, colon);
  return domain.endsWith('.') ? domain.slice(0, -1) : domain;
}

/**
 * Django's `validate_host`: `*` matches anything, `.example.com` matches example.com and every subdomain, any other
 * pattern matches exactly (case-insensitively; patterns carry no port).
 */
export function hostAllowed(domain: string, patterns: readonly string[]): boolean {
  return patterns.some((raw) => {
    const pattern = raw.toLowerCase();
    if (pattern === '*') return true;
    if (pattern.startsWith('.')) return domain.endsWith(pattern) || domain === pattern.slice(1);
    return domain === pattern;
  });
}

/** Paths that build no URL and are probed by orchestrators with whatever Host they use (a pod IP). */
const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

type RequestWithOrigin = { fieldopsOrigin?: string };

/** The request as the host check reads it: what Express's `request.protocol` and `request.host` give. */
export type NamedHost = Pick<Request, 'protocol' | 'host'>;

/**
 * Django's ALLOWED_HOSTS check: the host a request names (the Host header, or X-Forwarded-Host from a trusted proxy —
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
    const domain = hostDomain(named.host ?? '');
    if (domain === undefined || domain === '' || !hostAllowed(domain, patterns)) return false;
    (request as RequestWithOrigin).fieldopsOrigin = publicBaseUrl(named, publicUrl);
    return true;
  };
}

/**
 * hostCheck before any route (health, readiness and metrics aside): a refused host is 400
 * `{"detail":"Invalid HTTP_HOST header."}`.
 */
export function allowedHostsMiddleware(
  allowedHosts: readonly string[],
  publicUrl: string | undefined,
): (request: Request, response: Response, next: NextFunction) => void {
  const check = hostCheck(allowedHosts, publicUrl);
  return (request, response, next) => {
    if (OPERATIONS_PATHS.has(request.path)) {
      next();
      return;
    }
    if (!check(request, request)) {
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
