import { type Response } from 'express';

/**
 * Types a browser can only ever draw as a picture: these are served inline. Everything else — HTML, SVG (an XML
 * document that runs scripts), PDF, text, unknown types — is served as a download.
 */
export const INERT_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The policy of a file someone else uploaded: no script, no plugin, no same-origin access, even when opened directly. */
export const UNTRUSTED_FILE_CSP = "sandbox; default-src 'none'";

const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;

/** The declared type's essence (`text/html; charset=x` → `text/html`), or `application/octet-stream` when malformed. */
export function untrustedMediaType(declared: string | undefined): string {
  const essence = (declared ?? '').split(';')[0].trim().toLowerCase();
  return MEDIA_TYPE.test(essence) ? essence : 'application/octet-stream';
}

export interface UntrustedFile {
  contentType: string;
  name?: string;
  data: Buffer;
}

/**
 * Sends a file uploaded by a client or a bot from an origin that also serves the platform's APIs (one host behind
 * nginx): `X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox; default-src 'none'`, and
 * `Content-Disposition: attachment` unless the type is one of {@link INERT_IMAGE_TYPES}. The one owner of that rule
 * for relay-gateway's uploads and connector-gateway's attachment views.
 */
export function sendUntrustedFile(response: Response, file: UntrustedFile): void {
  const type = untrustedMediaType(file.contentType);
  const inline = INERT_IMAGE_TYPES.includes(type);
  // Express's attachment() writes a safe Content-Disposition (filename* for non-ASCII names); it also guesses a
  // Content-Type from the name, which the declared type below replaces.
  if (inline) response.setHeader('Content-Disposition', 'inline');
  else response.attachment(file.name && file.name !== '' ? file.name : 'file');
  response.setHeader('Content-Type', type);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Content-Security-Policy', UNTRUSTED_FILE_CSP);
  response.status(200).end(file.data);
}
