/**
 * The catalogue of Bot Framework errors (Direct Line 3.0 and the Bot Connector): every `error.code` the gateways
 * send, and one factory per code a call site raises. Clients key on the status first; the code is stable too, so
 * it is never written as a free string outside this file (evidence per code: notes directline-protocol.md §4.4).
 */
export const BOT_FRAMEWORK_ERROR_CODES = [
  'BadArgument',
  'BadSyntax',
  'MissingProperty',
  'MessageSizeTooBig',
  'TokenExpired',
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'MethodNotAllowed',
  'Timeout',
  'Conflict',
  'UnsupportedMediaType',
  'TooManyRequests',
  'ServiceError',
  'ServiceUnavailable',
  'BotError',
  'BotTimeout',
] as const;

export type BotFrameworkErrorCode = (typeof BOT_FRAMEWORK_ERROR_CODES)[number];

/** What an error adds to its status, code and message: Direct Line's `httpStatusCode`, response headers. */
export interface BotFrameworkErrorExtra {
  /** Direct Line adds the bot's status when a delivery failed. */
  httpStatusCode?: number;
  /** Response headers (WWW-Authenticate, Retry-After). */
  headers?: Record<string, string>;
}

/**
 * An error leaving a gateway as `{"error":{"code","message"}}` with a catalogued code and its HTTP status. A plain
 * class, free of any framework: each gateway's one exception filter renders it.
 */
export class BotFrameworkError extends Error {
  constructor(
    readonly status: number,
    readonly code: BotFrameworkErrorCode,
    message: string,
    readonly extra: BotFrameworkErrorExtra = {},
  ) {
    super(message);
    this.name = 'BotFrameworkError';
  }
}

const KNOWN = new Set<string>(BOT_FRAMEWORK_ERROR_CODES);

export function isBotFrameworkErrorCode(code: string): code is BotFrameworkErrorCode {
  return KNOWN.has(code);
}

/** The codes of errors no call site named, by the situation that raised them. */
export interface BotFrameworkDefaultCodes {
  /** By HTTP status. */
  byStatus: Readonly<Partial<Record<number, BotFrameworkErrorCode>>>;
  /** A body the JSON parser refused. */
  unparsableBody: BotFrameworkErrorCode;
  /** Any other 4xx. */
  clientError: BotFrameworkErrorCode;
  /** Any other 5xx. */
  serverError: BotFrameworkErrorCode;
}

/**
 * The codes of errors no call site named (unknown routes, the JSON parser's refusals, its size limit,
 * unexpected faults), handed to the gateways' exception filters.
 */
export const BOT_FRAMEWORK_DEFAULT_CODES: BotFrameworkDefaultCodes = {
  byStatus: {
    400: 'BadArgument',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    408: 'Timeout',
    409: 'Conflict',
    413: 'MessageSizeTooBig',
    415: 'UnsupportedMediaType',
    429: 'TooManyRequests',
    502: 'BotError',
    503: 'ServiceUnavailable',
    504: 'BotTimeout',
  },
  unparsableBody: 'BadSyntax',
  clientError: 'BadArgument',
  serverError: 'ServiceError',
};

/** Every 401 names the scheme that would be accepted (RFC 9110 §11.6.1). */
const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

function error(status: number, code: BotFrameworkErrorCode, message: string): BotFrameworkError {
  return new BotFrameworkError(
    status,
    code,
    message,
    status === 401 ? { headers: { ...BEARER_CHALLENGE } } : {},
  );
}

/**
 * Generic bad input. The real service also answers it with 401 (no credential), 403 ("Invalid token or secret",
 * "Security token not valid for this conversation") and 404 ("File not found", unknown conversation).
 */
export function badArgument(message: string, status: 400 | 401 | 403 | 404 = 400): BotFrameworkError {
  return error(status, 'BadArgument', message);
}

/** 400: the request could not be parsed. */
export function badSyntax(message: string): BotFrameworkError {
  return error(400, 'BadSyntax', message);
}

/** 400: a mandatory property or parameter is missing. */
export function missingProperty(message: string): BotFrameworkError {
  return error(400, 'MissingProperty', message);
}

/** 413: the activity or upload is over the size limit. */
export function messageSizeTooBig(message: string): BotFrameworkError {
  return error(413, 'MessageSizeTooBig', message);
}

/** 403: a valid token past its expiry. */
export function tokenExpired(message = 'Token expired'): BotFrameworkError {
  return error(403, 'TokenExpired', message);
}

/** 401 with a Bearer challenge: no (acceptable) credential. */
export function unauthorized(message: string): BotFrameworkError {
  return error(401, 'Unauthorized', message);
}

/** 403: an authenticated caller acting outside its rights. */
export function forbidden(message: string): BotFrameworkError {
  return error(403, 'Forbidden', message);
}

/** 404: no such route, conversation or resource. */
export function notFound(message = 'Not found'): BotFrameworkError {
  return error(404, 'NotFound', message);
}

/** 500: an unspecified failure of the service itself. */
export function serviceError(message: string): BotFrameworkError {
  return error(500, 'ServiceError', message);
}

/** 429 with `Retry-After` (seconds). */
export function tooManyRequests(message: string, retryAfterSeconds: number): BotFrameworkError {
  return new BotFrameworkError(429, 'TooManyRequests', message, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/**
 * A failed delivery to the bot: 502 (the bot answered an error or could not be reached) or 504 (it timed out), with
 * the top-level `httpStatusCode` the real service adds (the bot's own status when it answered).
 */
export function botError(
  status: 502 | 504,
  message: string,
  httpStatusCode: number = status,
): BotFrameworkError {
  return new BotFrameworkError(status, 'BotError', message, { httpStatusCode });
}

/** Whether an error is a failed delivery to the bot (`botError`): the activity was logged before the delivery. */
export function isBotError(error: unknown): error is BotFrameworkError {
  return error instanceof BotFrameworkError && error.code === 'BotError';
}
