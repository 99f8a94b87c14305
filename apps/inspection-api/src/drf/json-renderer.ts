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

/** Sends `application/json` without a charset parameter (as DRF does); 204 has no body and no type. */
export function sendJson(response: Response, status: number, body?: unknown): void {
  if (status === 204 || body === undefined) {
    response.status(status).end();
    return;
  }
  response.status(status).setHeader('Content-Type', 'application/json');
  response.send(Buffer.from(renderJson(body), 'utf8'));
}
