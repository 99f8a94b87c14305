import { type NextFunction, type Request, type Response } from 'express';

/** The largest translate body read (50,000 characters of CJK text plus JSON overhead); larger: 400077. */
export const MAX_TRANSLATE_BODY_BYTES = 1024 * 1024;

export type RequestWithRawBody = Request & { rawBody?: Buffer; rawBodyTooLarge?: boolean };

/**
 * Reads the body of the translate route unparsed (the route checks credentials and Content-Type before it parses,
 * in the Translator's order). Never fails: an oversize body is flagged and drained. Marks the request as parsed so
 * the app's JSON parser leaves it alone.
 */
export function rawTranslateBody(limitBytes = MAX_TRANSLATE_BODY_BYTES) {
  return (request: RequestWithRawBody, _response: Response, next: NextFunction): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    (request as { _body?: boolean })._body = true;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) request.rawBodyTooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => {
      request.rawBody = Buffer.concat(chunks);
      next();
    });
    request.on('error', () => {
      request.rawBody = Buffer.alloc(0);
      next();
    });
  };
}
