import { createActivityBus } from '@fieldops/bus';
import { createConversationStore } from '@fieldops/conversation-store';
import { startConnectorGateway } from '@fieldops/connector-gateway';
import { startInspectionApi, UsersService } from '@fieldops/inspection-api';
import { InspectionApiClient, seedDemoInspectionData, startInspectionBot } from '@fieldops/inspection-bot';
import { freePort, type Logger, type RunningService } from '@fieldops/platform';
import { startRelayGateway } from '@fieldops/relay-gateway';
import { launcherWiresDelivery, withInternalKey, withPlatformConfigDefault } from './all-in-one.environment';
import { PLATFORM_APPS, type PlatformApp } from './app-selection';
import { chatChannelSettings } from './chat-channel-launch';
import { InProcessConnectorDelivery } from './in-process-delivery';
import {
  consoleSupervisorAccount,
  type SupervisorAccount,
  withConsoleDirectory,
  withFirstUser,
} from './console-launch';
import {
  botSettingsFromPlatformConfig,
  type DemoInspector,
  demoInspectorAccount,
  inspectionBotEnvironment,
  inspectionBotPlatformId,
} from './inspection-bot-launch';

export interface RunningPlatform {
  services: RunningService[];
  /** The inspection bot's chat page, when the platform configuration has the bot. */
  chatPageUrl?: string;
  /** Whether inspection-api hands chat notifications to the bundled bot (proactive cards in the chat). */
  chatChannel?: boolean;
  /** The demo inspector to sign in on the chat page with. */
  inspector?: DemoInspector;
  /** Where inspection-api's data lives, as the banner says it (the embedded server's directory, or DATABASE_URL); undefined without inspection-api. */
  database?: string;
  /** The supervisor console on inspection-api's origin, and the demo supervisor to sign in with (when built). */
  console?: { url: string; supervisor: SupervisorAccount };
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
 * The apps (all four by default) in this process, each on its own port, sharing one activity bus and one
 * conversation store (in-process unless REDIS_URL is set) — the embedded default behind `npm start`. The relay
 * delivers to bots through the connector. Without inspection-api among `apps`, no PostgreSQL is started.
 */
export async function startInProcessPlatform(
  givenEnvironment: NodeJS.ProcessEnv,
  logger: Logger,
  apps: ReadonlySet<PlatformApp> = new Set(PLATFORM_APPS),
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
    maxUploadBytes:
      environment.STORE_MAX_UPLOAD_BYTES === undefined
        ? undefined
        : Number(environment.STORE_MAX_UPLOAD_BYTES),
    replicaAcks:
      environment.STORE_REPLICA_ACKS === undefined ? undefined : Number(environment.STORE_REPLICA_ACKS),
    replicaAckTimeoutMs:
      environment.STORE_REPLICA_ACK_TIMEOUT_MS === undefined
        ? undefined
        : Number(environment.STORE_REPLICA_ACK_TIMEOUT_MS),
  });
  const services: RunningService[] = [];
  const close = async (): Promise<void> => {
    // Reverse start order: the gateways stop taking traffic before the API and its database go.
    for (const service of services.splice(0).reverse()) await service.close();
    await bus.close();
    await store.close();
  };
  let chatPageUrl: string | undefined;
  let inspector: DemoInspector | undefined;
  let database: string | undefined;
  let supervisorConsole: RunningPlatform['console'];
  // The chat channel on when the bundled bot runs beside inspection-api (proactive cards in the chat).
  const chatChannel =
    PLATFORM_APPS.every((app) => apps.has(app)) && botSettingsFromPlatformConfig(environment)
      ? chatChannelSettings(environment, environment.INSPECTION_BOT_PORT ?? '3978')
      : undefined;
  try {
    let inspectionApi: Awaited<ReturnType<typeof startInspectionApi>> | undefined;
    if (apps.has('inspection-api')) {
      const apiEnvironment = withConsoleDirectory(environment);
      // The demo supervisor (created once; an existing account is left as it is), with the console only.
      const supervisor = apiEnvironment.INSPECTION_CONSOLE_DIR
        ? consoleSupervisorAccount(environment)
        : undefined;
      inspectionApi = await startInspectionApi({
        environment: withFirstUser({ ...apiEnvironment, ...chatChannel?.api }, supervisor),
      });
      services.push(inspectionApi);
      const { DATABASE_URL, EMBEDDED_POSTGRES_DIR, EMBEDDED_POSTGRES_PORT } = inspectionApi.environment;
      database = DATABASE_URL
        ? 'PostgreSQL from DATABASE_URL'
        : `embedded PostgreSQL in ${EMBEDDED_POSTGRES_DIR} (port ${EMBEDDED_POSTGRES_PORT})`;
      if (supervisor) {
        // Made at start as the first user, unless the operator named another one.
        await inspectionApi.app
          .get(UsersService)
          .ensureUser(supervisor.username, supervisor.password, 'supervisor');
        supervisorConsole = { url: `${inspectionApi.url}/console/`, supervisor };
      } else {
        logger.warn(
          'the supervisor console is not built (npm run build): inspection-api serves no /console/',
        );
      }
    }
    // The connector first: the relay delivers through it.
    let connector: RunningService | undefined;
    if (apps.has('connector-gateway')) {
      connector = await startConnectorGateway({ environment, bus, store });
      services.push(connector);
    }
    let relay: RunningService | undefined;
    if (apps.has('relay-gateway')) {
      // Without a connector in this process, the relay delivers to (and bots reply to) CONNECTOR_GATEWAY_PORT's.
      const connectorUrl =
        connector?.url ?? `http://127.0.0.1:${environment.CONNECTOR_GATEWAY_PORT ?? '8020'}`;
      // With the connector beside it, the relay hands activities to it directly (no HTTP hop); without, over HTTP.
      const inProcessDelivery =
        connector && launcherWiresDelivery(environment)
          ? new InProcessConnectorDelivery(connector)
          : undefined;
      const relayEnvironment = {
        ...environment,
        ...(launcherWiresDelivery(environment) && !connector && { RELAY_CONNECTOR_URL: connectorUrl }),
        // Bots reply to the serviceUrl: the connector's actual address unless one is configured.
        ...(connector &&
          !environment.RELAY_BOT_SERVICE_URL &&
          !environment.CONNECTOR_PUBLIC_URL && { RELAY_BOT_SERVICE_URL: `${connector.url}/` }),
      };
      relay = await startRelayGateway({
        environment: relayEnvironment,
        bus,
        store,
        botDelivery: inProcessDelivery,
      });
      services.push(relay);
    }
    const botSettings = apps.has('inspection-bot') ? botSettingsFromPlatformConfig(environment) : undefined;
    if (botSettings && inspectionApi && relay && connector) {
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
      // The demo inspector (created on the first start; its password generated once and kept under .data).
      inspector = demoInspectorAccount(environment);
      await inspectionApi.app
        .get(UsersService)
        .ensureUser(inspector.username, inspector.password, 'inspector');
      const bot = await startInspectionBot({ environment: { ...chatChannel?.bot, ...botEnvironment } });
      services.push(bot);
      chatPageUrl = bot.environment.INSPECTION_BOT_PUBLIC_URL ?? bot.url;
      const client = new InspectionApiClient({ baseUrl: loopbackUrl(inspectionApi), username, password });
      if (await seedDemoInspectionData(client))
        logger.info('no devices yet: created the demo devices, items and plans');
    } else if (apps.has('inspection-bot')) {
      logger.warn(
        { bot: inspectionBotPlatformId(environment) },
        'the platform configuration has no such bot: the inspection bot is not started',
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    services,
    chatPageUrl,
    chatChannel: Boolean(chatChannel && chatPageUrl),
    inspector,
    database,
    console: supervisorConsole,
    close,
  };
}
