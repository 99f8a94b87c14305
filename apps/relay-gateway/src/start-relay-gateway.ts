import { type ActivityBus } from '@fieldops/bus';
import { type StartedService, startService, type StartServiceOptions } from '@fieldops/platform';
import { RelayGatewayEnvironment } from './config/relay-gateway.environment';
import { RelayGatewayModule } from './relay-gateway.module';

export interface StartRelayGatewayOptions extends StartServiceOptions {
  /** A bus owned by the caller (the all-in-one process shares one in-process bus between apps). */
  bus?: ActivityBus;
}

/** Validates the configuration, then starts relay-gateway and returns once it listens. */
export function startRelayGateway(
  options: StartRelayGatewayOptions = {},
): Promise<StartedService<RelayGatewayEnvironment>> {
  return startService(
    {
      service: 'relay-gateway',
      environmentSchema: RelayGatewayEnvironment,
      port: (environment) => environment.RELAY_GATEWAY_PORT,
      module: ({ environment, logger }) =>
        RelayGatewayModule.forRoot({ environment, logger, bus: options.bus }),
    },
    options,
  );
}
