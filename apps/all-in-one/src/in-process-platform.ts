import { createActivityBus } from '@fieldops/bus';
import { startConnectorGateway } from '@fieldops/connector-gateway';
import { startInspectionApi } from '@fieldops/inspection-api';
import { type Logger, type RunningService } from '@fieldops/platform';
import { startRelayGateway } from '@fieldops/relay-gateway';
import { withPlatformConfigDefault } from './all-in-one.environment';

export interface RunningPlatform {
  services: RunningService[];
  close(): Promise<void>;
}

/**
 * All three apps in this process, each on its own port, sharing one activity bus (in-process unless
 * REDIS_URL is set) — the embedded default behind `npm start`.
 */
export async function startInProcessPlatform(
  givenEnvironment: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<RunningPlatform> {
  const environment = withPlatformConfigDefault(givenEnvironment);
  const bus = createActivityBus({
    redisUrl: environment.REDIS_URL,
    logger: logger.child({ component: 'bus' }),
  });
  const services: RunningService[] = [];
  const close = async (): Promise<void> => {
    // Reverse start order: the gateways stop taking traffic before the API and its database go.
    for (const service of services.splice(0).reverse()) await service.close();
    await bus.close();
  };
  try {
    services.push(await startInspectionApi({ environment }));
    const gateways = await Promise.allSettled([
      startRelayGateway({ environment, bus }),
      startConnectorGateway({ environment, bus }),
    ]);
    for (const gateway of gateways) if (gateway.status === 'fulfilled') services.push(gateway.value);
    const failed = gateways.find(
      (gateway): gateway is PromiseRejectedResult => gateway.status === 'rejected',
    );
    if (failed) throw failed.reason;
  } catch (error) {
    await close();
    throw error;
  }
  return { services, close };
}
