import { type ActivityBus } from '@fieldops/bus';
import { type ConversationStore } from '@fieldops/conversation-store';
import cors from 'cors';
import { HttpFront, type StartedService, startService, type StartServiceOptions } from '@fieldops/platform';
import { loadPlatformConfig, type PlatformConfig } from '@fieldops/platform-config';
import { relayJsonBody } from './activities/relay-json-body';
import { RelayGatewayEnvironment } from './config/relay-gateway.environment';
import { type BotDelivery } from './delivery/bot-delivery';
import { RelayGatewayModule } from './relay-gateway.module';
import { StreamService } from './stream/stream.service';

export interface StartRelayGatewayOptions extends StartServiceOptions {
  /** A bus owned by the caller (the all-in-one process shares one in-process bus between apps). */
  bus?: ActivityBus;
  /** A conversation store owned by the caller (shared between apps in one process). */
  store?: ConversationStore;
  /** Instead of reading the file named by PLATFORM_CONFIG. */
  platformConfig?: PlatformConfig;
  /** Instead of the direct HTTP delivery to the bot's messaging endpoint. */
  botDelivery?: BotDelivery;
}

/**
 * Browsers host Web Chat anywhere. A bot's (or token's) trusted origins are enforced by the auth guard, which also
 * withdraws Access-Control-Allow-Origin from its 403 for another origin. A preflight carries no credential, so it
 * cannot tell the bot: it is answered for any origin (docs/operate/security.md, CORS).
 */
const CORS: cors.CorsOptions = {
  origin: true,
  // Bearer-only: no cookies, so no Access-Control-Allow-Credentials (a credentialed read from any origin).
  credentials: false,
  methods: ['GET', 'POST', 'OPTIONS'],
  allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Requested-With', 'x-ms-bot-agent'],
  maxAge: 600,
};

/** Validates the configuration, then starts relay-gateway and returns once it listens. */
export function startRelayGateway(
  options: StartRelayGatewayOptions = {},
): Promise<StartedService<RelayGatewayEnvironment>> {
  return startService(
    {
      service: 'relay-gateway',
      environmentSchema: RelayGatewayEnvironment,
      port: (environment) => environment.RELAY_GATEWAY_PORT,
      publicUrl: (environment) => environment.RELAY_PUBLIC_URL,
      // Web Chat on another origin shows the uploads (contentUrl) as images.
      crossOriginResources: 'cross-origin',
      // Bodies are read after the auth guard: an unauthenticated request is refused unread.
      bodies: (environment) => ({ json: relayJsonBody(environment) }),
      module: ({ environment, variables, logger }) =>
        RelayGatewayModule.forRoot({
          environment,
          logger,
          bus: options.bus,
          store: options.store,
          botDelivery: options.botDelivery,
          platformConfig:
            options.platformConfig ??
            loadPlatformConfig(environment.PLATFORM_CONFIG, { environment: variables }),
        }),
      configure: (app) => {
        // The same CORS middleware as app.enableCors installs, for the framework's routes and the fast send alike.
        const corsMiddleware = cors(CORS);
        app.use(corsMiddleware);
        app.get(HttpFront).use(corsMiddleware);
        app.get(StreamService).attach(app.getHttpServer());
      },
    },
    { environment: options.environment, logger: options.logger },
  );
}
