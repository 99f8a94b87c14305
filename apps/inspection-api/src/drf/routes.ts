import { type IncomingMessage, type ServerResponse } from 'node:http';
import { requestPath } from '@fieldops/platform';
import { HttpException } from '@nestjs/common';
import { type Request } from 'express';
import { type SerializerInfo } from './metadata';
import { methodNotAllowed } from './exceptions';

export const LIST_METHODS = ['GET', 'POST', 'HEAD', 'OPTIONS'] as const;
export const DETAIL_METHODS = ['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const TOKEN_METHODS = ['POST', 'OPTIONS'] as const;
export const ROOT_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;
/** A singleton a user reads and changes (notification preferences). */
export const PREFERENCE_METHODS = ['GET', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'] as const;

const ROUTES: Array<[RegExp, readonly string[]]> = [
  [/^\/api\/?$/, ROOT_METHODS],
  [/^\/api\/users\/me\/?$/, ROOT_METHODS],
  [/^\/api\/devices\/groups\/?$/, ROOT_METHODS],
  [/^\/api\/users\/[^/.]+\/set_password\/?$/, TOKEN_METHODS],
  [/^\/api\/devices\/[^/.]+\/restore\/?$/, TOKEN_METHODS],
  [/^\/api\/actions\/?$/, LIST_METHODS],
  [/^\/api\/actions\/[^/.]+\/comments\/?$/, LIST_METHODS],
  [/^\/api\/actions\/[^/.]+\/?$/, ['GET', 'PUT', 'PATCH', 'HEAD', 'OPTIONS']],
  [/^\/api\/(devices|items|plans|records|users)\/?$/, LIST_METHODS],
  [/^\/api\/(devices|items|plans|records|users)\/[^/.]+\/?$/, DETAIL_METHODS],
  [/^\/api\/token(\/refresh|\/blacklist)?\/?$/, TOKEN_METHODS],
  [/^\/api\/users\/me\/sign_out_everywhere\/?$/, TOKEN_METHODS],
  [/^\/api\/users\/[^/.]+\/notifications\/?$/, PREFERENCE_METHODS],
  [/^\/api\/(due|due\/summary|statistics\/records|statistics\/actions)\/?$/, ROOT_METHODS],
  [/^\/api\/audit(\/[^/.]+)?\/?$/, ROOT_METHODS],
  [/^\/api\/records\/export\.csv$/, ROOT_METHODS],
  [/^\/api\/(records|devices|plans)\/[^/.]+\/report\.pdf$/, ROOT_METHODS],
  [/^\/api\/reports\/[^/.]+\/?$/, ROOT_METHODS],
  [/^\/api\/oidc(\/login|\/callback)?\/?$/, ROOT_METHODS],
  [/^\/api\/oidc\/token\/?$/, TOKEN_METHODS],
];

/** The methods a path's view allows (DRF sends `Allow` on every response of a view, errors included). */
export function allowedMethods(path: string): readonly string[] | undefined {
  return ROUTES.find(([pattern]) => pattern.test(path))?.[1];
}

/** Sets `Allow` and `Vary: Accept` on responses of the API's views, as DRF does. */
export function apiHeadersMiddleware(
  request: IncomingMessage,
  response: ServerResponse,
  next: () => void,
): void {
  setApiHeaders(response, requestPath(request));
  next();
}

/** `Allow` and `Vary: Accept` of the view at `path` (none for a path that is no view). */
export function setApiHeaders(response: ServerResponse, path: string): void {
  const allow = allowedMethods(path);
  if (allow) {
    response.setHeader('Allow', allow.join(', '));
    response.setHeader('Vary', 'Accept');
  }
}

/**
 * The catch-all of a route: OPTIONS answers DRF's metadata, any other method is 405. Runs after the
 * global guard, so an unauthenticated request gets 401 first (DRF checks authentication before the method).
 * `actions` describes the POST (list views) or PUT (detail views) serializer; a detail view passes a
 * function that resolves to undefined when its object does not exist, and DRF then leaves `actions` out.
 */
export async function otherMethod(
  request: Request,
  allow: readonly string[],
  name: string,
  actions?: () => Promise<Record<string, SerializerInfo> | undefined>,
): Promise<object> {
  if (request.method !== 'OPTIONS') throw methodNotAllowed(request.method, allow);
  const described = actions ? await actions() : undefined;
  return {
    name,
    description: '',
    renders: ['application/json'],
    parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
    ...(described ? { actions: described } : {}),
  };
}

/** The `actions` of a list view: its serializer for POST. */
export const postActions = (info: SerializerInfo) => (): Promise<Record<string, SerializerInfo>> =>
  Promise.resolve({ POST: info });

/**
 * The `actions` of a detail view: its serializer for PUT, only when the object exists (DRF calls
 * get_object() and skips the action on Http404).
 */
export const putActions =
  (info: SerializerInfo, findObject: () => Promise<unknown>) =>
  async (): Promise<Record<string, SerializerInfo> | undefined> => {
    try {
      await findObject();
      return { PUT: info };
    } catch (error) {
      if (error instanceof HttpException && error.getStatus() === 404) return undefined;
      throw error;
    }
  };
