import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import { type Request, type Response } from 'express';
import { map, type Observable } from 'rxjs';

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
 * exception filter; handlers return their value and `DrfRenderer` sends it.
 */
export function sendJson(response: Response, status: number, body?: unknown): void {
  if (status === 204 || body === undefined) {
    response.status(status).end();
    return;
  }
  response.status(status).setHeader('Content-Type', 'application/json');
  response.send(Buffer.from(renderJson(body), 'utf8'));
}

/**
 * The response side of every DRF view: a handler returns its representation (an object, or `RawJson`) and this
 * interceptor turns it into DRF's bytes. Nest would send an object through Express's `res.json()`, which adds
 * `; charset=utf-8` and does not escape U+2028/U+2029, so the rendered bytes go out as a `StreamableFile` with
 * `Content-Type: application/json`. The status stays Nest's (201 for POST, 200 otherwise, `@HttpCode(204)` on
 * DELETE, whose handler returns nothing). Headers stay those `sendJson` gives: `Content-Length`, and the weak
 * `ETag` Express's `res.send()` adds (with its 304 answer to a matching `If-None-Match`). `Allow` and `Vary`
 * come from `apiHeadersMiddleware`, errors from the exception filter.
 */
@Injectable()
export class DrfRenderer implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) =>
        // A stream (the CSV export) is not JSON: Nest pipes it as it is.
        body === undefined || body instanceof StreamableFile ? body : rendered(request, response, body),
      ),
    );
  }
}

function rendered(request: Request, response: Response, body: unknown): StreamableFile | undefined {
  const bytes = Buffer.from(renderJson(body), 'utf8');
  response.setHeader('Content-Type', 'application/json');
  response.setHeader('Content-Length', bytes.length);
  const etag: unknown = request.app.get('etag fn');
  if (typeof etag === 'function') response.setHeader('ETag', (etag as (body: Buffer) => string)(bytes));
  // A fresh conditional GET: nothing to send, Express's res.send() then answers 304 without a body.
  if (request.fresh) return undefined;
  return new StreamableFile(bytes, { type: 'application/json', length: bytes.length });
}
