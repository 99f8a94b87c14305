import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { type Logger } from 'pino';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTABLE_REQUEST_ID = /^[\w.:-]{1,128}$/;
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** Query parameters that carry credentials (AI-services keys may come as `?Subscription-Key=`). */
const SECRET_QUERY_PARAMETER = /([?&](?:subscription-key|access_token|token|client_secret)=)[^&#]*/gi;

/** A URL as it may be logged: the values of credential query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMETER, '$1[redacted]');
}

/**
 * Access log and request ids: reuses a well-formed incoming `X-Request-Id` (nginx sets one), or makes
 * one, echoes it on the response and puts it on every log line of the request (`req.log`).
 */
export function requestLoggingMiddleware(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(request: IncomingMessage, response: ServerResponse) {
      const incoming = request.headers[REQUEST_ID_HEADER];
      const id =
        typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
      response.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    customLogLevel(_request, response, error) {
      if (error || response.statusCode >= 500) return 'error';
      if (response.statusCode >= 400) return 'warn';
      return 'info';
    },
    autoLogging: { ignore: (request) => QUIET_PATHS.has((request.url ?? '').split('?')[0]) },
    serializers: {
      req: (request: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
        id: request.id,
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.remoteAddress,
      }),
      res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
    },
  });
}
