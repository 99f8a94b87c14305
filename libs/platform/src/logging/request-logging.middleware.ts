import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type Level, type Logger } from 'pino';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTABLE_REQUEST_ID = /^[\w.:-]{1,128}$/;
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/**
 * Query parameters that carry credentials: Direct Line's stream and attachment tokens (`t`), OAuth tokens,
 * secrets and codes, AI-services keys (`?Subscription-Key=`), signatures, passwords.
 */
const SECRET_QUERY_PARAMETER =
  /([?&](?:t|token|access_token|refresh_token|id_token|code|client_secret|client_assertion|secret|password|key|api-key|apikey|api_key|subscription-key|sig|signature)=)[^&#]*/gi;

/** A URL as it may be logged: the values of credential query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMETER, '$1[redacted]');
}

/**
 * The access-log level of a finished response: 5xx error, 4xx warn, the rest info. A 401 to a request that sent no
 * Authorization header is info: the challenge of a client that has not authenticated yet (a first try, the relay's
 * start-up probe of the connector), not a refused credential.
 */
export function accessLogLevel(statusCode: number, sentAuthorization = true): Level {
  if (statusCode >= 500) return 'error';
  if (statusCode === 401 && !sentAuthorization) return 'info';
  if (statusCode >= 400) return 'warn';
  return 'info';
}

/** The request as the access log shows it (`req.id` is what other log lines of the request refer to). */
export type LoggedRequest = IncomingMessage & { id?: string };

/** The request's id: a well-formed incoming `X-Request-Id` (nginx sets one), or a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Whether a request URL is one the access log leaves out (health, readiness and metrics scrapes). */
export function isQuietUrl(url: string): boolean {
  const query = url.indexOf('?');
  return QUIET_PATHS.has(query < 0 ? url : url.slice(0, query));
}

/**
 * The logger of access-log lines: the service's logger without its redaction pass. A line holds only what logAccess
 * writes (request id, method, the URL with its credential parameters redacted by redactUrl, remote address, status,
 * duration), none of it under REDACTED_PATHS, and the redaction pass cost four fifths of a line (bench/relay).
 */
export function accessLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}

/**
 * The access-log line of a request that is over (`logger`: accessLogger's): `request completed` at the level of its status once the response
 * finished, `request aborted` (warn) when the client went away first; with method, redacted URL, status and duration.
 * Only built when its level is enabled.
 */
export function logAccess(
  logger: Logger,
  request: IncomingMessage,
  response: Pick<ServerResponse, 'writableFinished' | 'statusCode'>,
  id: string,
  url: string,
  started: number,
): void {
  const finished = response.writableFinished;
  const level = finished
    ? accessLogLevel(response.statusCode, request.headers.authorization !== undefined)
    : 'warn';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      req: { id, method: request.method, url: redactUrl(url), remoteAddress: request.socket?.remoteAddress },
      res: { statusCode: response.statusCode },
      responseTime: Math.round(performance.now() - started),
    },
    finished ? 'request completed' : 'request aborted',
  );
}

/**
 * Access log and request ids: reuses a well-formed incoming `X-Request-Id` (nginx sets one), or makes one,
 * echoes it on the response and puts it on `req.id`. One line per request when it finishes (`request completed`)
 * or when the client goes away first (`request aborted`), with method, redacted URL, status and duration; health,
 * readiness and metrics scrapes are not logged. The line is only built when its level is enabled, so a service at
 * `LOG_LEVEL=warn` pays one listener per request for it.
 */
export function requestLoggingMiddleware(logger: Logger) {
  const access = accessLogger(logger);
  return (request: LoggedRequest, response: ServerResponse, next: () => void): void => {
    const id = requestIdOf(request);
    request.id = id;
    response.setHeader(REQUEST_ID_HEADER, id);
    const url = request.url ?? '';
    if (isQuietUrl(url)) {
      next();
      return;
    }
    const started = performance.now();
    const done = (): void => {
      response.off('finish', done);
      response.off('close', done);
      logAccess(access, request, response, id, url, started);
    };
    response.on('finish', done);
    response.on('close', done);
    next();
  };
}
