import { ServerResponse, STATUS_CODES } from 'node:http';
import { type Socket } from 'node:net';
import { type Duplex } from 'node:stream';
import { type ExceptionFilter } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { type Logger } from 'pino';
import { logAccess, REQUEST_ID_HEADER, requestIdOf } from '../logging/request-logging.middleware';
import { type HttpMetrics } from '../metrics/http-metrics';
import { type RouteRequest } from './route-request';

/** What an upgrade shares with the HTTP front: its access logger, metrics and security headers. */
export interface UpgradePipeline {
  accessLog: Logger;
  logger: Logger;
  metrics: HttpMetrics;
  /** Flat `[name, value, …]`: the security headers every answer carries. */
  headers: readonly string[];
}

function noop(): void {}

/**
 * One upgrade request (a WebSocket handshake) through what every HTTP request gets (HttpFront.upgrade): a request id
 * (`request.id`; an incoming well-formed `X-Request-Id` is kept), sent back as `X-Request-Id` on the 101 and on a
 * refusal; one access line and the request metrics (method GET, the route pattern, the status) once it is answered;
 * and a refusal written on Node's own response bound to the socket, as the HTTP routes' are: the security headers
 * and the request id, then the app's exception filter (status line with Node's reason phrase, the service's error
 * body and headers), `Connection: close`. CORS does not apply to WebSockets: the app's header middleware is not run.
 */
export class UpgradeExchange {
  /** The request id. */
  readonly id: string;
  private readonly started = performance.now();
  private readonly startedNs = process.hrtime.bigint();
  private readonly url: string;
  private over = false;

  constructor(
    private readonly pipeline: UpgradePipeline,
    readonly request: RouteRequest,
    private readonly socket: Duplex,
    /** The route pattern the metrics label it with (undefined: `<unmatched>`). */
    private route: string | undefined,
  ) {
    this.id = requestIdOf(request);
    request.id = this.id;
    this.url = request.url ?? '/';
    // A client that goes away before the answer still leaves its line (`request aborted`, no status yet).
    socket.once('close', this.aborted);
  }

  private readonly aborted = (): void => this.finish({ writableFinished: false, statusCode: 0 });

  /** Labels the metrics with this route pattern (once the path is known to be the stream's). */
  setRoute(route: string | undefined): void {
    this.route = route;
  }

  /** The handshake's own headers (`ws`' `headers` event): the request id, as every answer carries it. */
  addHandshakeHeaders(headers: string[]): void {
    headers.push(`${REQUEST_ID_HEADER}: ${this.id}`);
  }

  /** The handshake was answered `101 Switching Protocols`: the access line and the metrics. */
  accepted(): void {
    this.finish({ writableFinished: true, statusCode: 101 });
  }

  /** Refuses the upgrade: `filter` (the app's exception filter) renders `error` on a response bound to the socket. */
  refuse(error: unknown, filter: ExceptionFilter): void {
    if (this.over) return;
    const { request, socket, pipeline } = this;
    const response = new ServerResponse(request);
    response.shouldKeepAlive = false;
    response.assignSocket(socket as Socket);
    response.once('finish', () => {
      this.finish(response);
      response.detachSocket(socket as Socket);
      socket.end();
    });
    for (let index = 0; index < pipeline.headers.length; index += 2)
      response.setHeader(pipeline.headers[index], pipeline.headers[index + 1]);
    response.setHeader(REQUEST_ID_HEADER, this.id);
    try {
      const host = new ExecutionContextHost([request, response, noop]);
      host.setType('http');
      filter.catch(error, host);
      if (!response.headersSent) throw new Error('the exception filter wrote no answer', { cause: error });
    } catch (failure) {
      pipeline.logger.error({ err: failure }, 'no exception filter rendered an upgrade’s refusal');
      if (response.headersSent) {
        response.end();
        return;
      }
      const text = STATUS_CODES[500]!;
      response.writeHead(500, [
        'Content-Type',
        'text/plain; charset=utf-8',
        'Content-Length',
        String(text.length),
      ]);
      response.end(text);
    }
  }

  private finish(outcome: { writableFinished: boolean; statusCode: number }): void {
    if (this.over) return;
    this.over = true;
    this.socket.off('close', this.aborted);
    const { pipeline } = this;
    logAccess(pipeline.accessLog, this.request, outcome, this.id, this.url, this.started);
    // Like the HTTP routes', the metrics count answered requests only.
    if (outcome.writableFinished)
      pipeline.metrics.observe(this.request.method ?? 'GET', this.route, outcome.statusCode, this.startedNs);
  }
}
