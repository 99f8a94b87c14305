import { type Request } from 'express';

/** The largest translate body read (50,000 characters of CJK text plus JSON overhead); larger: 400077. */
export const MAX_TRANSLATE_BODY_BYTES = 1024 * 1024;

/** A body read unparsed: its bytes up to the limit, and whether it was larger. */
export interface RawBody {
  bytes: Buffer;
  tooLarge: boolean;
}

/**
 * Reads the translate route's body unparsed, once the route has checked credentials and Content-Type (in the
 * Translator's order; a request refused before is never read). Never fails: an oversize body is flagged and drained.
 */
export function readRawBody(request: Request, limitBytes = MAX_TRANSLATE_BODY_BYTES): Promise<RawBody> {
  return new Promise((resolve) => {
    if (request.complete && request.readableEnded) {
      resolve({ bytes: Buffer.alloc(0), tooLarge: false });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve({ bytes: Buffer.concat(chunks), tooLarge }));
    request.on('error', () => resolve({ bytes: Buffer.alloc(0), tooLarge }));
  });
}
