import { checkedOrigin } from '../hosts/allowed-hosts';
import { type DrfRequest } from './drf-request';
import { invalidPage } from './exceptions';
import { RawJson } from './json-renderer';
import { quotePlus } from './python-text';

/** The query string as Python's parse_qs(keep_blank_values=True) sees it: name → values, in order. */
export function parseQuery(request: DrfRequest): Map<string, string[]> {
  const url = request.originalUrl ?? request.url ?? '/';
  const at = url.indexOf('?');
  const query = new Map<string, string[]>();
  if (at < 0) return query;
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) {
    query.set(name, [...(query.get(name) ?? []), value]);
  }
  return query;
}

/** QueryDict.get(): the last value of a parameter; NUL characters removed (PostgreSQL refuses them). */
export function queryValue(query: Map<string, string[]>, name: string): string | undefined {
  const values = query.get(name);
  return values?.[values.length - 1]?.replace(/\0/g, '');
}

/**
 * scheme://host of absolute URLs: INSPECTION_PUBLIC_URL when configured, otherwise the request's checked host, as the
 * host check fixed it before any route (allowedHostsMiddleware, on both paths).
 */
export function requestOrigin(request: DrfRequest): string {
  const origin = checkedOrigin(request);
  if (origin === undefined)
    throw new Error('the host check (allowedHostsMiddleware) did not run for this request');
  return origin;
}

export interface PageSettings {
  defaultSize: number;
  maxSize: number;
}

export interface PageRequest {
  /** 1-based page number, or 'last'. */
  page: number | 'last';
  size: number;
}

const INTEGER = /^\s*[+-]?\d+\s*$/;

/** DRF PageNumberPagination's reading of `page` and `page_size` (invalid page → 404 "Invalid page."). */
export function pageRequest(query: Map<string, string[]>, settings: PageSettings): PageRequest {
  let size = settings.defaultSize;
  const sizeText = queryValue(query, 'page_size');
  if (sizeText !== undefined && INTEGER.test(sizeText)) {
    const parsed = Number.parseInt(sizeText.trim(), 10);
    if (parsed > 0) size = Math.min(parsed, settings.maxSize);
  }
  const pageText = queryValue(query, 'page');
  if (pageText === undefined) return { page: 1, size };
  if (pageText === 'last') return { page: 'last', size };
  if (!INTEGER.test(pageText)) throw invalidPage();
  const page = Number(pageText.trim());
  if (!Number.isSafeInteger(page) || page < 1) throw invalidPage();
  return { page, size };
}

/** Django's Paginator.num_pages with allow_empty_first_page. */
export const pageCount = (count: number, size: number): number => Math.max(1, Math.ceil(count / size));

/** What one page statement answers: the count of every matching row, and the page's results. */
export interface PageRows<Results> {
  count: number;
  results: Results;
}

/**
 * DRF PageNumberPagination.paginate_queryset over a statement that answers the count with the page (one round
 * trip): `page=last` asks for the count first (`fetch(0, 0)`); a page past the last, or so far that its offset is
 * no longer an exact integer, is 404 "Invalid page." (page 1 of nothing is fine).
 */
export async function paginate<Results>(
  wanted: PageRequest,
  fetch: (limit: number, offset: number) => Promise<PageRows<Results>>,
): Promise<PageRows<Results> & { page: number }> {
  const page = wanted.page === 'last' ? pageCount((await fetch(0, 0)).count, wanted.size) : wanted.page;
  const offset = (page - 1) * wanted.size;
  if (!Number.isSafeInteger(offset)) throw invalidPage();
  const { count, results } = await fetch(wanted.size, offset);
  if (page > pageCount(count, wanted.size)) throw invalidPage();
  return { count, page, results };
}

/** The absolute URL of this request with `page` set (or removed), query re-encoded sorted by name. */
function linkWithPage(request: DrfRequest, query: Map<string, string[]>, page: number | undefined): string {
  const url = request.originalUrl ?? request.url ?? '/';
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const names = [...query.keys()].filter((name) => name !== 'page');
  if (page !== undefined) names.push('page');
  names.sort();
  let encoded = '';
  for (const name of names) {
    const values = name === 'page' ? [String(page)] : (query.get(name) ?? []);
    for (const value of values) encoded += `${encoded ? '&' : '?'}${quotePlus(name)}=${quotePlus(value)}`;
  }
  return `${requestOrigin(request)}${path}${encoded}`;
}

export interface PageLinks {
  next: string | null;
  previous: string | null;
}

export function pageLinks(
  request: DrfRequest,
  query: Map<string, string[]>,
  page: number,
  pages: number,
): PageLinks {
  return {
    next: page < pages ? linkWithPage(request, query, page + 1) : null,
    previous: page > 1 ? linkWithPage(request, query, page === 2 ? undefined : page - 1) : null,
  };
}

/** The page envelope around results that are already compact JSON text. */
export function rawPageEnvelope(count: number, links: PageLinks, resultsJson: string): RawJson {
  return new RawJson(
    `{"count":${count},"next":${JSON.stringify(links.next)},"previous":${JSON.stringify(links.previous)},"results":${resultsJson}}`,
  );
}

/** The page envelope, keys in DRF's order. */
export function pageEnvelope(count: number, links: PageLinks, results: unknown) {
  return { count, next: links.next, previous: links.previous, results };
}

/** The envelope of a page found by `paginate`, with its next/previous links for this request. */
export function pagedEnvelope(
  request: DrfRequest,
  query: Map<string, string[]>,
  wanted: PageRequest,
  found: PageRows<unknown> & { page: number },
) {
  const links = pageLinks(request, query, found.page, pageCount(found.count, wanted.size));
  return pageEnvelope(found.count, links, found.results);
}
