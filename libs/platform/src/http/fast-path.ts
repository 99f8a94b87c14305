import { type ServerResponse } from 'node:http';
import {
  type CanActivate,
  ForbiddenException,
  type INestApplication,
  RequestMethod,
  SetMetadata,
  type Type,
} from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ExternalContextCreator, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { type ExternalExceptionFilterContext } from '@nestjs/core/exceptions/external-exception-filter-context';
import { type GuardsConsumer, type GuardsContextCreator } from '@nestjs/core/guards/index';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { type InterceptorsContextCreator } from '@nestjs/core/interceptors/index';
import { type PipesContextCreator } from '@nestjs/core/pipes/index';
import { BodyParsingInterceptor, OWN_BODY } from '../input/body-parsing.interceptor';
import { PathPattern } from './path-pattern';
import { type RouteRequest } from './route-request';

export const FAST_PATH_METADATA = 'fieldops:platform:fast-path';

/**
 * The route is also answered before Express, by the platform's front (`HttpFront`), with what the framework runs for
 * it, derived at boot from the same metadata: its path and method, its guards (global, controller, method), the
 * JSON body parser (after the guards; a POST), its parameters, its handler, its HTTP code and the app's exception
 * filters. A GET route answers HEAD as Express does (the GET's answer without its body). A route that needs
 * anything the front does not model (an interceptor, a pipe, middleware) fails the boot.
 */
export const FastPath = (): MethodDecorator => SetMetadata(FAST_PATH_METADATA, true);

/** A fast route, compiled at boot from a controller method's metadata. */
export interface FastRoute {
  /** The HTTP method (upper case): POST (a JSON body) or GET (no body; HEAD too). */
  method: string;
  pattern: PathPattern;
  /** Other routes of the same method a path may match as well: such a path is left to the framework. */
  conflicts: readonly PathPattern[];
  /** The route pattern, as the metrics label it (Express's `req.route.path`). */
  route: string;
  /** The request's execution context (`http`), as the guards, parameter decorators and filters get it. */
  context(request: RouteRequest, response: ServerResponse): ExecutionContextHost;
  /**
   * Runs the route's guards as Nest's GuardsConsumer does; throws their refusal. Synchronous (undefined) while they
   * answer booleans; a promise once one answers a promise or an observable.
   */
  guard(context: ExecutionContextHost): Promise<void> | undefined;
  /** Reads the body as the app's BodyParsingInterceptor does (a GET: nothing to read). */
  parseBody(request: RouteRequest, response: ServerResponse): Promise<void>;
  /** Binds the parameters and calls the handler. */
  handle(request: RouteRequest, response: ServerResponse, context: ExecutionContextHost): Promise<unknown>;
  /** The status of a returned answer (`@HttpCode`, else Nest's default for the method). */
  status: number;
  /** The handler writes its answer itself (`@Res()`). */
  writesOwnAnswer: boolean;
  /** Renders an error through the app's exception filters (as Nest selects them); throws if none did. */
  refuse(error: unknown, response: ServerResponse, context: ExecutionContextHost): void;
}

/** The context creators Nest's ExternalContextCreator holds: the same guards, pipes, interceptors and filters. */
interface NestContextCreators {
  guardsContextCreator: GuardsContextCreator;
  guardsConsumer: GuardsConsumer;
  interceptorsContextCreator: InterceptorsContextCreator;
  pipesContextCreator: PipesContextCreator;
  filtersContextCreator: ExternalExceptionFilterContext;
}

interface RouteArgument {
  index: number;
  data?: unknown;
  pipes?: unknown[];
  factory?: (data: unknown, context: ExecutionContextHost) => unknown;
}

type Extractor = (request: RouteRequest, response: ServerResponse, context: ExecutionContextHost) => unknown;

/** Express's compiled query parser (its `query parser fn` setting), as its `request.query` getter calls it. */
export type QueryParser = (query: string) => Record<string, unknown>;

/** `request.query` as Express 5 computes it: the app's query parser on the URL's query, `{}` with none set. */
export function queryOf(request: RouteRequest, parser: QueryParser | undefined): Record<string, unknown> {
  if (!parser) return {};
  const url = request.url ?? '/';
  const at = url.indexOf('?');
  return parser(at < 0 ? '' : url.slice(at + 1));
}

const METHOD_NAMES: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.DELETE]: 'DELETE',
  [RequestMethod.PATCH]: 'PATCH',
};

function noop(): void {}

function paths(value: unknown): string[] {
  if (value === undefined) return [''];
  return (Array.isArray(value) ? value : [value]).map(String);
}

function joinPath(controller: string, method: string): string {
  const joined = `/${controller}/${method}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/** Why a route cannot be served by the front: the boot fails with this. */
export class FastPathError extends Error {
  constructor(route: string, reason: string) {
    super(`@FastPath ${route}: ${reason}; serve it through the framework only, or model it in HttpFront`);
  }
}

function extractor(
  route: string,
  key: string,
  argument: RouteArgument,
  queryParser: QueryParser | undefined,
): Extractor {
  if (argument.pipes && argument.pipes.length > 0) throw new FastPathError(route, 'a parameter has pipes');
  if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) {
    const factory = argument.factory!;
    const data = argument.data;
    return (_request, _response, context) => factory(data, context);
  }
  const type = Number(key.split(':')[0]) as RouteParamtypes;
  const name = typeof argument.data === 'string' ? argument.data : undefined;
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- the others fail the boot (default)
  switch (type) {
    case RouteParamtypes.REQUEST:
      return (request) => request;
    case RouteParamtypes.RESPONSE:
      if ((argument.data as { passthrough?: boolean } | undefined)?.passthrough)
        throw new FastPathError(route, '@Res({ passthrough: true }) is not modelled');
      return (_request, response) => response;
    case RouteParamtypes.BODY:
      return name === undefined
        ? (request) => request.body
        : (request) => (request.body as Record<string, unknown> | undefined)?.[name];
    case RouteParamtypes.PARAM:
      return name === undefined ? (request) => request.params : (request) => request.params?.[name];
    case RouteParamtypes.QUERY:
      return name === undefined
        ? (request) => queryOf(request, queryParser)
        : (request) => queryOf(request, queryParser)[name];
    case RouteParamtypes.HEADERS:
      return name === undefined
        ? (request) => request.headers
        : (request) => request.headers[name.toLowerCase()];
    default:
      throw new FastPathError(route, `parameter type ${RouteParamtypes[type]} is not modelled`);
  }
}

/**
 * The fast routes of an initialised app: every controller method marked `@FastPath()`, compiled from Nest's route
 * metadata with Nest's own guard, pipe, interceptor and filter context creators (as its router and its
 * ExternalContextCreator resolve them). Throws (failing the boot) for anything the front does not model.
 */
export function compileFastRoutes(app: INestApplication): FastRoute[] {
  const creators: NestContextCreators = app.get<ExternalContextCreator, NestContextCreators>(
    ExternalContextCreator,
  );
  const queryParser = (app.getHttpAdapter().getInstance() as { get?: (setting: string) => unknown }).get?.(
    'query parser fn',
  ) as QueryParser | undefined;
  const scanner = new MetadataScanner();
  const routes: FastRoute[] = [];
  const all: { method: string; pattern: PathPattern }[] = [];
  const marked: {
    method: string;
    patterns: PathPattern[];
    build: (others: PathPattern[][]) => FastRoute[];
  }[] = [];

  for (const [moduleKey, moduleRef] of app.get(ModulesContainer).entries()) {
    for (const wrapper of moduleRef.controllers.values()) {
      const instance = wrapper.instance as Record<string, (...args: unknown[]) => unknown> | undefined;
      const metatype = wrapper.metatype as Type<unknown> | undefined;
      if (!instance || !metatype) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, (...args: unknown[]) => unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const callback = prototype[name];
        const requestMethod = Reflect.getMetadata(METHOD_METADATA, callback) as RequestMethod | undefined;
        if (requestMethod === undefined) continue;
        const method = METHOD_NAMES[requestMethod] ?? String(requestMethod);
        const patterns: PathPattern[] = [];
        for (const controllerPath of paths(Reflect.getMetadata(PATH_METADATA, metatype)))
          for (const methodPath of paths(Reflect.getMetadata(PATH_METADATA, callback))) {
            const pattern = joinPath(controllerPath, methodPath);
            try {
              patterns.push(new PathPattern(pattern));
            } catch (error) {
              if (Reflect.getMetadata(FAST_PATH_METADATA, callback) === true) throw error;
            }
          }
        for (const pattern of patterns) all.push({ method, pattern });
        if (Reflect.getMetadata(FAST_PATH_METADATA, callback) !== true) continue;
        const label = `${metatype.name}.${name}`;
        if (method !== 'POST' && method !== 'GET')
          throw new FastPathError(label, 'only GET routes and POST routes with JSON bodies are modelled');
        marked.push({
          method,
          patterns,
          build: (conflicts) =>
            compileRoute(
              creators,
              moduleKey,
              instance,
              metatype,
              name,
              method,
              patterns,
              conflicts,
              label,
              queryParser,
            ),
        });
      }
    }
  }
  for (const entry of marked) {
    const conflicts = entry.patterns.map((pattern) =>
      all
        .filter(
          (other) =>
            other.method === entry.method &&
            !entry.patterns.includes(other.pattern) &&
            other.pattern.overlaps(pattern),
        )
        .map((other) => other.pattern),
    );
    routes.push(...entry.build(conflicts));
  }
  return routes;
}

function compileRoute(
  creators: NestContextCreators,
  moduleKey: string,
  instance: Record<string, (...args: unknown[]) => unknown>,
  metatype: Type<unknown>,
  name: string,
  method: string,
  patterns: PathPattern[],
  conflicts: PathPattern[][],
  label: string,
  queryParser: QueryParser | undefined,
): FastRoute[] {
  const callback = (Object.getPrototypeOf(instance) as Record<string, (...args: unknown[]) => unknown>)[name];
  const guards: CanActivate[] = creators.guardsContextCreator.create(instance, callback, moduleKey);
  const interceptors = creators.interceptorsContextCreator.create(instance, callback, moduleKey);
  const bodies = interceptors.filter((interceptor) => interceptor instanceof BodyParsingInterceptor);
  // A POST's body is read by the platform's interceptor; a GET has none to read (the front leaves a GET with a body
  // to the framework), so the interceptor, if the app has it, does nothing there.
  const modelled = method === 'POST' ? bodies.length === 1 : bodies.length <= 1;
  if (!modelled || interceptors.length !== bodies.length)
    throw new FastPathError(
      label,
      `the front models only the platform's BodyParsingInterceptor (${method === 'POST' ? 'exactly one' : 'at most one'}); the route has ${
        interceptors.map((interceptor) => interceptor.constructor.name).join(', ') || 'none'
      }`,
    );
  const bodyParsing = bodies[0] as BodyParsingInterceptor | undefined;
  if (Reflect.getMetadata(OWN_BODY, callback) === true)
    throw new FastPathError(label, '@OwnBody routes read their body themselves');
  const pipes = creators.pipesContextCreator.create(instance, callback, moduleKey);
  if (pipes.length > 0) throw new FastPathError(label, 'pipes are not modelled');
  const filters = creators.filtersContextCreator.create(
    instance,
    callback as Parameters<ExternalExceptionFilterContext['create']>[1],
    moduleKey,
  );

  const metadata = (Reflect.getMetadata(ROUTE_ARGS_METADATA, metatype, name) ?? {}) as Record<
    string,
    RouteArgument
  >;
  const argumentsLength = Object.values(metadata).reduce(
    (length, { index }) => Math.max(length, index + 1),
    0,
  );
  const extractors: (Extractor | undefined)[] = new Array<Extractor | undefined>(argumentsLength);
  let writesOwnAnswer = false;
  for (const [key, argument] of Object.entries(metadata)) {
    extractors[argument.index] = extractor(label, key, argument, queryParser);
    if (
      !key.includes(CUSTOM_ROUTE_ARGS_METADATA) &&
      (Number(key.split(':')[0]) as RouteParamtypes) === RouteParamtypes.RESPONSE
    )
      writesOwnAnswer = true;
  }
  const status =
    (Reflect.getMetadata(HTTP_CODE_METADATA, callback) as number | undefined) ??
    (method === 'POST' ? 201 : 200);

  // One context per request, as Nest's GuardsConsumer.createContext makes it, for the guards, the parameter
  // decorators and the filters alike.
  const context = (request: RouteRequest, response: ServerResponse): ExecutionContextHost => {
    const host = new ExecutionContextHost([request, response, noop], metatype, callback);
    host.setType('http');
    return host;
  };
  // Nest's GuardsConsumer.tryActivate: each guard in turn; a boolean is taken as it is, a promise or an observable
  // through the consumer's own pickResult; the first false refuses (403).
  const guardFrom = async (host: ExecutionContextHost, at: number, pending: unknown): Promise<void> => {
    for (let index = at; index < guards.length; index += 1) {
      const result = index === at ? pending : guards[index].canActivate(host);
      const allowed =
        typeof result === 'boolean'
          ? result
          : await creators.guardsConsumer.pickResult(result as Promise<boolean>);
      if (!allowed) throw new ForbiddenException('Forbidden resource');
    }
  };
  const guard = (host: ExecutionContextHost): Promise<void> | undefined => {
    for (let index = 0; index < guards.length; index += 1) {
      const result = guards[index].canActivate(host);
      if (result === true) continue;
      if (result === false) throw new ForbiddenException('Forbidden resource');
      return guardFrom(host, index, result);
    }
    return undefined;
  };
  const nothingToRead = Promise.resolve();
  const parseBody = (request: RouteRequest, response: ServerResponse): Promise<void> =>
    method === 'POST' && bodyParsing ? bodyParsing.parse(request, response) : nothingToRead;
  const handle = (
    request: RouteRequest,
    response: ServerResponse,
    host: ExecutionContextHost,
  ): Promise<unknown> => {
    const args = new Array<unknown>(argumentsLength);
    for (let index = 0; index < argumentsLength; index += 1)
      args[index] = extractors[index]?.(request, response, host);
    return Promise.resolve(callback.apply(instance, args));
  };
  const refuse = (error: unknown, response: ServerResponse, host: ExecutionContextHost): void => {
    // The filter Nest selects for the exception (not `next`, which logs and rethrows once a filter returned nothing).
    void filters.invokeCustomFilters(error, host);
    if (!response.headersSent) throw new Error('no exception filter answered', { cause: error });
  };
  return patterns.map((pattern, index) => ({
    method,
    pattern,
    conflicts: conflicts[index],
    route: pattern.pattern,
    context,
    guard,
    parseBody,
    handle,
    status,
    writesOwnAnswer,
    refuse,
  }));
}

/** An Express router layer (Express 5's `router.stack`). */
interface ExpressLayer {
  name: string;
  handle: unknown;
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * Fails the boot if Express runs, for a fast route's path, middleware before the route that the front does not
 * model (`modelled`: the handlers the front runs itself, or knows to only set headers it sets too), or if the
 * route is not where the metadata says (a global prefix, versioning).
 */
export function checkExpressStack(
  adapter: unknown,
  express: unknown,
  routes: readonly FastRoute[],
  modelled: ReadonlySet<unknown>,
): void {
  const stack = (express as { router?: { stack: ExpressLayer[] } }).router?.stack ?? [];
  const modelledHere = new Set(modelled);
  // Nest's Express adapter installs a first layer that only runs its request and response hooks: a no-op while
  // none is set.
  const hooks = adapter as { onRequestHook?: unknown; onResponseHook?: unknown };
  const first = stack[0]?.handle;
  if (
    hooks.onRequestHook === undefined &&
    hooks.onResponseHook === undefined &&
    typeof first === 'function' &&
    first.toString().includes('onRequestHook')
  )
    modelledHere.add(first);
  for (const route of routes) {
    const sample = route.pattern.sample();
    const at = stack.findIndex(
      (layer) =>
        layer.route?.path === route.route && layer.route.methods[route.method.toLowerCase()] === true,
    );
    if (at < 0)
      throw new FastPathError(
        route.route,
        'Express has no route of this pattern (a global prefix, versioning?)',
      );
    for (const layer of stack.slice(0, at)) {
      if (!layer.match(sample)) continue;
      if (layer.route) {
        if (
          layer.route.methods[route.method.toLowerCase()] &&
          !route.conflicts.some((c) => c.pattern === layer.route!.path)
        )
          throw new FastPathError(route.route, `Express route ${layer.route.path} comes first`);
        continue;
      }
      if (!modelledHere.has(layer.handle))
        throw new FastPathError(route.route, `middleware ${layer.name || '<anonymous>'} is not modelled`);
    }
  }
}
