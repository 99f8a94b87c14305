import { type DynamicModule } from '@nestjs/common';
import { type ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { type ClassConstructor } from 'class-transformer';
import { type Logger } from 'pino';
import { type CommonEnvironment } from '../config/common-environment';
import { ConfigurationError } from '../config/configuration-error';
import { loadEnvironment, processVariables } from '../config/load-environment';
import { type BodyParsingOptions } from '../input/body-parsing.interceptor';
import { createLogger } from '../logging/create-logger';
import { type RunningService, startHttpService } from './http-service';

/** What an app declares about itself; startService does the rest the same way for every app. */
export interface ServiceDefinition<Environment extends CommonEnvironment> {
  service: string;
  environmentSchema: ClassConstructor<Environment>;
  port(environment: Environment): number;
  /** The root module; may prepare resources first (e.g. an embedded database) and register their cleanup. */
  module(context: ServiceContext<Environment>): DynamicModule | Promise<DynamicModule>;
  configure?(app: NestExpressApplication, context: ServiceContext<Environment>): void | Promise<void>;
  /**
   * The bodies the service accepts, parsed only after its guards (unauthenticated requests are refused unread).
   * Unset: Nest's default parsers, or the app's own (installed in configure).
   */
  bodies?(environment: Environment): BodyParsingOptions;
  /** The service's public base URL, when configured: an https one turns on HSTS. */
  publicUrl?(environment: Environment): string | undefined;
  /** Cross-Origin-Resource-Policy (default `same-site`; `cross-origin` for files other origins show). */
  crossOriginResources?: 'same-site' | 'cross-origin';
  /** The Express adapter, when the app replies its own way (see HttpServiceOptions.httpAdapter). */
  httpAdapter?: () => ExpressAdapter;
}

export interface ServiceContext<Environment> {
  environment: Environment;
  /** The unvalidated variables the environment was read from (for secret references such as `{ env: NAME }`). */
  variables: NodeJS.ProcessEnv;
  logger: Logger;
  /** Runs after the app has closed (last registered, first run). */
  onClosed: (cleanup: () => Promise<void>) => void;
}

export interface StartServiceOptions {
  /** Defaults to the process's variables. */
  environment?: NodeJS.ProcessEnv;
  logger?: Logger;
}

export type StartedService<Environment> = RunningService & { logger: Logger; environment: Environment };

/** The JSON nesting limit is one setting of every app (JSON_MAX_DEPTH), unless the app names its own. */
function bodiesWithDepth(
  bodies: BodyParsingOptions | undefined,
  maxDepth: number,
): BodyParsingOptions | undefined {
  return bodies && { ...bodies, json: { maxDepth, ...bodies.json } };
}

/** Validates the environment (fail fast), builds the logger and module, listens. */
export async function startService<Environment extends CommonEnvironment>(
  definition: ServiceDefinition<Environment>,
  options: StartServiceOptions = {},
): Promise<StartedService<Environment>> {
  const variables = options.environment ?? processVariables();
  const environment = loadEnvironment(definition.environmentSchema, variables, definition.service);
  const port = definition.port(environment);
  if (environment.METRICS_PORT && environment.METRICS_PORT === port) {
    throw new ConfigurationError(definition.service, [
      `METRICS_PORT: ${port} is the app's own port; give metrics a port of their own, or unset METRICS_PORT`,
    ]);
  }
  if (environment.HTTP_REQUEST_TIMEOUT_MS < environment.HTTP_HEADERS_TIMEOUT_MS) {
    throw new ConfigurationError(definition.service, [
      `HTTP_REQUEST_TIMEOUT_MS: ${environment.HTTP_REQUEST_TIMEOUT_MS} is shorter than HTTP_HEADERS_TIMEOUT_MS (${environment.HTTP_HEADERS_TIMEOUT_MS}); the whole request cannot take less time than its headers`,
    ]);
  }
  const logger =
    options.logger ?? createLogger({ service: definition.service, level: environment.LOG_LEVEL });
  const cleanups: Array<() => Promise<void>> = [];
  const context: ServiceContext<Environment> = {
    environment,
    variables,
    logger,
    onClosed: (cleanup) => cleanups.unshift(cleanup),
  };
  const runCleanups = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0)) {
      await cleanup().catch((error: unknown) => logger.error({ err: error }, 'cleanup after close failed'));
    }
  };
  try {
    const running = await startHttpService({
      service: definition.service,
      module: await definition.module(context),
      logger,
      host: environment.HOST,
      port,
      metrics: { port: environment.METRICS_PORT, bearerToken: environment.METRICS_BEARER_TOKEN },
      trustProxy: environment.TRUST_PROXY,
      shutdownTimeoutMs: environment.SHUTDOWN_TIMEOUT_MS,
      headersTimeoutMs: environment.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: environment.HTTP_REQUEST_TIMEOUT_MS,
      bodies: bodiesWithDepth(definition.bodies?.(environment), environment.JSON_MAX_DEPTH),
      securityHeaders: {
        publicUrl: definition.publicUrl?.(environment),
        crossOriginResources: definition.crossOriginResources,
      },
      configure: definition.configure ? (app) => definition.configure?.(app, context) : undefined,
      httpAdapter: definition.httpAdapter,
    });
    const closeHttp = running.close.bind(running);
    return Object.assign(running, {
      logger,
      environment,
      close: async () => {
        await closeHttp();
        await runCleanups();
      },
    });
  } catch (error) {
    await runCleanups();
    throw error;
  }
}
