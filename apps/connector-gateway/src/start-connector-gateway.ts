import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server as HttpsServer } from 'node:https';
import { type AddressInfo } from 'node:net';
import { type ActivityBus } from '@fieldops/bus';
import { type ConversationStore } from '@fieldops/conversation-store';
import {
  applyConnectionTimeouts,
  type HeaderMiddleware,
  HttpFront,
  type StartedService,
  startService,
  type JsonBodyOptions,
  type StartServiceOptions,
} from '@fieldops/platform';
import { type AiServicesConfig, loadPlatformConfig, type PlatformConfig } from '@fieldops/platform-config';
import { registeredBotsFromPlatformConfig } from './bots/platform-bots';
import { type RegisteredBot } from './bots/registered-bot';
import { ConnectorGatewayEnvironment } from './config/connector-gateway.environment';
import { ConnectorGatewayModule } from './connector-gateway.module';

export interface StartConnectorGatewayOptions extends StartServiceOptions {
  /** A bus owned by the caller (the all-in-one process shares one in-process bus between apps). */
  bus?: ActivityBus;
  /** A conversation store owned by the caller (shared between apps in one process). */
  store?: ConversationStore;
  /**
   * The registered bots, validated at start-up (a ConfigurationError names each bad field). Wins over the
   * file named by PLATFORM_CONFIG (tests); without either, no bot is registered.
   */
  bots?: readonly RegisteredBot[];
  /** The AI-services configuration (tests); wins over the `aiServices` section of PLATFORM_CONFIG's file. */
  aiServices?: AiServicesConfig;
}

/** A started connector-gateway; `httpsUrl` is set when CONNECTOR_HTTPS_PORT is. */
export type StartedConnectorGateway = StartedService<ConnectorGatewayEnvironment> & {
  httpsUrl?: string;
  httpsPort?: number;
};

/**
 * How the connector reads JSON bodies, on the framework's routes and on the send route alike: above the 256 KB
 * activity limit (413 MessageSizeTooBig from validation) with room for base64 uploads; nesting up to JSON_MAX_DEPTH;
 * no `\u0000` (it would be stored and handed to every channel).
 */
function connectorJsonBody(environment: ConnectorGatewayEnvironment): JsonBodyOptions {
  return { limit: 8 * 1024 * 1024, maxDepth: environment.JSON_MAX_DEPTH, refuseNul: true };
}

/** Validates the configuration, then starts connector-gateway and returns once it listens. */
export async function startConnectorGateway(
  options: StartConnectorGatewayOptions = {},
): Promise<StartedConnectorGateway> {
  let platformConfig: PlatformConfig | undefined;
  const platformConfigOf = (
    environment: ConnectorGatewayEnvironment,
    variables: NodeJS.ProcessEnv,
  ): PlatformConfig | undefined => {
    if (environment.PLATFORM_CONFIG === undefined) return undefined;
    platformConfig ??= loadPlatformConfig(environment.PLATFORM_CONFIG, { environment: variables });
    return platformConfig;
  };
  const botsOf = (
    environment: ConnectorGatewayEnvironment,
    variables: NodeJS.ProcessEnv,
  ): readonly RegisteredBot[] => {
    if (options.bots) return options.bots;
    const config = platformConfigOf(environment, variables);
    return config ? registeredBotsFromPlatformConfig(config) : [];
  };
  const running = await startService(
    {
      service: 'connector-gateway',
      environmentSchema: ConnectorGatewayEnvironment,
      port: (environment) => environment.CONNECTOR_GATEWAY_PORT,
      publicUrl: (environment) => environment.CONNECTOR_PUBLIC_URL,
      // Attachments bots upload here are shown by Web Chat on other origins.
      crossOriginResources: 'cross-origin',
      // Bodies are read after the guards (a request without a valid bot token is refused unread); forms: the OAuth
      // token endpoint.
      bodies: (environment) => ({
        json: connectorJsonBody(environment),
        urlencoded: { limit: 100 * 1024 },
      }),
      module: ({ environment, variables, logger }) =>
        ConnectorGatewayModule.forRoot({
          environment,
          logger,
          bus: options.bus,
          store: options.store,
          bots: botsOf(environment, variables),
          aiServices: options.aiServices ?? platformConfigOf(environment, variables)?.aiServices,
        }),
      configure: (app) => {
        // The Bot Connector service sends no ETag: its answers are not revalidated (Express would hash every body).
        app.set('etag', false);
        // Every response carries an operation id, as the real Bot Connector's do: the framework's and the fast routes'.
        const operationId: HeaderMiddleware = (_request, response, next) => {
          response.setHeader('X-Correlating-OperationId', randomUUID());
          next();
        };
        app.use(operationId);
        app.get(HttpFront).use(operationId);
      },
    },
    options,
  );
  return serveHttpsToo(running);
}

/**
 * With CONNECTOR_HTTPS_PORT, the same app also listens over TLS (certificate and key from
 * CONNECTOR_TLS_CERT_FILE / CONNECTOR_TLS_KEY_FILE); close() closes both listeners.
 */
async function serveHttpsToo(
  running: StartedService<ConnectorGatewayEnvironment>,
): Promise<StartedConnectorGateway> {
  const { environment, logger } = running;
  const port = environment.CONNECTOR_HTTPS_PORT;
  if (port === undefined || !environment.CONNECTOR_TLS_CERT_FILE || !environment.CONNECTOR_TLS_KEY_FILE)
    return running;
  let server: HttpsServer;
  try {
    server = createServer(
      {
        cert: readFileSync(environment.CONNECTOR_TLS_CERT_FILE),
        key: readFileSync(environment.CONNECTOR_TLS_KEY_FILE),
      },
      running.requestListener,
    );
    applyConnectionTimeouts(server, environment.HTTP_HEADERS_TIMEOUT_MS, environment.HTTP_REQUEST_TIMEOUT_MS);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, environment.HOST, () => resolve());
    });
  } catch (error) {
    await running.close();
    throw error;
  }
  const { port: httpsPort } = server.address() as AddressInfo;
  const host = ['0.0.0.0', '::'].includes(environment.HOST) ? 'localhost' : environment.HOST;
  const httpsUrl = `https://${host}:${httpsPort}`;
  logger.info({ url: httpsUrl }, 'connector-gateway listening (TLS)');
  const closeHttp = running.close.bind(running);
  return Object.assign(running, {
    httpsUrl,
    httpsPort,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = setTimeout(() => server.closeAllConnections(), environment.SHUTDOWN_TIMEOUT_MS);
      await closeHttp();
      await closed;
      clearTimeout(deadline);
    },
  });
}
