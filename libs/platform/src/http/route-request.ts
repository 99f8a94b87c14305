import { type IncomingMessage } from 'node:http';

/**
 * A request as every path gives it to guards, parameter decorators, handlers and the exception filter: Node's
 * request with the route's parameters (decoded), the request id, and the parsed body once read. Express adds more
 * on its own path; code that must run on both paths reads only these.
 */
export type RouteRequest = IncomingMessage & {
  /** The request id (`X-Request-Id`). */
  id?: string;
  /** The route's parameters, decoded. */
  params?: Record<string, string>;
  /** The parsed body, once read (after the guards). */
  body?: unknown;
  /** The URL as received, when a router has rewritten `url` (Express's mounts). */
  originalUrl?: string;
};

/** The path of a request (no query), as received. */
export function requestPath(request: RouteRequest): string {
  const url = request.originalUrl ?? request.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
