import { type BotFrameworkErrorCode, isBotFrameworkErrorCode } from '@fieldops/contracts';

/** The error codes of Direct Line 1.1 (direct-line-v1.json). */
export type V1ErrorCode =
  | 'MissingProperty'
  | 'MalformedData'
  | 'NotFound'
  | 'ServiceError'
  | 'Internal'
  | 'InvalidRange'
  | 'NotSupported'
  | 'NotAllowed'
  | 'BadCertificate';

/** The Direct Line 1.1 error body: the 3.0 envelope plus the HTTP status, with a 1.1 code. */
export interface V1ErrorBody {
  error: { code: V1ErrorCode; message: string; statusCode: number };
}

/** The 1.1 code of each 3.0 code; `undefined`: the status decides (below). */
const V1_CODES: Record<BotFrameworkErrorCode, V1ErrorCode | undefined> = {
  MissingProperty: 'MissingProperty',
  NotFound: 'NotFound',
  ServiceError: 'ServiceError',
  BadSyntax: 'MalformedData',
  UnsupportedMediaType: 'MalformedData',
  MessageSizeTooBig: 'InvalidRange',
  MethodNotAllowed: 'NotSupported',
  TokenExpired: 'NotAllowed',
  Unauthorized: 'NotAllowed',
  Forbidden: 'NotAllowed',
  TooManyRequests: 'NotAllowed',
  BotError: 'ServiceError',
  BotTimeout: 'ServiceError',
  BadArgument: undefined,
  Timeout: undefined,
  Conflict: undefined,
  ServiceUnavailable: undefined,
};

/** The 1.1 code for a 3.0 code and status (the status stays the 3.0 one, so clients keyed on it behave the same). */
export function v1ErrorCode(code: string, status: number): V1ErrorCode {
  const mapped = isBotFrameworkErrorCode(code) ? V1_CODES[code] : undefined;
  if (mapped) return mapped;
  if (status === 401 || status === 403 || status === 429) return 'NotAllowed';
  if (status === 404) return 'NotFound';
  if (status === 413) return 'InvalidRange';
  if (status >= 500) return 'ServiceError';
  return 'MalformedData';
}
