import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Expose } from 'class-transformer';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { ConfigurationError, LOG_LEVELS, type LogLevel, repositoryRoot } from '@fieldops/platform';
import { passwordKeptIn } from './generated-password';

/** What the launcher itself reads; every app validates its own variables on start. */
export class AllInOneEnvironment {
  /** The launcher's log level, passed on to every app. */
  @Expose() @IsIn(LOG_LEVELS) LOG_LEVEL: LogLevel = 'info';

  /** inspection-api's PostgreSQL (passed on); unset: the launcher starts the embedded PostgreSQL. */
  @Expose() @IsOptional() @IsString() DATABASE_URL?: string;

  /**
   * Redis for the apps (passed on). Set (with DATABASE_URL when inspection-api runs): each app runs as its own
   * process. Unset: the apps share one process and an in-process bus.
   */
  @Expose() @IsOptional() @IsString() REDIS_URL?: string;

  /** The apps to start (comma-separated; `--apps` wins); unset: all four. */
  @Expose() @IsOptional() @IsString() PLATFORM_APPS?: string;

  /** Read here only to refuse one metrics port for several apps (each app validates it). */
  @Expose() @IsOptional() @IsString() METRICS_PORT?: string;
}

/**
 * METRICS_PORT gives one app a metrics port of its own; the launcher runs several apps with one environment, so it
 * is refused unless one app is started (METRICS_BEARER_TOKEN protects `/metrics` on every app port instead).
 */
export function checkMetricsPort(environment: AllInOneEnvironment, apps: ReadonlySet<string>): void {
  if (environment.METRICS_PORT === undefined || apps.size <= 1) return;
  throw new ConfigurationError('all-in-one', [
    `METRICS_PORT: one port cannot serve the metrics of ${apps.size} apps; unset it (and set METRICS_BEARER_TOKEN ` +
      'to protect /metrics on each app port), or start one app per launcher (--apps)',
  ]);
}

/** The example platform configuration (a demo bot) used when PLATFORM_CONFIG is unset. */
export const EXAMPLE_PLATFORM_CONFIG = resolve(__dirname, '../../../infra/config/platform.example.yaml');

/**
 * The secrets the example platform configuration reads from the environment (`${NAME:-published value}`); the apps
 * refuse the published fallbacks outside tests, so the launcher generates each unset one.
 */
export const EXAMPLE_CONFIG_SECRET_VARIABLES = [
  'INSPECTION_BOT_APP_PASSWORD',
  'INSPECTION_BOT_DIRECTLINE_SECRET_1',
  'INSPECTION_BOT_DIRECTLINE_SECRET_2',
  'DEMO_TRANSLATOR_KEY_1',
  'DEMO_TRANSLATOR_KEY_2',
] as const;

/** Where the embedded default keeps the example configuration's generated secrets (one file each, mode 0600). */
export const GENERATED_SECRETS_DIRECTORY = join(repositoryRoot(__dirname), '.data', 'platform');

/**
 * The environment handed to the apps: PLATFORM_CONFIG defaults to the example file, whose secrets (unless given)
 * are generated once and kept in `directory`, like the demo accounts' passwords.
 */
export function withPlatformConfigDefault(
  environment: NodeJS.ProcessEnv,
  directory = GENERATED_SECRETS_DIRECTORY,
): NodeJS.ProcessEnv {
  if (environment.PLATFORM_CONFIG) return environment;
  const generated: NodeJS.ProcessEnv = {};
  for (const name of EXAMPLE_CONFIG_SECRET_VARIABLES) {
    if (!environment[name])
      generated[name] = passwordKeptIn(join(directory, name.toLowerCase().replaceAll('_', '-')));
  }
  return { ...environment, ...generated, PLATFORM_CONFIG: EXAMPLE_PLATFORM_CONFIG };
}

/** Whether the relay delivers through the connector with launcher-made settings (not `direct`, no URL given). */
export function launcherWiresDelivery(environment: NodeJS.ProcessEnv): boolean {
  return environment.RELAY_BOT_DELIVERY !== 'direct' && !environment.RELAY_CONNECTOR_URL;
}

/**
 * Relay → connector deliveries on one machine: unless configured otherwise, a random internal key shared by the
 * two gateways (the relay's connector URL is added once the connector's address is known).
 */
export function withInternalKey(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!launcherWiresDelivery(environment)) return environment;
  const key = environment.CONNECTOR_INTERNAL_KEY ?? randomBytes(32).toString('base64url');
  return {
    ...environment,
    CONNECTOR_INTERNAL_KEY: key,
    RELAY_CONNECTOR_KEY: environment.RELAY_CONNECTOR_KEY ?? key,
  };
}
