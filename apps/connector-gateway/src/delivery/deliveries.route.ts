import { type CanActivate, type ExceptionFilter } from '@nestjs/common';
import { type RequestHandler } from 'express';
import { type HotJsonPost, type HotRouteMatch } from '@fieldops/platform';
import { DeliveriesController } from './deliveries.controller';

/** `POST /internal/v1/deliveries` as Express matches the controller's route (any case, optional `/`). */
const DELIVERIES_PATH = /^\/internal\/v1\/deliveries\/?$/i;

const DELIVER: HotRouteMatch = {
  params: {},
  route: '/internal/v1/deliveries',
  handler: Object.getOwnPropertyDescriptor(DeliveriesController.prototype, 'deliver')
    ?.value as HotRouteMatch['handler'],
};

export interface DeliveriesRouteOptions {
  /** The guards the framework runs for the route: the app's global guard, then the controller's InternalKeyGuard. */
  guards: readonly CanActivate[];
  controller: DeliveriesController;
  /** The app's exception filter. */
  filter: ExceptionFilter;
  /** The JSON parser the framework's routes get. */
  parseJson: RequestHandler;
}

/**
 * The relay → connector delivery (`POST /internal/v1/deliveries`, every message when the relay runs in a process of
 * its own) answered before Express and Nest (a hot route of platform's HttpFront): the same
 * guards, parser and exception filter, and the controller's own handler; the answer is its DeliveryReport (200).
 */
export function deliveriesRoute(options: DeliveriesRouteOptions): HotJsonPost {
  return {
    controller: DeliveriesController,
    match: (path) => (DELIVERIES_PATH.test(path) ? DELIVER : undefined),
    guards: options.guards,
    parseJson: options.parseJson,
    filter: options.filter,
    serve: async (request) => ({ status: 200, body: await options.controller.deliver(request.body) }),
  };
}
