import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, type ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import { type ServerResponse } from 'node:http';
import { type Logger } from 'pino';
import { announcesBody } from '../input/body-parsing.interceptor';
import { redactUrl } from '../logging/request-logging.middleware';
import { requestPath, type RouteRequest } from '../http/route-request';
import { writeJsonAnswer } from '../http/http-front';
import {
  DEPENDENCY_RETRY_AFTER_SECONDS,
  DependencyUnavailableException,
  isDependencyUnavailable,
} from './dependency-unavailable';

export interface WireError {
  status: number;
  exception: unknown;
  /** Set on 5xx only: the id under which the error was logged, so an operator can find it. */
  errorId?: string;
  /** The request as both paths give it (the framework's and the front's fast routes). */
  request: RouteRequest;
  /** The request's path, without the query. */
  path: string;
}

/**
 * The one exception-filter pattern every app uses: it decides the status (HttpException's own or the one of an
 * app's own error classes, 500 otherwise), logs server errors with an error id under the `err` key, and leaves only the body shape
 * to the app (DRF-style for inspection-api, `{error:{code,message}}` for the gateways).
 */
export abstract class WireExceptionFilter implements ExceptionFilter {
  protected constructor(protected readonly logger: Logger) {}

  /** The wire body for this error. */
  protected abstract renderBody(error: WireError): unknown;

  /** Extra response headers (WWW-Authenticate, Retry-After, …). */
  protected renderHeaders(_error: WireError): Record<string, string> {
    return {};
  }

  /**
   * The status an error carries: an HttpException's own; an app whose wire contracts define their own (plain) error
   * classes adds theirs. Undefined for any other error (a 500, or a 503 when a dependency is away).
   */
  protected statusOf(exception: unknown): number | undefined {
    return exception instanceof HttpException ? exception.getStatus() : undefined;
  }

  catch(thrown: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw thrown;
    // A dependency that is away (PostgreSQL, Redis) is a 503 with Retry-After, never a 500.
    const exception =
      this.statusOf(thrown) === undefined && isDependencyUnavailable(thrown)
        ? new DependencyUnavailableException(thrown)
        : thrown;
    const http = host.switchToHttp();
    const request = http.getRequest<RouteRequest>();
    const response = http.getResponse<ServerResponse>();
    const status = this.statusOf(exception) ?? HttpStatus.INTERNAL_SERVER_ERROR;
    const error: WireError = { status, exception, request, path: requestPath(request) };
    if (status >= 500) {
      error.errorId = randomUUID();
      this.logger.error(
        {
          err: thrown,
          errorId: error.errorId,
          method: request.method,
          url: redactUrl(request.originalUrl ?? request.url ?? ''),
        },
        'request failed',
      );
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    // A request refused before its body was read (failed authentication, unknown route, a body over the limit …):
    // close the connection after the answer instead of letting Node read and discard an upload nobody wants (the
    // unread rest would otherwise be drained to keep the connection in step for its next request).
    if (!request.complete && announcesBody(request)) response.setHeader('Connection', 'close');
    if (exception instanceof DependencyUnavailableException)
      response.setHeader('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    const body = this.renderBody(error);
    for (const [name, value] of Object.entries(this.renderHeaders(error))) response.setHeader(name, value);
    this.send(response, status, body);
  }

  /** Writes the rendered body: JSON in one write, with Node's own API (the same bytes on every path). */
  protected send(response: ServerResponse, status: number, body: unknown): void {
    if (body === undefined) {
      response.statusCode = status;
      response.end();
    } else writeJsonAnswer(response, status, body);
  }
}
