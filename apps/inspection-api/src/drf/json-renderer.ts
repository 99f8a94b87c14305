import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { type ServerResponse } from 'node:http';
import { type Response } from 'express';

/** JSON text that is already rendered compactly (by PostgreSQL's row_to_json) and goes out as is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** DRF's JSONRenderer: compact, raw UTF-8, U+2028/U+2029 escaped. */
export function renderJson(body: unknown): string {
  const text = body instanceof RawJson ? body.text : JSON.stringify(body);
  if (!text.includes('\u2028') && !text.includes('\u2029')) return text;
  return text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * Sends `application/json` without a charset parameter (as DRF does); 204 has no body and no type. Used by the
 * exception filter; handlers return their value and `DrfExpressAdapter` sends it. Only Node's response API, so a
 * fast-path answer (a plain ServerResponse) renders errors through the same filter.
 */
export function sendJson(response: ServerResponse, status: number, body?: unknown): void {
  response.statusCode = status;
  if (status === 204 || body === undefined) {
    response.end();
    return;
  }
  writeRenderedJson(response, renderJson(body));
}

/** The rendered text with its `Content-Type` and `Content-Length`, in one `end()` (Node writes it with the head). */
export function writeRenderedJson(response: ServerResponse, text: string): void {
  response.setHeader('Content-Type', 'application/json');
  response.setHeader('Content-Length', Buffer.byteLength(text, 'utf8'));
  response.end(text, 'utf8');
}

/**
 * The response side of every DRF view: a handler returns its representation (an object, or `RawJson`) and Nest hands
 * it to this adapter's `reply`, which sends DRF's bytes. Nest's own adapter would send an object through Express's
 * `res.json()`, which adds `; charset=utf-8` and does not escape U+2028/U+2029. The status stays Nest's (201 for POST,
 * 200 otherwise, `@HttpCode(204)` on DELETE, whose handler returns nothing). Headers are those `sendJson` gives:
 * `Content-Type` and `Content-Length`; no `ETag`, as DRF (the app turns Express's off). `Allow` and `Vary` come from
 * `apiHeadersMiddleware`, errors from the exception filter.
 *
 * An adapter rather than an interceptor: an interceptor puts every request through RxJS (Nest then also watches
 * for the client's disconnect) and a `StreamableFile` pipe, which cost the devices list a large share of its Node
 * CPU; `reply` writes the text with one `end()`.
 */
export class DrfExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    // Nothing to send (204), or a stream (the CSV export, which is not JSON): Nest's way.
    if (body === undefined || body === null || body instanceof StreamableFile)
      return super.reply(response, body, statusCode);
    writeRepresentation(response, statusCode ?? response.statusCode, body);
    return response;
  }
}

/**
 * The adapter's reply of a representation on Node's response: also the fast path's (`HttpFront.setReply`), so a
 * `@FastPath()` route sends the same bytes. The text goes out as it is (Node encodes it with the head in one
 * write): no intermediate Buffer. Nothing to send and streams are Nest's to reply (the adapter), never a fast route's.
 */
export function writeRepresentation(response: ServerResponse, status: number, body: unknown): void {
  if (body === undefined || body === null || body instanceof StreamableFile)
    throw new Error('DrfExpressAdapter replies to nothing and to streams through Nest, not on the fast path');
  response.statusCode = status;
  writeRenderedJson(response, renderJson(body));
}
