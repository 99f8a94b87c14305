import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { type Duplex } from 'node:stream';
import { type INestApplication } from '@nestjs/common';
import { type ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { type Application } from 'express';
import { type Logger } from 'pino';
import {
  accessLogger,
  logAccess,
  REQUEST_ID_HEADER,
  requestIdOf,
} from '../logging/request-logging.middleware';
import { type HttpMetrics } from '../metrics/http-metrics';
import { checkExpressStack, compileFastRoutes, type FastRoute, FastPathError } from './fast-path';
import { type RouteRequest } from './route-request';
import { UpgradeExchange } from './upgrade-exchange';

/** The answer of a fast route: a status and a JSON body (none for 204 and 304), with any headers of its own. */
export interface HotAnswer {
  status: number;
  body: unknown;
  /** Flat `[name, value, …]`, as `response.writeHead` takes them. */
  headers?: readonly string[];
}

/**
 * App-wide middleware the fast routes run too (CORS, an operation id, a host check): synchronous, reading only what
 * Node's request gives; it either calls `next` before it returns, or answers the request itself (a refusal), and
 * then the front stops there as Express would.
 */
export type HeaderMiddleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/**
 * How the app's HTTP adapter writes what a handler returned (Nest's `reply`), on Node's response: after the headers
 * the front and the middleware set. The default is Express's `response.json` without ETag.
 */
export type ReplyWriter = (response: ServerResponse, status: number, body: unknown) => void;

/** The bodies a hot route parses itself: JSON in UTF-8, not compressed. Any other is left to the framework. */
const JSON_UTF8 = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function decodeParams(params: Record<string, string>): Record<string, string> | undefined {
  const decoded: Record<string, string> = {};
  try {
    for (const [name, value] of Object.entries(params)) decoded[name] = decodeURIComponent(value);
  } catch {
    return undefined;
  }
  return decoded;
}

/**
 * The front of a service's HTTP server: its `request` listener answers the fast routes (the controller methods marked
 * `@FastPath()`: the POSTs of every message, the devices list) itself, before Express, and hands every other request to the Express
 * app unchanged. A fast request gets what the app-wide middleware gives every request — the security headers
 * (helmet's, computed once), the request id, the access-log line and the request metrics, the app's header
 * middleware (CORS, operation id) — and what the framework runs for its route, compiled at boot from Nest's own
 * metadata (fast-path.ts): the guards, then the JSON parser (the body is not read before authentication), then the
 * handler with its parameters, and the app's exception filters for every refusal; without Express's request and
 * response prototypes, its middleware chain and router, or Nest's execution pipeline. Anything else the app
 * registers for such a route (middleware, an interceptor, a pipe) fails the boot.
 */
export class HttpFront {
  private routes: FastRoute[] = [];
  private readonly middleware: HeaderMiddleware[] = [];
  /** Express middleware whose effect the front reproduces (the platform's, and the header middleware). */
  private readonly modelled = new Set<unknown>();
  /** Flat `[name, value, …]`: the security headers every answer carries. */
  private headers: readonly string[] = [];
  private readonly accessLog: Logger;
  private reply: ReplyWriter | undefined;
  /** Set by {@link passed} when a middleware calls `next` (middleware is synchronous: one flag serves all). */
  private nextCalled = false;
  private readonly passed = (): void => {
    this.nextCalled = true;
  };

  constructor(
    private readonly logger: Logger,
    private readonly metrics: HttpMetrics,
  ) {
    this.accessLog = accessLogger(logger);
  }

  /** The security headers of every answer (startHttpService: securityHeaderList). */
  setHeaders(headers: readonly string[]): void {
    this.headers = [...headers];
  }

  /** Express middleware the front reproduces itself for fast routes (security headers, access log, metrics). */
  model(middleware: unknown): void {
    this.modelled.add(middleware);
  }

  /** App-wide header middleware the fast routes run too, in the order the app installs it for the framework. */
  use(middleware: HeaderMiddleware): void {
    this.middleware.push(middleware);
    this.modelled.add(middleware);
  }

  /** How handlers' answers are written, when the app's HTTP adapter does not send them as Express's `json`. */
  setReply(reply: ReplyWriter): void {
    this.reply = reply;
  }

  /**
   * Compiles the fast routes of an initialised app from its metadata and checks that Express runs nothing before
   * them that the front does not model; throws (the boot fails) otherwise.
   */
  compile(app: INestApplication): void {
    const routes = compileFastRoutes(app);
    const adapter = app.getHttpAdapter();
    const express = adapter.getInstance() as { get?: (setting: string) => unknown };
    // Express's `send` adds an ETag (and answers 304 to a fresh GET); the front's default reply does neither.
    const answered = routes.find((route) => !route.writesOwnAnswer);
    if (answered && !this.reply && typeof express.get?.('etag fn') === 'function')
      throw new FastPathError(
        answered.route,
        "Express’s ETag is not modelled (app.set('etag', false), or HttpFront.setReply)",
      );
    checkExpressStack(adapter, express, routes, this.modelled);
    this.routes = routes;
  }

  /** The fast routes, as compiled (tests, diagnostics). */
  get fastRoutes(): readonly FastRoute[] {
    return this.routes;
  }

  /**
   * An upgrade request (the server's `upgrade` event) with the request id, access line, metrics (under `route`, the
   * pattern, when known) and refusal rendering every HTTP request gets.
   */
  upgrade(request: IncomingMessage, socket: Duplex, route?: string): UpgradeExchange {
    const pipeline = {
      accessLog: this.accessLog,
      logger: this.logger,
      metrics: this.metrics,
      headers: this.headers,
    };
    return new UpgradeExchange(pipeline, request, socket, route);
  }

  /** The server's request listener: the hot routes, then the Express app for everything else. */
  listener(app: Application): (request: IncomingMessage, response: ServerResponse) => void {
    return (request, response) => {
      if (!this.handle(request, response)) app(request, response);
    };
  }

  /** Serves the request if it is a fast route's; false leaves it untouched for the framework. */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    const method = request.method;
    if (method === 'GET' || method === 'HEAD') {
      // A GET (or HEAD: Express answers it with the GET route) without a body; one with a body is the framework's.
      if (
        request.headers['transfer-encoding'] !== undefined ||
        request.headers['content-length'] !== undefined
      )
        return false;
      return this.route('GET', request, response);
    }
    if (method !== 'POST' || this.routes.length === 0) return false;
    const contentType = request.headers['content-type'];
    if (
      contentType === undefined ||
      request.headers['content-encoding'] !== undefined ||
      !JSON_UTF8.test(contentType)
    )
      return false;
    return this.route('POST', request, response);
  }

  /** Serves the request if a fast route of `method` takes its path. */
  private route(method: string, request: IncomingMessage, response: ServerResponse): boolean {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    for (const route of this.routes) {
      if (route.method !== method || !route.pattern.matches(path)) continue;
      // A path another route matches as well is the router's to decide.
      for (const conflict of route.conflicts) if (conflict.matches(path)) return false;
      const params = decodeParams(route.pattern.params(path)!);
      if (!params) return false;
      void this.serve(route, params, request, response, url);
      return true;
    }
    return false;
  }

  private async serve(
    route: FastRoute,
    params: Record<string, string>,
    request: RouteRequest,
    response: ServerResponse,
    url: string,
  ): Promise<void> {
    const started = performance.now();
    const startedNs = process.hrtime.bigint();
    const id = requestIdOf(request);
    request.id = id;
    request.params = params;
    let metricsRoute: string | undefined = route.route;
    response.once('close', () => {
      logAccess(this.accessLog, request, response, id, url, started);
      this.metrics.observe(request.method!, metricsRoute, response.statusCode, startedNs);
    });
    // The headers in the framework's order: security headers, request id, the app's header middleware, the route's.
    this.setCommonHeaders(response, id);
    for (const middleware of this.middleware) {
      this.nextCalled = false;
      middleware(request, response, this.passed);
      if (!this.nextCalled) {
        // The middleware answered (a refusal before routing: the metrics' `<unmatched>`).
        metricsRoute = undefined;
        return;
      }
    }
    const context = route.context(request, response);
    let stage: 'guards' | 'body' | 'serve' = 'guards';
    try {
      const guarded = route.guard(context);
      if (guarded) await guarded;
      stage = 'body';
      await route.parseBody(request, response);
      stage = 'serve';
      const body = await route.handle(request, response, context);
      if (route.writesOwnAnswer) return;
      if (this.reply) this.reply(response, route.status, body);
      else this.answer(response, { status: route.status, body });
    } catch (error) {
      // A body the parser refuses is refused as before routing (the metrics' `<unmatched>`).
      if (stage === 'body') metricsRoute = undefined;
      this.refuse(route, response, context, error);
    }
  }

  /** The security headers and the request id, which every answer carries first (as the app-wide middleware sets them). */
  private setCommonHeaders(response: ServerResponse, id: string): void {
    for (let index = 0; index < this.headers.length; index += 2)
      response.setHeader(this.headers[index], this.headers[index + 1]);
    response.setHeader(REQUEST_ID_HEADER, id);
  }

  /** The route's headers follow those already set (writeHead appends a list to them, in order). */
  private answer(response: ServerResponse, answer: HotAnswer): void {
    const headers: string[] = answer.headers ? [...answer.headers] : [];
    if (answer.status === 204 || answer.status === 304) {
      response.writeHead(answer.status, headers);
      response.end();
      return;
    }
    // Express sends an empty body for undefined.
    const text = (JSON.stringify(answer.body) as string | undefined) ?? '';
    headers.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', String(Buffer.byteLength(text)));
    response.writeHead(answer.status, headers);
    response.end(text);
  }

  /** The app's exception filters render the error, as on the framework's route. */
  private refuse(
    route: FastRoute,
    response: ServerResponse,
    context: ExecutionContextHost,
    error: unknown,
  ): void {
    try {
      route.refuse(error, response, context);
    } catch (failure) {
      this.logger.error({ err: failure }, 'no exception filter rendered a fast route’s error');
      if (!response.headersSent) {
        const text = STATUS_CODES[500]!;
        response.writeHead(500, [
          'Content-Type',
          'text/plain; charset=utf-8',
          'Content-Length',
          String(text.length),
        ]);
        response.end(text);
      } else response.end();
    }
  }
}

/**
 * A JSON answer in one write (headers and body together), without ETag, on a response Express or the framework's
 * route already gave its headers; 204 and 304 carry no body, as in Express.
 */
export function writeJsonAnswer(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  if (status === 204 || status === 304) {
    response.end();
    return;
  }
  // Express sends an empty body for undefined.
  const text = (JSON.stringify(body) as string | undefined) ?? '';
  response.setHeader('Content-Type', JSON_CONTENT_TYPE);
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}

/** A hot route's answer written by the framework's route (the same answer, whoever serves the request). */
export function writeHotAnswer(response: ServerResponse, answer: HotAnswer): void {
  const headers = answer.headers ?? [];
  for (let index = 0; index < headers.length; index += 2)
    response.setHeader(headers[index], headers[index + 1]);
  writeJsonAnswer(response, answer.status, answer.body);
}
