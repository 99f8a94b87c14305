import { type IncomingMessage } from 'node:http';

/**
 * The request as the DRF helpers (query, pagination links, absolute URLs) and the list handlers read it: only what
 * both paths give, Express's request on the framework's routes and Node's own on the fast path (`@FastPath()`). Node's
 * request line and headers, the URL as received (Express's `originalUrl`, when a router rewrote `url`), the origin of
 * its absolute URLs as the host check fixed it (allowedHostsMiddleware, on both paths).
 */
export type DrfRequest = Pick<IncomingMessage, 'method' | 'url' | 'headers'> & {
  originalUrl?: string;
  /** scheme://host of the request's absolute URLs (hostCheck). */
  fieldopsOrigin?: string;
};
