import { Inject, Injectable } from '@nestjs/common';
import { type RequestHandler } from 'express';
import { type HotJsonPost, type HotRouteMatch } from '@fieldops/platform';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type AuthenticatedRequest, DirectLineAuthGuard } from '../direct-line/direct-line-auth.guard';
import { V3_PREFIXES } from '../direct-line/v3-paths';
import { RelayExceptionFilter } from '../relay-exception.filter';
import { ActivitiesController } from './activities.controller';
import { ActivitiesService } from './activities.service';
import { validateClientActivity } from './activity-validation';
import { sendAnswer } from './send-answer';

/** `POST /{v3 prefix}/conversations/{id}/activities` as Express matches the controller's route (any case, optional `/`). */
const SEND_PATH = new RegExp(`^/(${V3_PREFIXES.join('|')})/conversations/([^/]+)/activities/?$`, 'i');

/**
 * The send (`POST …/conversations/{id}/activities`, the hot path of every message) answered before Express's router
 * and Nest (a hot route of platform's HttpFront): the same guard, body parser, validation, service, answer and
 * exception filter as ActivitiesController.send, called directly.
 */
@Injectable()
export class ActivitySendRoute {
  private readonly handler = Object.getOwnPropertyDescriptor(ActivitiesController.prototype, 'send')
    ?.value as HotRouteMatch['handler'];
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

  /** The hot route, given the JSON parser the framework's routes get. */
  route(parseJson: RequestHandler): HotJsonPost {
    return {
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
      serve: async (request, params) => {
        const credential = (request as Partial<AuthenticatedRequest>).directLineCredential!;
        const activity = validateClientActivity(request.body, this.environment.RELAY_MAX_ACTIVITY_BYTES);
        return sendAnswer(await this.activities.send(credential, params.conversationId, activity));
      },
    };
  }
}
