import { type ServerResponse } from 'node:http';
import { type ExceptionFilter } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { type BotBearerGuard, type RequestWithBot } from '../bot-auth/bot-bearer.guard';
import { BotConversationsController } from './bot-conversations.controller';
import { type BotConversationsService } from './bot-conversations.service';

/** SendToConversation and ReplyToActivity as Express matches the controller's routes (any case, optional `/`). */
const SEND_PATH = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?\/?$/i;
/** `…/activities/history` is SendConversationHistory, a route of its own. */
const HISTORY = /^history$/i;
/** The bodies this route parses itself: JSON in UTF-8, not compressed. Any other is left to the framework. */
const JSON_UTF8 = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

function handlerOf(name: 'send' | 'reply'): (...args: unknown[]) => unknown {
  return Object.getOwnPropertyDescriptor(BotConversationsController.prototype, name)?.value as (
    ...args: unknown[]
  ) => unknown;
}

function writeResource(response: ServerResponse, resource: { id: string }): void {
  const body = JSON.stringify(resource);
  response.statusCode = 200;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(body));
  response.end(body);
}

export interface BotSendRouteOptions {
  guard: BotBearerGuard;
  conversations: BotConversationsService;
  filter: ExceptionFilter;
  /** The JSON parser's limit: the one the framework's parser has (start-connector-gateway). */
  jsonLimit: number;
}

/**
 * The two routes of every bot message (`POST /v3/conversations/{id}/activities[/{activityId}]`) answered before
 * Express's router and Nest's execution context: the same global guard, body parser, service and exception filter as
 * BotConversationsController.send / reply, called directly; the answer is the ResourceResponse (200, no ETag). The
 * security headers, access log, metrics and operation-id middleware ran before it. A request it does not recognise
 * exactly (another method or path, a body that is not plain UTF-8 JSON, an id that does not decode) goes on to the
 * router unchanged.
 */
export class BotSendRoute {
  private readonly parseJson: RequestHandler;
  private readonly handlers = { send: handlerOf('send'), reply: handlerOf('reply') };
  /** The route patterns, as the metrics label them (Express's `req.route.path`). */
  private readonly routes = {
    send: { path: '/v3/conversations/:conversationId/activities' },
    reply: { path: '/v3/conversations/:conversationId/activities/:activityId' },
  };

  constructor(private readonly options: BotSendRouteOptions) {
    this.parseJson = express.json({ limit: options.jsonLimit });
  }

  /** Express middleware: install after the operation-id middleware and before the body parsers and the router. */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'POST') return next();
    const match = SEND_PATH.exec(request.path);
    const contentType = request.headers['content-type'];
    if (
      !match ||
      (match[2] !== undefined && HISTORY.test(match[2])) ||
      contentType === undefined ||
      !JSON_UTF8.test(contentType) ||
      request.headers['content-encoding'] !== undefined
    ) {
      return next();
    }
    let conversationId: string;
    let activityId: string | undefined;
    try {
      conversationId = decodeURIComponent(match[1]);
      activityId = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
    } catch {
      return next();
    }
    void this.send(request, response, next, conversationId, activityId);
  };

  private async send(
    request: Request,
    response: Response,
    next: NextFunction,
    conversationId: string,
    activityId: string | undefined,
  ): Promise<void> {
    const kind = activityId === undefined ? 'send' : 'reply';
    request.params = activityId === undefined ? { conversationId } : { conversationId, activityId };
    (request as Request & { route?: unknown }).route = this.routes[kind];
    const context = new ExecutionContextHost(
      [request, response, next],
      BotConversationsController,
      this.handlers[kind],
    );
    try {
      this.options.guard.canActivate(context);
      const unreadable = await this.readBody(request, response);
      // The parser's errors go where they go from the framework's parsers: to Nest's error handler, which maps them
      // (400, 413 …) before the exception filter renders them.
      if (unreadable !== undefined) {
        delete (request as Request & { route?: unknown }).route;
        return next(unreadable);
      }
      const caller = (request as RequestWithBot).bot;
      const resource = await this.options.conversations.send(
        caller,
        conversationId,
        request.body,
        activityId,
      );
      writeResource(response, resource);
    } catch (error) {
      this.options.filter.catch(error, context);
    }
  }

  /** Reads and parses the JSON body; resolves with the parser's error, if any. */
  private readBody(request: Request, response: Response): Promise<unknown> {
    return new Promise((resolve) => {
      void this.parseJson(request, response, (error?: unknown) => resolve(error ?? undefined));
    });
  }
}
