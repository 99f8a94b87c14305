import { HttpException } from '@nestjs/common';

/** Field name → messages, in serializer field order (DRF's ValidationError body). */
export type FieldErrors = Record<string, string[]>;

/** A DRF-shaped error: the response object is the wire body as is. */
export class DrfException extends HttpException {
  constructor(
    status: number,
    body: object,
    readonly headers: Record<string, string> = {},
  ) {
    super(body, status);
  }
}

export const validationError = (errors: FieldErrors): DrfException => new DrfException(400, errors);

export const notFound = (detail = 'Not found.'): DrfException => new DrfException(404, { detail });

export const invalidPage = (): DrfException => notFound('Invalid page.');

export const parseError = (detail: string): DrfException => new DrfException(400, { detail });

export const unsupportedMediaType = (mediaType: string): DrfException =>
  new DrfException(415, { detail: `Unsupported media type "${mediaType}" in request.` });

export const payloadTooLarge = (detail: string): DrfException => new DrfException(413, { detail });

export const methodNotAllowed = (method: string, allow: readonly string[]): DrfException =>
  new DrfException(405, { detail: `Method "${method}" not allowed.` }, { Allow: allow.join(', ') });

/** DRF's Throttled: 429, the wait in whole seconds in the detail (singular/plural as DRF words it) and `Retry-After`. */
export const throttled = (waitSeconds: number): DrfException => {
  const wait = Math.max(1, Math.ceil(waitSeconds));
  return new DrfException(
    429,
    { detail: `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.` },
    { 'Retry-After': String(wait) },
  );
};

/** simplejwt's TokenError bodies (`{"detail", "code"}`). */
export const tokenNotValid = (detail: string): DrfException =>
  new DrfException(401, { detail, code: 'token_not_valid' }, { 'WWW-Authenticate': 'Bearer realm="api"' });

export const isFieldErrors = (errors: FieldErrors): boolean => Object.keys(errors).length > 0;
