import { randomUUID } from 'node:crypto';
import { type ActivityBus } from '@fieldops/bus';
import { type ConversationStore } from '@fieldops/conversation-store';
import { type StartedService, startService, type StartServiceOptions } from '@fieldops/platform';
import { loadPlatformConfig } from '@fieldops/platform-config';
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
}

/** Validates the configuration, then starts connector-gateway and returns once it listens. */
export function startConnectorGateway(
  options: StartConnectorGatewayOptions = {},
): Promise<StartedService<ConnectorGatewayEnvironment>> {
  const botsOf = (
    environment: ConnectorGatewayEnvironment,
    variables: NodeJS.ProcessEnv,
  ): readonly RegisteredBot[] => {
    if (options.bots) return options.bots;
    if (environment.PLATFORM_CONFIG === undefined) return [];
    return registeredBotsFromPlatformConfig(
      loadPlatformConfig(environment.PLATFORM_CONFIG, { environment: variables }),
    );
  };
  return startService(
    {
      service: 'connector-gateway',
      environmentSchema: ConnectorGatewayEnvironment,
      port: (environment) => environment.CONNECTOR_GATEWAY_PORT,
      module: ({ environment, variables, logger }) =>
        ConnectorGatewayModule.forRoot({
          environment,
          logger,
          bus: options.bus,
          store: options.store,
          bots: botsOf(environment, variables),
        }),
      configure: (app) => {
        // Every response carries an operation id, as the real Bot Connector's do.
        app.use(
          (
            _request: unknown,
            response: { setHeader(name: string, value: string): void },
            next: () => void,
          ) => {
            response.setHeader('X-Correlating-OperationId', randomUUID());
            next();
          },
        );
        // Above the 256 KB activity limit (413 MessageSizeTooBig from validation) and room for base64 uploads.
        app.useBodyParser('json', { limit: 8 * 1024 * 1024 });
      },
    },
    options,
  );
}
