import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type Server as HttpsServer } from 'node:https';
import { type AddressInfo } from 'node:net';
import { type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { type Application } from 'express';
import { type Logger } from 'pino';
import { HttpFront } from '../http/http-front';
import { BodyParsingInterceptor, type BodyParsingOptions } from '../input/body-parsing.interceptor';
import { PinoNestLogger } from '../logging/pino-nest-logger';
import { requestLoggingMiddleware } from '../logging/request-logging.middleware';
import { Registry } from 'prom-client';
import { HttpMetrics } from '../metrics/http-metrics';
import { MetricsExposure, type MetricsExposureOptions } from '../metrics/metrics-exposure';
import { type RunningMetricsServer, startMetricsServer } from '../metrics/metrics-server';
import {
  securityHeaderList,
  type SecurityHeadersOptions,
  securityHeadersMiddleware,
} from '../security/security-headers';

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
  /** How long a client may take to send a request's headers (default HEADERS_TIMEOUT_MS). */
  headersTimeoutMs?: number;
  /** How long a client may take to send a whole request, headers and body (default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /**
   * The bodies the service parses, once a request has passed its guards (BodyParsingInterceptor). Unset: Nest's
   * parsers (or the app's own middleware) read bodies before routing.
   */
  bodies?: BodyParsingOptions;
  /** HSTS (https public URL) and the Cross-Origin-Resource-Policy of the security headers. */
  securityHeaders?: SecurityHeadersOptions;
  /** How `/metrics` is exposed (default: open, on the app port). */
  metrics?: MetricsExposureOptions;
  /** App-specific wiring after creation and before listening (extra middleware, WebSocket upgrade …). */
  configure?: (app: NestExpressApplication) => void | Promise<void>;
  /** The Express adapter, when the app replies its own way (inspection-api's DRF renderer); Nest's otherwise. */
  httpAdapter?: () => ExpressAdapter;
}

/** A listening service. close() is graceful: stop accepting, drain, then close sockets and pools. */
export interface RunningService {
  readonly service: string;
  readonly url: string;
  readonly port: number;
  readonly app: NestExpressApplication;
  /** `/metrics` on its own port, when one is configured (`METRICS_PORT`). */
  readonly metricsUrl?: string;
  /** The server's request listener (the hot routes, then Express), for another listener of the same app (TLS). */
  readonly requestListener: (request: IncomingMessage, response: ServerResponse) => void;
  close(): Promise<void>;
}

/** How long an idle keep-alive connection stays open. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** How long a client may take to send a request's headers (a slow-headers client is cut off after it). */
export const HEADERS_TIMEOUT_MS = 20_000;

/** How long a client may take to send a whole request, its body included (a trickled body is cut off after it). */
export const REQUEST_TIMEOUT_MS = 60_000;

/**
 * How often Node checks connections against the headers and request deadlines: a quarter of the shorter (at most
 * 5 s), so a slow connection is closed within 1.25× its deadline (Node's default check interval is 30 s).
 */
export function connectionsCheckingIntervalMs(
  headersTimeoutMs: number,
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
): number {
  return Math.max(100, Math.min(5_000, Math.floor(Math.min(headersTimeoutMs, requestTimeoutMs) / 4)));
}

/**
 * The connection timeouts of every listener (HTTP, and the connector's TLS one). Idle keep-alive connections outlive
 * nginx's upstream keepalive_timeout (60 s), so the proxy (or any pooled client) closes them first and never sends a
 * request on a connection this server is closing (Node's default, 5 s, makes such requests fail with a reset: a POST
 * is then not retried and the client sees a 502). The headers deadline runs from a request's first byte (an idle
 * keep-alive connection has no request yet), so it can be far shorter: a client that trickles its headers gets 408
 * and is cut off after it. The request deadline covers the whole request, body included (Node's `requestTimeout`,
 * 300 s by default): a client that trickles its body gets 408 (or, once an answer has started, the connection is
 * closed). Call before the server listens (Node reads the checking interval then).
 */
export function applyConnectionTimeouts(
  server: Server | HttpsServer,
  headersTimeoutMs: number,
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = Math.max(requestTimeoutMs, headersTimeoutMs);
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    connectionsCheckingIntervalMs(headersTimeoutMs, requestTimeoutMs);
}

function trustProxySetting(value: string | undefined): boolean | number | string {
  if (value === undefined || ['', 'none', 'false'].includes(value.trim().toLowerCase())) return false;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  return value;
}

/** Creates, wires and starts one NestJS HTTP service the same way for every app. */
export async function startHttpService(options: HttpServiceOptions): Promise<RunningService> {
  const { service, logger } = options;
  const nestOptions = {
    logger: new PinoNestLogger(logger.child({ component: 'nest' })),
    abortOnError: false,
    bodyParser: options.bodies === undefined,
  };
  const app = options.httpAdapter
    ? await NestFactory.create<NestExpressApplication>(options.module, options.httpAdapter(), nestOptions)
    : await NestFactory.create<NestExpressApplication>(options.module, nestOptions);
  if (options.bodies) app.useGlobalInterceptors(new BodyParsingInterceptor(options.bodies));
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(options.trustProxy));
  const front = app.get(HttpFront);
  // The front gives its fast routes what these give every request: the same security headers, request id, access
  // line and metrics.
  for (const middleware of [
    securityHeadersMiddleware(options.securityHeaders),
    requestLoggingMiddleware(logger),
    app.get(HttpMetrics).middleware,
  ]) {
    app.use(middleware);
    front.model(middleware);
  }
  front.setHeaders(securityHeaderList(options.securityHeaders));
  const metrics = options.metrics ?? {};
  app.get(MetricsExposure).configure(metrics);
  await options.configure?.(app);
  // The routes exist once the app is initialised: the front compiles its fast routes from their metadata (or fails).
  await app.init();
  try {
    front.compile(app);
  } catch (error) {
    await app.close();
    throw error;
  }

  let closing = false;
  const server: Server = app.getHttpServer();
  const headersTimeoutMs = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  applyConnectionTimeouts(server, headersTimeoutMs, requestTimeoutMs);
  // The front answers the hot routes and hands the rest to Express (the listener Nest registered).
  const express = app.getHttpAdapter().getInstance() as Application;
  const serve = front.listener(express);
  const requestListener = (request: IncomingMessage, response: ServerResponse): void => {
    // While draining, tell keep-alive clients to go elsewhere for their next request.
    if (closing) response.setHeader('Connection', 'close');
    serve(request, response);
  };
  if (!server.listeners('request').includes(express))
    throw new Error(
      `${service}: the HTTP server does not serve the Express app; the front cannot be installed`,
    );
  server.removeListener('request', express);
  server.on('request', requestListener);

  await app.listen(options.port, options.host);
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  const url = `http://${host}:${port}`;
  logger.info({ url }, `${service} listening`);

  let metricsServer: RunningMetricsServer | undefined;
  if (metrics.port !== undefined) {
    const metricsPort = metrics.port;
    metricsServer = await startMetricsServer({
      registry: app.get(Registry),
      exposure: app.get(MetricsExposure),
      host: options.host,
      port: metricsPort,
      logger,
      applyTimeouts: (metricsHttp) =>
        applyConnectionTimeouts(metricsHttp, headersTimeoutMs, requestTimeoutMs),
    }).catch(async (error: unknown) => {
      await app.close();
      throw error;
    });
  }

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
        // Scraped until the app has drained.
        await metricsServer?.close();
      }
      logger.info('stopped');
    })();
    return closed;
  };

  return {
    service,
    url,
    port,
    app,
    ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
    requestListener,
    close,
  };
}
