import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type Logger } from 'pino';
import { type Registry } from 'prom-client';
import { METRICS_CHALLENGE, type MetricsExposure } from './metrics-exposure';

export interface MetricsServerOptions {
  registry: Registry;
  exposure: MetricsExposure;
  host: string;
  port: number;
  logger: Logger;
  /** Connection timeouts, the same as the app port's. */
  applyTimeouts(server: Server): void;
}

export interface RunningMetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `/metrics` alone on a port of its own (`METRICS_PORT`), for a port that the Service, Ingress and proxy do not
 * expose. Plain text answers: 404 for any other path, 405 for other methods, 401 without the bearer token (when one
 * is configured).
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<RunningMetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const reply = (status: number, body: string, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(body);
    };
    if (path !== '/metrics') return reply(404, 'Not Found\n');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return reply(405, 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
    if (!options.exposure.authorizes(request.headers.authorization))
      return reply(401, 'Unauthorized\n', { 'WWW-Authenticate': METRICS_CHALLENGE });
    options.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'Content-Type': options.registry.contentType });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        options.logger.error({ err: error }, 'metrics could not be collected');
        reply(500, 'Internal Server Error\n');
      },
    );
  });
  options.applyTimeouts(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  const url = `http://${host}:${port}/metrics`;
  options.logger.info({ url }, 'metrics served on their own port');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A scrape is short; whatever is still open when the app has drained is cut.
        server.closeAllConnections();
      }),
  };
}
