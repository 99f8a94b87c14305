import { STATUS_CODES } from 'node:http';
import {
  BadRequestException,
  type CallHandler,
  type ExecutionContext,
  HttpException,
  type NestInterceptor,
} from '@nestjs/common';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { from, type Observable, switchMap } from 'rxjs';
import { jsonInputVerifier, type JsonInputRules } from './json-input';

/** The bodies a service accepts, parsed only once the request has passed its guards. */
export interface BodyParsingOptions {
  /** `application/json` (and `+json`) bodies: size limit, nesting depth and NUL rules. */
  json: { limit: number | string } & JsonInputRules;
  /** `application/x-www-form-urlencoded` bodies (flat: no nested keys). */
  urlencoded?: { limit: number | string };
}

interface HttpError extends Error {
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

/** body-parser's errors as the HttpExceptions Nest makes of them when a middleware raises them. */
function asHttpException(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const status = (error as HttpError).status ?? (error as HttpError).statusCode;
  if (status === undefined || status >= 500) return error;
  if (error instanceof SyntaxError && status === 400)
    return new BadRequestException(error.message, { cause: error });
  const message = (error as HttpError).expose === false ? (STATUS_CODES[status] ?? 'Bad request') : error.message;
  return new HttpException(message, status, { cause: error });
}

function run(parser: RequestHandler, request: Request, response: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    void parser(request, response, (error?: unknown) => (error ? reject(asHttpException(error)) : resolve()));
  });
}

/**
 * Reads and parses request bodies after the guards, not before: a request without valid credentials is refused
 * without its body being read (the exception filter then closes the connection instead of draining the body). The
 * JSON parser refuses invalid UTF-8 and nesting deeper than the limit (400, the service's parse error).
 */
export class BodyParsingInterceptor implements NestInterceptor {
  private readonly parsers: RequestHandler[];

  constructor(options: BodyParsingOptions) {
    const { limit, ...rules } = options.json;
    this.parsers = [
      express.json({ limit, verify: jsonInputVerifier(rules) }),
    ];
    if (options.urlencoded) {
      this.parsers.push(express.urlencoded({ limit: options.urlencoded.limit, extended: false }));
    }
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const parse = async (): Promise<void> => {
      for (const parser of this.parsers) await run(parser, request, response);
    };
    return from(parse()).pipe(switchMap(() => next.handle()));
  }
}
