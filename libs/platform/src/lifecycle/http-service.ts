import { type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { type Logger } from 'pino';
import { PinoNestLogger } from '../logging/pino-nest-logger';
import { requestLoggingMiddleware } from '../logging/request-logging.middleware';
import { HttpMetrics } from '../metrics/http-metrics';

export interface HttpServiceOptions {
  service: string;
  module: DynamicModule | Type<unknown>;
  logger: Logger;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Express `trust proxy` value: which proxies' X-Forwarded-* headers count. */
  trustProxy?: string;
  /** How long close() lets in-flight requests finish before cutting connections. */
  shutdownTimeoutMs: number;
  /** App-specific wiring after creation and before listening (extra middleware, WebSocket upgrade …). */
  configure?: (app: NestExpressApplication) => void | Promise<void>;
}

/** A listening service. close() is graceful: stop accepting, drain, then close sockets and pools. */
export interface RunningService {
  readonly service: string;
  readonly url: string;
  readonly port: number;
  readonly app: NestExpressApplication;
  close(): Promise<void>;
}

/** How long an idle keep-alive connection stays open. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

function trustProxySetting(value: string | undefined): boolean | number | string {
  if (value === undefined || ['', 'none', 'false'].includes(value.trim().toLowerCase())) return false;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  return value;
}

/** Creates, wires and starts one NestJS HTTP service the same way for every app. */
export async function startHttpService(options: HttpServiceOptions): Promise<RunningService> {
  const { service, logger } = options;
  const app = await NestFactory.create<NestExpressApplication>(options.module, {
    logger: new PinoNestLogger(logger.child({ component: 'nest' })),
    abortOnError: false,
  });
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(options.trustProxy));
  app.use(requestLoggingMiddleware(logger));
  app.use(app.get(HttpMetrics).middleware);
  await options.configure?.(app);

  let closing = false;
  const server: Server = app.getHttpServer();
  // Idle keep-alive connections outlive nginx's upstream keepalive_timeout (60 s), so the proxy (or any pooled
  // client) closes them first and never sends a request on a connection this server is closing (Node's default,
  // 5 s, makes such requests fail with a reset: a POST is then not retried and the client sees a 502).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  // While draining, tell keep-alive clients to go elsewhere for their next request.
  server.on('request', (_request, response: ServerResponse) => {
    if (closing) response.setHeader('Connection', 'close');
  });

  await app.listen(options.port, options.host);
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  const url = `http://${host}:${port}`;
  logger.info({ url }, `${service} listening`);

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      closing = true;
      logger.info('shutting down: draining in-flight requests');
      server.closeIdleConnections();
      const deadline = setTimeout(() => {
        logger.warn(
          { timeoutMs: options.shutdownTimeoutMs },
          'drain timed out; closing remaining connections',
        );
        server.closeAllConnections();
      }, options.shutdownTimeoutMs);
      try {
        await app.close();
      } finally {
        clearTimeout(deadline);
      }
      logger.info('stopped');
    })();
    return closed;
  };

  return { service, url, port, app, close };
}
