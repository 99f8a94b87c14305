import { ON_BEHALF_OF } from '../auth/on-behalf-of';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type TLSSocket } from 'node:tls';
import { type CanActivate, type ExceptionFilter } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { type JwtAuthGuardInstance } from '@fieldops/auth';
import { type HotGet, type HotGetClaim } from '@fieldops/platform';
import { renderJson, writeRenderedJson } from '../drf/json-renderer';
import { setApiHeaders } from '../drf/routes';
import { type NamedHost } from '../hosts/allowed-hosts';
import { DevicesController } from './devices.controller';

/** The list's paths as the front answers them (any other spelling Express would match goes to Express). */
const LIST_PATHS = new Set(['/api/devices', '/api/devices/']);
/** The route pattern, as the metrics label it (Express's `req.route.path` for DevicesController.list). */
const LIST_ROUTE = '/api/devices';
/** `Bearer <token>` exactly as authorizationHeaderMiddleware leaves it unchanged (anything else is its to normalise). */
const PLAIN_BEARER = /^Bearer [^\s]+$/;

const LIST_HANDLER = Object.getOwnPropertyDescriptor(DevicesController.prototype, 'list')?.value as (
  ...args: never[]
) => unknown;

type FrontRequest = IncomingMessage & { originalUrl?: string; user?: unknown };

export interface DevicesListRouteOptions {
  controller: DevicesController;
  /** The app's global guards, in the order Nest runs them. */
  authentication: JwtAuthGuardInstance;
  roles: CanActivate;
  /** allowed-hosts' hostCheck with the app's settings. */
  checkHost: (request: object, named: NamedHost) => boolean;
  /** The app's exception filter. */
  filter: ExceptionFilter;
}

/**
 * `GET /api/devices/` (the hot list) answered on the http.Server before Express (a hot GET of platform's HttpFront):
 * claimed only when every check the framework's chain makes before the handler passes with the framework's own
 * code — the allowed host (hostCheck), a plain bearer header already verified by the app's JWT guard
 * (`activatesWithoutVerifying`), the role guard — and nothing needs Express (no forwarded headers, no body).
 * Then the same DevicesController.list, the same `Allow`/`Vary` headers, DRF bytes, and every error through the
 * app's exception filter. Any other request, including one whose token must still be verified, goes to Express.
 */
export function devicesListRoute(options: DevicesListRouteOptions): HotGet {
  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    setApiHeaders(response, LIST_ROUTE);
    try {
      const body = await options.controller.list(request);
      response.statusCode = 200;
      writeRenderedJson(response, renderJson(body));
    } catch (error) {
      options.filter.catch(
        error,
        new ExecutionContextHost([request, response], DevicesController, LIST_HANDLER),
      );
    }
  };
  const claim: HotGetClaim = { route: LIST_ROUTE, answer };
  return {
    claim(incoming) {
      const request = incoming as FrontRequest;
      const url = request.url ?? '';
      const query = url.indexOf('?');
      const path = query < 0 ? url : url.slice(0, query);
      if (!LIST_PATHS.has(path)) return undefined;
      const headers = request.headers;
      if (
        headers['x-forwarded-host'] !== undefined ||
        headers['x-forwarded-proto'] !== undefined ||
        // Acting for a person is decided asynchronously by the role guard (on-behalf-of.ts): Express's path.
        headers[ON_BEHALF_OF] !== undefined ||
        headers['content-length'] !== undefined ||
        headers['transfer-encoding'] !== undefined ||
        headers.authorization === undefined ||
        !PLAIN_BEARER.test(headers.authorization)
      )
        return undefined;
      const named = {
        protocol: (request.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http',
        host: headers.host ?? '',
      };
      if (!options.checkHost(request, named)) return undefined;
      const context = new ExecutionContextHost([request, undefined], DevicesController, LIST_HANDLER);
      let allowed: boolean;
      try {
        allowed =
          options.authentication.activatesWithoutVerifying(context) &&
          options.roles.canActivate(context) === true;
      } catch {
        allowed = false;
      }
      if (!allowed) {
        delete request.user;
        return undefined;
      }
      request.originalUrl = url;
      return claim;
    },
  };
}
