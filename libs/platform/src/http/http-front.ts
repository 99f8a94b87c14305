import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type CanActivate, type ExceptionFilter, ForbiddenException, type Type } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { type Application, type RequestHandler } from 'express';
import { type Logger } from 'pino';
import { bodyParserHttpException } from '../input/body-parsing.interceptor';
import {
  accessLogger,
  logAccess,
  REQUEST_ID_HEADER,
  requestIdOf,
} from '../logging/request-logging.middleware';
import { type HttpMetrics } from '../metrics/http-metrics';

/** A request a hot route serves: what the framework's router would have matched. */
export interface HotRouteMatch {
  /** The route's parameters, still URI-encoded (decoded as Express decodes them; one that does not decode is left to the router). */
  params: Record<string, string>;
  /** The route pattern, as the metrics label it (Express's `req.route.path`). */
  route: string;
  /** The controller method the router would call: the guards read its (and its class's) metadata. */
  handler: (...args: never[]) => unknown;
}

/** The answer of a hot route: a status and a JSON body (none for 204 and 304), with any headers of its own. */
export interface HotAnswer {
  status: number;
  body: unknown;
  /** Flat `[name, value, …]`, as `response.writeHead` takes them. */
  headers?: readonly string[];
}

/** The request as a hot route sees it: Node's, with what the guards and the parser put on it. */
export type HotRequest = IncomingMessage & {
  id?: string;
  params?: Record<string, string>;
  body?: unknown;
};

export interface HotJsonPost {
  /** The controller whose route this answers (the guards read its metadata). */
  controller: Type<unknown>;
  /** The request's route, or undefined to leave the request to the framework. Only called for POSTs with JSON bodies. */
  match(path: string): HotRouteMatch | undefined;
  /** The guards the framework runs for the route, in its order (global ones first). */
  guards: readonly CanActivate[];
  /** The JSON body parser the framework's route gets (its limit and input rules): run after the guards. */
  parseJson: RequestHandler;
  /** The app's exception filter: renders every refusal and failure, as for the framework's route. */
  filter: ExceptionFilter;
  /** Serves the request once guarded and parsed (`request.body`), with its decoded parameters. */
  serve(request: HotRequest, params: Record<string, string>): Promise<HotAnswer>;
}

/**
 * A hot GET route. `claim` decides synchronously, from the request line and headers alone, whether the front answers:
 * it must claim only a request whose every check the framework makes before the handler (host, credentials, role …)
 * it has passed with the framework's own code, and must not touch the response; undefined leaves the request to the
 * framework exactly as it came.
 */
export interface HotGet {
  claim(request: IncomingMessage): HotGetClaim | undefined;
}

export interface HotGetClaim {
  /** The route pattern, as the metrics label it (Express's `req.route.path`). */
  route: string;
  /**
   * Writes the whole answer, errors included (through the app's exception filter), on a response that already
   * carries the security headers, the request id and the app's header middleware's headers; never rejects.
   */
  answer(request: HotRequest, response: ServerResponse): Promise<void>;
}

/** App-wide middleware that only sets headers, synchronously (CORS, an operation id): run for hot routes too. */
export type HeaderMiddleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

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

function noop(): void {}

function parseBody(parseJson: RequestHandler, request: HotRequest, response: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    void parseJson(
      request as Parameters<RequestHandler>[0],
      response as Parameters<RequestHandler>[1],
      (error?: unknown) => (error ? reject(bodyParserHttpException(error)) : resolve()),
    );
  });
}

/**
 * The front of a service's HTTP server: its `request` listener answers the hot routes (the POSTs of every message)
 * itself, before Express, and hands every other request to the Express app unchanged. A hot request gets what the
 * app-wide middleware gives every request — the security headers (helmet's, computed once), the request id, the
 * access-log line and the request metrics, the app's header middleware (CORS, operation id) — and what the framework
 * runs for its route: the guards, then the JSON parser (the body is not read before authentication), then the
 * route's service; without Express's request and response prototypes, its middleware chain and router, or Nest's
 * execution pipeline: the answer is one `writeHead` with a header list and one `end`. A refusal or failure is handed
 * to the app's exception filter with the request and response made Express's (as the framework's route would have
 * them), so the filter stays the one owner of the error wire format (and of `Connection: close` on a refusal before
 * the body was read).
 */
export class HttpFront {
  private readonly routes: HotJsonPost[] = [];
  private readonly getRoutes: HotGet[] = [];
  private readonly middleware: HeaderMiddleware[] = [];
  /** Flat `[name, value, …]`: the security headers every answer carries. */
  private headers: readonly string[] = [];
  private app: Application | undefined;
  private readonly accessLog: Logger;

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

  /** App-wide header middleware the hot routes run too, in the order the app installs it for the framework. */
  use(middleware: HeaderMiddleware): void {
    this.middleware.push(middleware);
  }

  /** A hot JSON POST route, tried in the order added. */
  post(route: HotJsonPost): void {
    this.routes.push(route);
  }

  /** A hot GET route, tried in the order added. */
  get(route: HotGet): void {
    this.getRoutes.push(route);
  }

  /** The server's request listener: the hot routes, then the Express app for everything else. */
  listener(app: Application): (request: IncomingMessage, response: ServerResponse) => void {
    this.app = app;
    return (request, response) => {
      if (!this.handle(request, response)) app(request, response);
    };
  }

  /** Serves the request if it is a hot route's; false leaves it untouched for the framework. */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method === 'GET') return this.handleGet(request, response);
    if (request.method !== 'POST' || this.routes.length === 0) return false;
    const contentType = request.headers['content-type'];
    if (
      contentType === undefined ||
      request.headers['content-encoding'] !== undefined ||
      !JSON_UTF8.test(contentType)
    )
      return false;
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    for (const route of this.routes) {
      const match = route.match(path);
      if (!match) continue;
      const params = decodeParams(match.params);
      if (!params) return false;
      void this.serve(route, match, params, request, response, url);
      return true;
    }
    return false;
  }

  private handleGet(request: HotRequest, response: ServerResponse): boolean {
    let claim: HotGetClaim | undefined;
    for (const route of this.getRoutes) {
      claim = route.claim(request);
      if (claim) break;
    }
    if (!claim) return false;
    const url = request.url ?? '/';
    const started = performance.now();
    const startedNs = process.hrtime.bigint();
    const id = requestIdOf(request);
    request.id = id;
    const route = claim.route;
    response.once('close', () => {
      logAccess(this.accessLog, request, response, id, url, started);
      this.metrics.observe('GET', route, response.statusCode, startedNs);
    });
    // The headers in the framework's order: security headers, request id, the app's header middleware, the route's.
    this.setCommonHeaders(response, id);
    for (const middleware of this.middleware) middleware(request, response, noop);
    void claim.answer(request, response).catch((error: unknown) => {
      this.logger.error({ err: error }, 'a hot GET route failed');
      response.destroy();
    });
    return true;
  }

  private async serve(
    route: HotJsonPost,
    match: HotRouteMatch,
    params: Record<string, string>,
    request: HotRequest,
    response: ServerResponse,
    url: string,
  ): Promise<void> {
    const started = performance.now();
    const startedNs = process.hrtime.bigint();
    const id = requestIdOf(request);
    request.id = id;
    request.params = params;
    let metricsRoute: string | undefined = match.route;
    response.once('close', () => {
      logAccess(this.accessLog, request, response, id, url, started);
      this.metrics.observe('POST', metricsRoute, response.statusCode, startedNs);
    });
    // The headers in the framework's order: security headers, request id, the app's header middleware, the route's.
    this.setCommonHeaders(response, id);
    for (const middleware of this.middleware) middleware(request, response, noop);
    const context = new ExecutionContextHost([request, response, noop], route.controller, match.handler);
    let stage: 'guards' | 'body' | 'serve' = 'guards';
    try {
      for (const guard of route.guards) {
        const allowed = guard.canActivate(context);
        if (!(allowed === true || (allowed instanceof Promise && (await allowed) === true)))
          throw new ForbiddenException('Forbidden resource');
      }
      stage = 'body';
      await parseBody(route.parseJson, request, response);
      stage = 'serve';
      const answer = await route.serve(request, params);
      this.answer(response, answer);
    } catch (error) {
      // A body the parser refuses is refused as before routing (the metrics' `<unmatched>`).
      if (stage === 'body') metricsRoute = undefined;
      this.refuse(route, request, response, id, error, context);
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

  /** The app's exception filter renders the error, with the request and response Express's as on its route. */
  private refuse(
    route: HotJsonPost,
    request: HotRequest,
    response: ServerResponse,
    id: string,
    error: unknown,
    context: ExecutionContextHost,
  ): void {
    if (!response.headersSent) {
      for (let index = 0; index < this.headers.length; index += 2) {
        const name = this.headers[index];
        if (!response.hasHeader(name)) response.setHeader(name, this.headers[index + 1]);
      }
      response.setHeader(REQUEST_ID_HEADER, id);
    }
    const app = this.app;
    if (app) {
      const express = request as HotRequest & { res?: ServerResponse; originalUrl?: string };
      express.res = response;
      express.originalUrl ??= request.url;
      (response as ServerResponse & { req?: IncomingMessage; locals?: object }).req = request;
      (response as ServerResponse & { locals?: object }).locals ??= Object.create(null) as object;
      const prototypes = app as Application & { request: object; response: object };
      Object.setPrototypeOf(request, prototypes.request);
      Object.setPrototypeOf(response, prototypes.response);
    }
    try {
      route.filter.catch(error, context);
    } catch (failure) {
      this.logger.error({ err: failure }, 'the exception filter failed');
      if (!response.headersSent) response.writeHead(500);
      response.end();
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
