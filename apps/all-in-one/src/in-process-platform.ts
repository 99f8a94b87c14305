import { createActivityBus } from '@fieldops/bus';
import { createConversationStore } from '@fieldops/conversation-store';
import { startConnectorGateway } from '@fieldops/connector-gateway';
import { startInspectionApi } from '@fieldops/inspection-api';
import { type Logger, type RunningService } from '@fieldops/platform';
import { startRelayGateway } from '@fieldops/relay-gateway';
import { launcherWiresDelivery, withInternalKey, withPlatformConfigDefault } from './all-in-one.environment';

export interface RunningPlatform {
  services: RunningService[];
  close(): Promise<void>;
}

/**
 * All three apps in this process, each on its own port, sharing one activity bus and one conversation store
 * (in-process unless REDIS_URL is set) — the embedded default behind `npm start`. The relay delivers to bots
 * through the connector.
 */
export async function startInProcessPlatform(
  givenEnvironment: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<RunningPlatform> {
  const environment = withInternalKey(withPlatformConfigDefault(givenEnvironment));
  const bus = createActivityBus({
    redisUrl: environment.REDIS_URL,
    logger: logger.child({ component: 'bus' }),
  });
  const store = createConversationStore({
    redisUrl: environment.REDIS_URL,
    keyPrefix: environment.STORE_KEY_PREFIX,
    retentionSeconds:
      environment.CONVERSATION_RETENTION_SECONDS === undefined
        ? undefined
        : Number(environment.CONVERSATION_RETENTION_SECONDS),
  });
  const services: RunningService[] = [];
  const close = async (): Promise<void> => {
    // Reverse start order: the gateways stop taking traffic before the API and its database go.
    for (const service of services.splice(0).reverse()) await service.close();
    await bus.close();
    await store.close();
  };
  try {
    services.push(await startInspectionApi({ environment }));
    // The connector first: the relay delivers through it.
    const connector = await startConnectorGateway({ environment, bus, store });
    services.push(connector);
    const relayEnvironment = launcherWiresDelivery(environment)
      ? { ...environment, RELAY_CONNECTOR_URL: connector.url }
      : environment;
    services.push(await startRelayGateway({ environment: relayEnvironment, bus, store }));
  } catch (error) {
    await close();
    throw error;
  }
  return { services, close };
}
