import { type ChildProcess, spawn } from 'node:child_process';
import { type Logger } from '@fieldops/platform';
import { launcherWiresDelivery, withInternalKey, withPlatformConfigDefault } from './all-in-one.environment';

const APPS = ['@fieldops/inspection-api', '@fieldops/relay-gateway', '@fieldops/connector-gateway'] as const;

export interface RunningProcesses {
  /** Resolves when every child has exited. */
  exited: Promise<void>;
  close(): Promise<void>;
}

/**
 * With DATABASE_URL and REDIS_URL set, each app runs as its own process (as in production, where any
 * number of copies run side by side). Signals are forwarded; if one app dies, the others are stopped.
 */
export function startSeparateProcesses(environment: NodeJS.ProcessEnv, logger: Logger): RunningProcesses {
  let stopping = false;
  const shared = withInternalKey(withPlatformConfigDefault(environment));
  const appEnvironment = launcherWiresDelivery(environment)
    ? { ...shared, RELAY_CONNECTOR_URL: `http://127.0.0.1:${environment.CONNECTOR_GATEWAY_PORT ?? '8020'}` }
    : shared;
  const children = new Map<string, ChildProcess>();
  const exits = APPS.map(
    (app) =>
      new Promise<void>((resolve) => {
        const child = spawn(process.execPath, [require.resolve(`${app}/dist/main.js`)], {
          env: appEnvironment,
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
  const stopAll = async (): Promise<void> => {
    stopping = true;
    for (const child of children.values()) child.kill('SIGTERM');
    await exited;
  };
  return { exited, close: stopAll };
}
