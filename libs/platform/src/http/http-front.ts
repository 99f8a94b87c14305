import { type ServerResponse } from 'node:http';
import { type CanActivate, type ExceptionFilter, type Type } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** A request a pre-routed route serves: what the router would have matched. */
export interface PreRoutedMatch {
  /** The route's parameters, still URI-encoded (decoded as Express decodes them; one that does not decode is left to the router). */
  params: Record<string, string>;
  /** The route pattern, as the metrics label it (Express's `req.route.path`). */
  route: string;
  /** The controller method the router would call: the guards read its (and its class's) metadata. */
  handler: (...args: never[]) => unknown;
}

export interface PreRoutedPostOptions {
  /** The controller whose route this answers (the guards read its metadata). */
  controller: Type<unknown>;
  /** The request's route, or undefined to leave the request to the router. Only called for POSTs with JSON bodies. */
  match(path: string): PreRoutedMatch | undefined;
  /** The guards the framework runs for the route, in its order (global ones first). */
  guards: readonly CanActivate[];
  /** The JSON body parser the framework's route gets (its limit and input rules): run after the guards. */
  parseJson: RequestHandler;
  /** The app's exception filter: renders every refusal and failure, as for the framework's route. */
  filter: ExceptionFilter;
  /** Serves the request once guarded and parsed (`request.body`), with its decoded parameters; writes the answer. */
  serve(request: Request, response: Response, params: Record<string, string>): Promise<void>;
}

/** The bodies a pre-routed route parses itself: JSON in UTF-8, not compressed. Any other is left to the framework. */
const JSON_UTF8 = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

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
 * A hot JSON POST route answered before Express's router and Nest's execution context, as Express middleware
 * installed after the app-wide middleware (security headers, request id and access log, metrics, CORS …) and before
 * the body parsers and the router. It runs what the framework runs for the route — its guards, then the JSON parser,
 * then the handler's service call — and hands every error to the app's exception filter; a body the parser refuses
 * goes to Nest's error handler, exactly as from the framework's parsers. A request it does not recognise exactly
 * (another method or path, a body that is not plain UTF-8 JSON, a parameter that does not decode) goes on to the
 * router unchanged, so the framework's route stays the owner of every other case.
 */
export function preRoutedJsonPost(options: PreRoutedPostOptions): RequestHandler {
  const serve = async (
    request: Request,
    response: Response,
    next: NextFunction,
    match: PreRoutedMatch,
    params: Record<string, string>,
  ): Promise<void> => {
    const routed = request as Request & { route?: unknown };
    request.params = params;
    routed.route = { path: match.route };
    const context = new ExecutionContextHost([request, response, next], options.controller, match.handler);
    try {
      for (const guard of options.guards) await guard.canActivate(context);
      const unreadable = await new Promise<unknown>((resolve) => {
        void options.parseJson(request, response, (error?: unknown) => resolve(error ?? undefined));
      });
      if (unreadable !== undefined) {
        // As from the framework's parsers, before routing.
        delete routed.route;
        next(unreadable);
        return;
      }
      await options.serve(request, response, params);
    } catch (error) {
      options.filter.catch(error, context);
    }
  };
  return (request: Request, response: Response, next: NextFunction): void => {
    const contentType = request.headers['content-type'];
    if (
      request.method !== 'POST' ||
      contentType === undefined ||
      !JSON_UTF8.test(contentType) ||
      request.headers['content-encoding'] !== undefined
    ) {
      next();
      return;
    }
    const match = options.match(request.path);
    const params = match && decodeParams(match.params);
    if (!match || !params) {
      next();
      return;
    }
    void serve(request, response, next, match, params);
  };
}

/** A JSON answer in one write (headers and body together), without ETag; 204 and 304 carry no body, as in Express. */
export function writeJsonAnswer(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  if (status === 204 || status === 304) {
    response.end();
    return;
  }
  // Express sends an empty body for undefined.
  const text = (JSON.stringify(body) as string | undefined) ?? '';
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}
