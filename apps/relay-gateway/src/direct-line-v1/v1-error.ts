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

/** The 1.1 code for a 3.0 code and status (the status stays the 3.0 one, so clients keyed on it behave the same). */
export function v1ErrorCode(code: string, status: number): V1ErrorCode {
  switch (code) {
    case 'MissingProperty':
    case 'NotFound':
    case 'ServiceError':
      return code;
    case 'BadSyntax':
    case 'PayloadTooLarge':
    case 'UnsupportedMediaType':
      return 'MalformedData';
    case 'MessageSizeTooBig':
      return 'InvalidRange';
    case 'MethodNotAllowed':
      return 'NotSupported';
    case 'TokenExpired':
    case 'Unauthorized':
    case 'Forbidden':
    case 'TooManyRequests':
      return 'NotAllowed';
    case 'BotError':
    case 'BotTimeout':
      return 'ServiceError';
  }
  if (status === 401 || status === 403 || status === 429) return 'NotAllowed';
  if (status === 404) return 'NotFound';
  if (status === 413) return 'InvalidRange';
  if (status >= 500) return 'ServiceError';
  return 'MalformedData';
}
