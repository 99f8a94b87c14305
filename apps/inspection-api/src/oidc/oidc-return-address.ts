/**
 * Where a sign-in through the provider may return (with its one-time code): a path on the API's own origin
 * (`/console/`), or an absolute URL on the API's origin or on one of the configured return origins (the chat
 * page's). Anything else (another site, `//host`, a backslash trick, a non-http scheme) is refused, so a crafted
 * link cannot send a code to someone else. Undefined when refused.
 */
export function returnAddress(
  next: string,
  apiOrigin: string,
  allowedOrigins: readonly string[],
): string | undefined {
  if (next.length > 2000 || /[\\\s]/.test(next)) return undefined;
  if (next.startsWith('/') && !next.startsWith('//')) return new URL(next, apiOrigin).href;
  let url: URL;
  try {
    url = new URL(next);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  const origins = [apiOrigin, ...allowedOrigins].map((origin) => new URL(origin).origin);
  return origins.includes(url.origin) ? url.href : undefined;
}

/** The return address with the sign-in's outcome added to its query (`oidc_code` or `oidc_error`). */
export function withOutcome(
  address: string,
  outcome: { oidc_code: string } | { oidc_error: string },
): string {
  const url = new URL(address);
  for (const [name, value] of Object.entries(outcome)) url.searchParams.set(name, value);
  return url.href;
}
