import { Inject, Injectable } from '@nestjs/common';
import { type Request, type RequestHandler } from 'express';
import { type PreRoutedMatch, preRoutedJsonPost } from '@fieldops/platform';
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

/**
 * The send (`POST …/conversations/{id}/activities`, the hot path of every message) answered before Express's router
 * and Nest's execution context (platform's preRoutedJsonPost): the same guard, body parser, validation, service,
 * answer and exception filter as ActivitiesController.send, called directly.
 */
@Injectable()
export class ActivitySendRoute {
  private readonly handler = Object.getOwnPropertyDescriptor(ActivitiesController.prototype, 'send')
    ?.value as PreRoutedMatch['handler'];
  /** The route pattern of each prefix (lower case: Express matches any case). */
  private readonly routes = new Map(
    V3_PREFIXES.map((prefix) => [
      prefix.toLowerCase(),
      `/${prefix}/conversations/:conversationId/activities`,
    ]),
  );

  constructor(
    private readonly guard: DirectLineAuthGuard,
    private readonly activities: ActivitiesService,
    @Inject(RelayExceptionFilter) private readonly filter: RelayExceptionFilter,
    private readonly environment: RelayGatewayEnvironment,
  ) {}

  /** Express middleware, given the JSON parser the framework's routes get: install before that parser. */
  middleware(parseJson: RequestHandler): RequestHandler {
    return preRoutedJsonPost({
      controller: ActivitiesController,
      match: (path) => {
        const match = SEND_PATH.exec(path);
        if (!match) return undefined;
        return {
          params: { conversationId: match[2] },
          route: this.routes.get(match[1].toLowerCase())!,
          handler: this.handler,
        };
      },
      guards: [this.guard],
      parseJson,
      filter: this.filter,
      serve: async (request: Request, response, params) => {
        const credential = (request as AuthenticatedRequest).directLineCredential!;
        const activity = validateClientActivity(request.body, this.environment.RELAY_MAX_ACTIVITY_BYTES);
        const result = await this.activities.send(credential, params.conversationId, activity);
        writeSendAnswer(response, result);
      },
    });
  }
}
