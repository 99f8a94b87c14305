import { createHash } from 'node:crypto';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import helmet from 'helmet';

type Middleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** CSP directives as helmet takes them: directive name → source list. */
export type ContentSecurityPolicyDirectives = Record<string, readonly string[]>;

export interface SecurityHeadersOptions {
  /** The service's public base URL; an `https:` one turns on HSTS and `upgrade-insecure-requests` on pages. */
  publicUrl?: string;
  /**
   * `Cross-Origin-Resource-Policy`. `same-site` (default) keeps other sites from embedding responses; a service
   * whose files other origins show (the relay's uploads in Web Chat) says `cross-origin`.
   */
  crossOriginResources?: 'same-site' | 'cross-origin';
}

/** One year, as helmet's default; no `includeSubDomains`: other hosts of the domain are not ours to decide. */
const HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * The CSP of every response that is not a page (JSON, files): nothing may load, nothing may frame it. A browser
 * that is made to render such a response as a document runs no script and shows no embedded content.
 */
export const API_CONTENT_SECURITY_POLICY: ContentSecurityPolicyDirectives = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/**
 * The base CSP of HTML pages (Swagger UI, the chat page): the page's own origin only, inline styles (React and
 * Swagger UI set style attributes), `data:` images and fonts, no plugins, framed by its own origin only. A page
 * adds what it needs (a script hash, the relay's origin) with pageContentSecurityPolicy.
 */
export const PAGE_CONTENT_SECURITY_POLICY: ContentSecurityPolicyDirectives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
};

function isHttps(url: string | undefined): boolean {
  return url !== undefined && /^https:\/\//i.test(url);
}

/** helmet with the platform's policy: the one owner of the security headers. */
function platformHelmet(options: SecurityHeadersOptions): Middleware {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: API_CONTENT_SECURITY_POLICY },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: options.crossOriginResources ?? 'same-site' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: isHttps(options.publicUrl)
      ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false }
      : false,
    xFrameOptions: { action: 'deny' },
  });
}

/** What a middleware sets on a response, recorded by running it once; undefined if it did not answer synchronously. */
function recordHeaders(
  middleware: Middleware,
): { set: Array<[string, string | number | readonly string[]]>; removed: string[] } | undefined {
  const set: Array<[string, string | number | readonly string[]]> = [];
  const removed: string[] = [];
  let synchronous = false;
  let failed = false;
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, value]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    synchronous = true;
    failed = error !== undefined;
  });
  return synchronous && !failed ? { set, removed } : undefined;
}

/**
 * The security headers of every response, from helmet: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`
 * and the API CSP (`frame-ancestors 'none'`), `Referrer-Policy: no-referrer`, `Cross-Origin-Opener-Policy`,
 * `Cross-Origin-Resource-Policy`, and `Strict-Transport-Security` when the public URL is https. Pages replace the
 * CSP and framing headers with pageContentSecurityPolicy.
 *
 * With this configuration (no per-request CSP nonces) helmet sets fixed values, so they are computed by it once and
 * each request gets them from a list instead of through helmet's chain of a dozen middleware (helmet itself runs
 * should it ever not answer synchronously).
 */
export function securityHeadersMiddleware(options: SecurityHeadersOptions = {}): Middleware {
  const middleware = platformHelmet(options);
  const recorded = recordHeaders(middleware);
  if (!recorded) return middleware;
  const { set, removed } = recorded;
  return (_request, response, next) => {
    for (const [name, value] of set) response.setHeader(name, value);
    for (const name of removed) response.removeHeader(name);
    next();
  };
}

/**
 * The same headers as securityHeadersMiddleware, as a flat `[name, value, …]` list for `response.writeHead` (the
 * hot routes' answers, HttpFront). Computed by helmet once; throws if helmet ever needs the request to decide.
 */
export function securityHeaderList(options: SecurityHeadersOptions = {}): string[] {
  const recorded = recordHeaders(platformHelmet(options));
  if (!recorded) throw new Error('the security headers depend on the request: no fixed list');
  return recorded.set.flatMap(([name, value]) => [
    name,
    Array.isArray(value) ? value.join(', ') : String(value as string | number),
  ]);
}

export interface PageContentSecurityPolicyOptions {
  /** Which request paths are this page (exact path, or a prefix ending with `/`). */
  paths: readonly string[];
  /** Added to PAGE_CONTENT_SECURITY_POLICY's sources, directive by directive. */
  directives?: ContentSecurityPolicyDirectives;
  /** The service's public base URL: an https one adds `upgrade-insecure-requests`. */
  publicUrl?: string;
}

/** PAGE_CONTENT_SECURITY_POLICY with a page's additions merged in (sources kept once, in order). */
export function pageDirectives(
  additions: ContentSecurityPolicyDirectives = {},
): ContentSecurityPolicyDirectives {
  const merged: Record<string, string[]> = {};
  for (const [name, sources] of Object.entries(PAGE_CONTENT_SECURITY_POLICY)) merged[name] = [...sources];
  for (const [name, sources] of Object.entries(additions)) {
    const list = (merged[name] ??= [...(PAGE_CONTENT_SECURITY_POLICY['default-src'] ?? [])]);
    for (const source of sources) if (!list.includes(source)) list.push(source);
  }
  return merged;
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * Middleware giving the named page paths the page CSP (PAGE_CONTENT_SECURITY_POLICY plus `directives`) and
 * `X-Frame-Options: SAMEORIGIN` instead of the API ones. Install it after securityHeadersMiddleware.
 */
export function pageContentSecurityPolicy(options: PageContentSecurityPolicyOptions): Middleware {
  const directives: Record<string, Iterable<string>> = { ...pageDirectives(options.directives) };
  if (isHttps(options.publicUrl)) directives['upgrade-insecure-requests'] = [];
  const policy = helmet.contentSecurityPolicy({ useDefaults: false, directives });
  const matches = (path: string): boolean =>
    options.paths.some((page) => (page.endsWith('/') ? path.startsWith(page) : path === page));
  return (request, response, next) => {
    if (!matches(pathOf(request))) {
      next();
      return;
    }
    response.setHeader('X-Frame-Options', 'SAMEORIGIN');
    policy(request, response, next);
  };
}

const INLINE_SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script\s*>/gi;
const DATA_SCRIPT_TYPE = /\btype\s*=\s*["']?(?!text\/javascript|module|application\/javascript)[\w/+.-]+/i;

/**
 * The CSP sources (`'sha256-…'`) allowing a page's inline scripts: every `<script>` element without `src` whose type
 * is JavaScript (data blocks such as `type="application/json"` never run and need none).
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes = '', body = ''] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes) || DATA_SCRIPT_TYPE.test(attributes)) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}
