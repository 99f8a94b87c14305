import { createActivityBus } from '@fieldops/bus';
import { createConversationStore } from '@fieldops/conversation-store';
import { startConnectorGateway } from '@fieldops/connector-gateway';
import { startInspectionApi, UsersService } from '@fieldops/inspection-api';
import { InspectionApiClient, seedDemoInspectionData, startInspectionBot } from '@fieldops/inspection-bot';
import { freePort, type Logger, type RunningService } from '@fieldops/platform';
import { startRelayGateway } from '@fieldops/relay-gateway';
import { launcherWiresDelivery, withInternalKey, withPlatformConfigDefault } from './all-in-one.environment';
import {
  botSettingsFromPlatformConfig,
  inspectionBotEnvironment,
  inspectionBotPlatformId,
} from './inspection-bot-launch';

export interface RunningPlatform {
  services: RunningService[];
  /** The inspection bot's chat page, when the platform configuration has the bot. */
  chatPageUrl?: string;
  /** Where inspection-api's data lives, as the banner says it: the embedded server's directory, or DATABASE_URL. */
  database: string;
  close(): Promise<void>;
}

/**
 * INSPECTION_BOT_PORT=0 (any free port): the bot starts after the gateways, which must already know its messaging
 * endpoint (the platform configuration follows INSPECTION_BOT_PORT), so the port is chosen here, up front.
 */
async function withBotPortChosen(environment: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  if (environment.INSPECTION_BOT_PORT !== '0') return environment;
  return { ...environment, INSPECTION_BOT_PORT: String(await freePort()) };
}

/** A service's URL for calls from this machine (a wildcard bind is reached on the IPv4 loopback). */
function loopbackUrl(service: RunningService): string {
  return service.url.replace('//localhost:', '//127.0.0.1:');
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
  const environment = await withBotPortChosen(withInternalKey(withPlatformConfigDefault(givenEnvironment)));
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
  let chatPageUrl: string | undefined;
  let database = 'PostgreSQL from DATABASE_URL';
  try {
    const inspectionApi = await startInspectionApi({ environment });
    services.push(inspectionApi);
    if (!inspectionApi.environment.DATABASE_URL) {
      const { EMBEDDED_POSTGRES_DIR, EMBEDDED_POSTGRES_PORT } = inspectionApi.environment;
      database = `embedded PostgreSQL in ${EMBEDDED_POSTGRES_DIR} (port ${EMBEDDED_POSTGRES_PORT})`;
    }
    // The connector first: the relay delivers through it.
    const connector = await startConnectorGateway({ environment, bus, store });
    services.push(connector);
    const relayEnvironment = {
      ...environment,
      ...(launcherWiresDelivery(environment) && { RELAY_CONNECTOR_URL: connector.url }),
      // Bots reply to the serviceUrl: the connector's actual address unless one is configured.
      ...(!environment.RELAY_BOT_SERVICE_URL &&
        !environment.CONNECTOR_PUBLIC_URL && { RELAY_BOT_SERVICE_URL: `${connector.url}/` }),
    };
    const relay = await startRelayGateway({ environment: relayEnvironment, bus, store });
    services.push(relay);
    const botSettings = botSettingsFromPlatformConfig(environment);
    if (botSettings) {
      const botEnvironment = inspectionBotEnvironment(environment, botSettings, {
        inspectionApi: loopbackUrl(inspectionApi),
        relay: loopbackUrl(relay),
        relayPublic: relay.url,
        connector: loopbackUrl(connector),
      });
      const username = botEnvironment.INSPECTION_BOT_API_USERNAME ?? '';
      const password = botEnvironment.INSPECTION_BOT_API_PASSWORD ?? '';
      // The bot's service account in inspection-api (created once; an existing account is left as it is).
      await inspectionApi.app.get(UsersService).ensureUser(username, password);
      const bot = await startInspectionBot({ environment: botEnvironment });
      services.push(bot);
      chatPageUrl = bot.environment.INSPECTION_BOT_PUBLIC_URL ?? bot.url;
      const client = new InspectionApiClient({ baseUrl: loopbackUrl(inspectionApi), username, password });
      if (await seedDemoInspectionData(client))
        logger.info('no devices yet: created the demo devices, items and plans');
    } else {
      logger.warn(
        { bot: inspectionBotPlatformId(environment) },
        'the platform configuration has no such bot: the inspection bot is not started',
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { services, chatPageUrl, database, close };
}
