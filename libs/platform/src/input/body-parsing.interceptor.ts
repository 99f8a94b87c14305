import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import {
  BadRequestException,
  type CallHandler,
  type ExecutionContext,
  HttpException,
  type NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { from, type Observable, switchMap } from 'rxjs';
import { hasMediaType, limitBody } from './body-limit';
import { jsonInputVerifier, type JsonInputRules } from './json-input';

/** How a service reads `application/json` bodies: size limit (bytes), nesting depth and NUL rules. */
export type JsonBodyOptions = { limit: number } & JsonInputRules;

/**
 * The JSON body parser with the platform's input rules (body-parser with jsonInputVerifier, cut off at its limit by
 * limitBody): the one parser of the interceptor below and of any route that reads its body itself after its own
 * guard (the gateways' hot send routes).
 */
export function jsonBodyParser(options: JsonBodyOptions): RequestHandler {
  const { limit, ...rules } = options;
  return limitBody(express.json({ limit, type: isJson, verify: jsonInputVerifier(rules) }), limit, isJson);
}

function isJson(request: IncomingMessage): boolean {
  return hasMediaType(request, 'application/json');
}

function isForm(request: IncomingMessage): boolean {
  return hasMediaType(request, 'application/x-www-form-urlencoded');
}

/** The bodies a service accepts, parsed only once the request has passed its guards. */
export interface BodyParsingOptions {
  /** `application/json` bodies: size limit, nesting depth and NUL rules. */
  json: JsonBodyOptions;
  /** `application/x-www-form-urlencoded` bodies (Nest's default parser's settings: qs syntax); limit in bytes. */
  urlencoded?: { limit: number };
}

export const OWN_BODY = 'fieldops:platform:own-body';

/** The route reads its body itself, after its own checks (BodyParsingInterceptor leaves it unread). */
export const OwnBody = (): MethodDecorator => SetMetadata(OWN_BODY, true);

interface HttpError extends Error {
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

/** body-parser's errors as the HttpExceptions the apps' filters render (Nest's own mapping, plus 413/415). */
export function bodyParserHttpException(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const status = (error as HttpError).status ?? (error as HttpError).statusCode;
  if (error instanceof SyntaxError) return new BadRequestException(error.message, { cause: error });
  if (status === undefined || status < 400 || status >= 500) return error;
  const message =
    (error as HttpError).expose === false ? (STATUS_CODES[status] ?? 'Bad request') : error.message;
  return new HttpException(message, status, { cause: error });
}

/** Whether the request announces a body (chunked, or a non-zero Content-Length). */
export function announcesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function run(parser: RequestHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    // body-parser reads only Node's request (headers, stream) and sets `body`: the fast path's raw request will do.
    void parser(request as Request, response as Response, (error?: unknown) =>
      error ? reject(bodyParserHttpException(error)) : resolve(),
    );
  });
}

/**
 * Reads and parses request bodies after the guards, not before: a request without valid credentials is refused
 * without its body being read (the exception filter then closes the connection instead of draining the body). The
 * JSON parser refuses invalid UTF-8 and nesting deeper than the limit (400, the service's parse error). A request
 * without a body costs nothing more than a header check. Routes that read their body themselves (multipart uploads
 * with busboy) find it untouched: body-parser skips other media types.
 */
export class BodyParsingInterceptor implements NestInterceptor {
  /** The parser of each media type read, and which requests are of that type. */
  private readonly parsers: { reads: (request: IncomingMessage) => boolean; parser: RequestHandler }[];

  constructor(options: BodyParsingOptions) {
    this.parsers = [{ reads: isJson, parser: jsonBodyParser(options.json) }];
    if (options.urlencoded) {
      const { limit } = options.urlencoded;
      this.parsers.push({
        reads: isForm,
        parser: limitBody(express.urlencoded({ limit, type: isForm, extended: true }), limit, isForm),
      });
    }
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    if (!announcesBody(request) || Reflect.getMetadata(OWN_BODY, context.getHandler()) === true)
      return next.handle();
    const response = http.getResponse<Response>();
    return from(this.parse(request, response)).pipe(switchMap(() => next.handle()));
  }

  /**
   * Reads the body, if the request announces one, with the parser of its media type (the framework's routes here,
   * the front's fast routes directly); a body of another type is left unread, for a route that reads it itself.
   */
  parse(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!announcesBody(request)) return Promise.resolve();
    for (const { reads, parser } of this.parsers) if (reads(request)) return run(parser, request, response);
    return Promise.resolve();
  }
}
