import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type RequestHandler } from 'express';

/**
 * A body over its route's limit (413). Shaped as body-parser's own `entity.too.large` error (status, type, expose),
 * so every app's error mapping renders it unchanged.
 */
export class BodyTooLargeError extends Error {
  readonly status = 413;
  readonly statusCode = 413;
  readonly expose = true;
  readonly type = 'entity.too.large';

  constructor(
    /** The route's limit, in bytes. */
    readonly limit: number,
    /** The announced `Content-Length`, when that alone passed the limit. */
    readonly length?: number,
  ) {
    super('request entity too large');
    this.name = 'BodyTooLargeError';
  }
}

/** The request's `Content-Length`, when it announces one. */
function announcedLength(request: IncomingMessage): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined) return undefined;
  const length = Number(header);
  return Number.isSafeInteger(length) ? length : undefined;
}

/**
 * Stops reading a request body for good: the rest is never read, drained or parsed. The answer carries
 * `Connection: close`, and Node closes the connection once it is written (the unread rest would otherwise have to be
 * read to find the next request). A parser's own clean-up (body-parser's and multer's drain-then-answer) cannot
 * restart the reading: `read` and `resume` of this request do nothing from now on. Past the few kilobytes Node
 * buffers, the client's sending is held by TCP until the connection is closed.
 */
function stopReading(request: IncomingMessage, response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
  request.unpipe();
  request.pause();
  const stopped = request as IncomingMessage & { read(size?: number): unknown };
  stopped.read = () => null;
  stopped.resume = () => request;
}

/** Whether the request's media type (Content-Type without parameters, any case) is `mediaType` (lower case). */
export function hasMediaType(request: IncomingMessage, mediaType: string): boolean {
  const contentType = request.headers['content-type'];
  if (contentType === undefined) return false;
  // The usual spellings without a copy: exactly the type, or the type then `;` and its parameters.
  if (contentType.startsWith(mediaType)) {
    const next = contentType.length === mediaType.length ? -1 : contentType.charCodeAt(mediaType.length);
    if (next === -1 || next === SEMICOLON) return true;
  }
  return contentType.split(';')[0].trim().toLowerCase() === mediaType;
}

const SEMICOLON = 0x3b;

const cutters = new WeakMap<IncomingMessage, (error: Error) => void>();

export interface LimitBodyOptions {
  /** The parser may end the body early with `cutOffBody` (multer's per-file size). */
  cutOff?: boolean;
}

/**
 * Cuts off the body a `limitBody` parser (with `cutOff`) is reading, with the error its route answers (a parser's own
 * limit that it would otherwise enforce by draining the body first, e.g. multer's per-file size). Does nothing once
 * the parser is done.
 */
export function cutOffBody(request: IncomingMessage, error: Error): void {
  cutters.get(request)?.(error);
}

/**
 * The body-size rule of every app (one owner): `parser` reads the body only while it stays within `limit` bytes;
 * `reads` says which requests the parser reads (its media type; others are passed to it untouched, for it to skip).
 * A `Content-Length` over the limit is refused before a byte is read; a chunked body that passes the limit while it
 * is read is cut off at that byte (a body with a `Content-Length` within the limit is not counted: Node's HTTP parser
 * delivers exactly that many bytes, and the parser checks it got them all). Either way the parser's callback gets a
 * BodyTooLargeError at once — the route answers 413 in its wire format — and the rest is never read (the connection
 * is closed after the answer). body-parser and multer alone read a refused body to its end before answering.
 * Wraps the parsers of platform's BodyParsingInterceptor and `jsonBodyParser` (the framework's routes and the hot
 * routes of HttpFront alike) and inspection-api's DRF parsers.
 */
export function limitBody(
  parser: RequestHandler,
  limit: number,
  reads: (request: IncomingMessage) => boolean = () => true,
  options: LimitBodyOptions = {},
): RequestHandler {
  return (request, response, next) => {
    // A parser that skips the request (another media type) leaves it, whatever its length, to the next one.
    if (!reads(request)) {
      parser(request, response, next);
      return;
    }
    const length = announcedLength(request);
    if (length !== undefined && length > limit) {
      stopReading(request, response);
      next(new BodyTooLargeError(limit, length));
      return;
    }
    // Within its announced length, within the limit: nothing to count or cut off (the hot JSON bodies).
    if (length !== undefined && !options.cutOff) {
      parser(request, response, next);
      return;
    }
    let settled = false;
    let received = 0;
    let counting = false;
    // Only a body of unannounced length (chunked) can pass the limit while it is read.
    const bounded = length !== undefined;
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      if (!bounded) {
        request.off('newListener', watch);
        request.off('data', count);
      }
      cutters.delete(request);
      next(error);
    };
    const cut = (error: Error): void => {
      if (settled) return;
      stopReading(request, response);
      settle(error);
    };
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) cut(new BodyTooLargeError(limit));
    };
    // Count the bytes only once the parser reads them (a parser that skips the request's media type never attaches
    // a `data` listener, and adding one here would start the stream flowing with nobody to read it).
    const watch = (event: string | symbol): void => {
      if (event !== 'data' || counting) return;
      counting = true;
      request.prependListener('data', count);
    };
    if (!bounded) request.on('newListener', watch);
    cutters.set(request, cut);
    parser(request, response, settle);
  };
}
