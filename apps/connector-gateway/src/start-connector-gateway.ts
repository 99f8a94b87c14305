import { type ActivityBus } from '@fieldops/bus';
import { type StartedService, startService, type StartServiceOptions } from '@fieldops/platform';
import { type RegisteredBot } from './bots/registered-bot';
import { ConnectorGatewayEnvironment } from './config/connector-gateway.environment';
import { ConnectorGatewayModule } from './connector-gateway.module';

export interface StartConnectorGatewayOptions extends StartServiceOptions {
  /** A bus owned by the caller (the all-in-one process shares one in-process bus between apps). */
  bus?: ActivityBus;
  /** The registered bots, validated at start-up (a ConfigurationError names each bad field). */
  bots?: readonly RegisteredBot[];
}

/** Validates the configuration, then starts connector-gateway and returns once it listens. */
export function startConnectorGateway(
  options: StartConnectorGatewayOptions = {},
): Promise<StartedService<ConnectorGatewayEnvironment>> {
  return startService(
    {
      service: 'connector-gateway',
      environmentSchema: ConnectorGatewayEnvironment,
      port: (environment) => environment.CONNECTOR_GATEWAY_PORT,
      module: ({ environment, logger }) =>
        ConnectorGatewayModule.forRoot({ environment, logger, bus: options.bus, bots: options.bots }),
    },
    options,
  );
}
