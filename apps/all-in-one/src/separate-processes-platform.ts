import { type ChildProcess, spawn } from 'node:child_process';
import { type Logger } from '@fieldops/platform';
import { launcherWiresDelivery, withInternalKey, withPlatformConfigDefault } from './all-in-one.environment';
import { InspectionApiClient } from '@fieldops/inspection-bot';
import { ownEnvironment } from './app-environment';
import { PLATFORM_APPS, type PlatformApp } from './app-selection';
import { chatChannelSettings } from './chat-channel-launch';
import {
  botSettingsFromPlatformConfig,
  inspectionBotEnvironment,
  seedDemoDataWhenReady,
} from './inspection-bot-launch';
import { withConsoleDirectory } from './console-launch';

const BOT = '@fieldops/inspection-bot';

export interface RunningProcesses {
  /** Resolves when every child has exited. */
  exited: Promise<void>;
  /** The process id of a running app's process (undefined when it is not running). */
  pid(app: PlatformApp): number | undefined;
  close(): Promise<void>;
}

/**
 * With DATABASE_URL and REDIS_URL set, each app runs as its own process (as in production, where any
 * number of copies run side by side). Signals are forwarded; if one app dies, the others are stopped.
 */
export function startSeparateProcesses(
  environment: NodeJS.ProcessEnv,
  logger: Logger,
  apps: ReadonlySet<PlatformApp> = new Set(PLATFORM_APPS),
): RunningProcesses {
  let stopping = false;
  const shared = withInternalKey(withPlatformConfigDefault(environment));
  const appEnvironment = launcherWiresDelivery(environment)
    ? { ...shared, RELAY_CONNECTOR_URL: `http://127.0.0.1:${environment.CONNECTOR_GATEWAY_PORT ?? '8020'}` }
    : shared;
  const local = (port: string | undefined, fallback: number): string =>
    `http://127.0.0.1:${port ?? fallback}`;
  const botSettings = apps.has('inspection-bot') ? botSettingsFromPlatformConfig(appEnvironment) : undefined;
  const environments = new Map<string, NodeJS.ProcessEnv>(
    [...apps]
      .filter((app) => app !== 'inspection-bot')
      .map((app) => [
        `@fieldops/${app}`,
        app === 'inspection-api' ? withConsoleDirectory(appEnvironment) : appEnvironment,
      ]),
  );
  if (botSettings) {
    const botEnvironment = inspectionBotEnvironment(appEnvironment, botSettings, {
      inspectionApi: local(environment.INSPECTION_API_PORT, 8000),
      relay: local(environment.RELAY_GATEWAY_PORT, 8010),
      connector: local(environment.CONNECTOR_GATEWAY_PORT, 8020),
    });
    environments.set(BOT, botEnvironment);
    // The bot's service account: inspection-api creates it at start-up unless another first user is configured
    // (then create it with the users CLI).
    if (!appEnvironment.INSPECTION_ADMIN_USERNAME) {
      environments.set('@fieldops/inspection-api', {
        ...withConsoleDirectory(appEnvironment),
        INSPECTION_ADMIN_USERNAME: botEnvironment.INSPECTION_BOT_API_USERNAME,
        INSPECTION_ADMIN_PASSWORD: botEnvironment.INSPECTION_BOT_API_PASSWORD,
      });
    }
  }
  // The chat channel on when the bundled bot runs beside inspection-api (proactive cards in the chat).
  const apiEnvironment = environments.get('@fieldops/inspection-api');
  const chatChannel =
    botSettings && apiEnvironment
      ? chatChannelSettings(appEnvironment, environment.INSPECTION_BOT_PORT ?? '3978')
      : undefined;
  if (chatChannel && apiEnvironment) {
    environments.set('@fieldops/inspection-api', { ...apiEnvironment, ...chatChannel.api });
    environments.set(BOT, { ...chatChannel.bot, ...environments.get(BOT) });
  }
  const children = new Map<string, ChildProcess>();
  const exits = [...environments].map(
    ([app, appEnvironmentOf]) =>
      new Promise<void>((resolve) => {
        // Each app gets only its own variables (not the other apps' secrets).
        const own = ownEnvironment(app.replace('@fieldops/', '') as PlatformApp, appEnvironmentOf);
        const child = spawn(process.execPath, [require.resolve(`${app}/dist/main.js`)], {
          env: own,
          stdio: 'inherit',
        });
        children.set(app, child);
        child.once('exit', (code, signal) => {
          children.delete(app);
          if (!stopping) {
            logger.error({ app, code, signal }, 'app exited unexpectedly; stopping the others');
            void stopAll();
            process.exitCode = 1;
          }
          resolve();
        });
      }),
  );
  const exited = Promise.all(exits).then(() => undefined);
  const botEnvironment = environments.get(BOT);
  if (botEnvironment) {
    void seedDemoDataWhenReady(
      new InspectionApiClient({
        baseUrl: botEnvironment.INSPECTION_API_URL ?? '',
        username: botEnvironment.INSPECTION_BOT_API_USERNAME ?? '',
        password: botEnvironment.INSPECTION_BOT_API_PASSWORD ?? '',
      }),
      logger,
      () => stopping,
    );
  }
  const stopAll = async (): Promise<void> => {
    stopping = true;
    for (const child of children.values()) child.kill('SIGTERM');
    await exited;
  };
  return { exited, pid: (app) => children.get(`@fieldops/${app}`)?.pid, close: stopAll };
}
