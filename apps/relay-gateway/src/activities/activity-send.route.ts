import { Inject, Injectable } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type AuthenticatedRequest, DirectLineAuthGuard } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';
import { RelayExceptionFilter } from '../relay-exception.filter';
import { ActivitiesController } from './activities.controller';
import { ActivitiesService } from './activities.service';
import { validateClientActivity } from './activity-validation';
import { writeSendAnswer } from './send-answer';

/** `POST /{v3 prefix}/conversations/{id}/activities` as Express matches the controller's route (any case, optional `/`). */
const SEND_PATH = new RegExp(`^/(${V3_PREFIXES.join('|')})/conversations/([^/]+)/activities/?$`, 'i');
/** The bodies this route parses itself: JSON in UTF-8, not compressed. Any other is left to the framework. */
const JSON_UTF8 = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * The send route (`POST …/conversations/{id}/activities`, the hot path of every message) answered before Express's
 * router and Nest's execution context: the same guard, body parser, validation, service, exception filter and answer
 * as ActivitiesController.send, called directly. The security headers, access log, metrics and CORS middleware ran
 * before it. A request it does not recognise exactly (another method or path, a body that is not plain UTF-8 JSON, a
 * conversation id that does not decode) goes on to the router unchanged, so the framework's answer stays the owner
 * of every other case.
 */
@Injectable()
export class ActivitySendRoute {
  private readonly parseJson: RequestHandler;
  private readonly handler = Object.getOwnPropertyDescriptor(ActivitiesController.prototype, 'send')
    ?.value as (...args: unknown[]) => unknown;
  /** The route pattern of each prefix, as the metrics label it (Express's `req.route.path`). */
  private readonly routes = new Map(
    V3_PREFIXES.map((prefix) => [
      prefix.toLowerCase(),
      { path: `/${prefix}/conversations/:conversationId/activities` },
    ]),
  );

  constructor(
    private readonly guard: DirectLineAuthGuard,
    private readonly activities: ActivitiesService,
    @Inject(RelayExceptionFilter) private readonly filter: RelayExceptionFilter,
    private readonly environment: RelayGatewayEnvironment,
  ) {
    // The parser the framework's route gets (start-relay-gateway): above the activity limit, so oversize activities
    // get 413 MessageSizeTooBig from validation, not the parser.
    this.parseJson = express.json({ limit: environment.RELAY_MAX_ACTIVITY_BYTES * 4 });
  }

  /** Express middleware: install after CORS and before the body parsers and the router. */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'POST') return next();
    const match = SEND_PATH.exec(request.path);
    const contentType = request.headers['content-type'];
    if (
      !match ||
      contentType === undefined ||
      !JSON_UTF8.test(contentType) ||
      request.headers['content-encoding'] !== undefined
    ) {
      return next();
    }
    let conversationId: string;
    try {
      conversationId = decodeURIComponent(match[2]);
    } catch {
      return next();
    }
    void this.send(request, response, next, match[1].toLowerCase(), conversationId);
  };

  private async send(
    request: Request,
    response: Response,
    next: NextFunction,
    prefix: string,
    conversationId: string,
  ): Promise<void> {
    request.params = { conversationId };
    (request as Request & { route: unknown }).route = this.routes.get(prefix);
    const context = new ExecutionContextHost([request, response, next], ActivitiesController, this.handler);
    try {
      await this.guard.canActivate(context);
      const unreadable = await this.readBody(request, response);
      // The parser's errors go where they go from the framework's parsers: to Nest's error handler, which maps them
      // (400 BadSyntax, 413 …) before the exception filter renders them.
      if (unreadable !== undefined) {
        delete (request as Request & { route?: unknown }).route;
        return next(unreadable);
      }
      const credential = (request as AuthenticatedRequest).directLineCredential!;
      const activity = validateClientActivity(request.body, this.environment.RELAY_MAX_ACTIVITY_BYTES);
      const result = await this.activities.send(credential, conversationId, activity);
      writeSendAnswer(response, result);
    } catch (error) {
      this.filter.catch(error, context);
    }
  }

  /** Reads and parses the JSON body; resolves with the parser's error, if any. */
  private readBody(request: Request, response: Response): Promise<unknown> {
    return new Promise((resolve) => {
      void this.parseJson(request, response, (error?: unknown) => resolve(error ?? undefined));
    });
  }
}
