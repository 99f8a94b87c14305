import { type ExceptionFilter } from '@nestjs/common';
import { type RequestHandler } from 'express';
import { type HotJsonPost, type HotRouteMatch } from '@fieldops/platform';
import { type BotBearerGuard, type RequestWithBot } from '../bot-auth/bot-bearer.guard';
import { BotConversationsController } from './bot-conversations.controller';
import { type BotConversationsService } from './bot-conversations.service';

/** SendToConversation and ReplyToActivity as Express matches the controller's routes (any case, optional `/`). */
const SEND_PATH = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?\/?$/i;
/** `…/activities/history` is SendConversationHistory, a route of its own. */
const HISTORY = /^history$/i;

function handlerOf(name: 'send' | 'reply'): HotRouteMatch['handler'] {
  return Object.getOwnPropertyDescriptor(BotConversationsController.prototype, name)
    ?.value as HotRouteMatch['handler'];
}

const SEND = {
  route: '/v3/conversations/:conversationId/activities',
  handler: handlerOf('send'),
};
const REPLY = {
  route: '/v3/conversations/:conversationId/activities/:activityId',
  handler: handlerOf('reply'),
};

export interface BotSendRouteOptions {
  /** The app's global guard. */
  guard: BotBearerGuard;
  conversations: BotConversationsService;
  /** The app's exception filter. */
  filter: ExceptionFilter;
  /** The JSON parser the framework's routes get. */
  parseJson: RequestHandler;
}

/**
 * The two routes of every bot message (`POST /v3/conversations/{id}/activities[/{activityId}]`) answered before
 * Express and Nest (a hot route of platform's HttpFront): the same global guard, body parser,
 * service and exception filter as BotConversationsController.send / reply, called directly; the answer is the
 * ResourceResponse (200, no ETag).
 */
export function botSendRoute(options: BotSendRouteOptions): HotJsonPost {
  return {
    controller: BotConversationsController,
    match: (path): HotRouteMatch | undefined => {
      const match = SEND_PATH.exec(path);
      if (!match) return undefined;
      const [, conversationId, activityId] = match;
      if (activityId === undefined) return { params: { conversationId: conversationId }, ...SEND };
      if (HISTORY.test(activityId)) return undefined;
      return { params: { conversationId: conversationId, activityId }, ...REPLY };
    },
    guards: [options.guard],
    parseJson: options.parseJson,
    filter: options.filter,
    serve: async (request, params) => {
      const { conversationId, activityId } = params;
      const resource = await options.conversations.send(
        (request as Partial<RequestWithBot>).bot,
        conversationId,
        request.body,
        activityId,
      );
      return { status: 200, body: resource };
    },
  };
}
