import { join } from 'node:path';
import { type InspectionApiClient, seedDemoInspectionData } from '@fieldops/inspection-bot';
import { type Logger, repositoryRoot } from '@fieldops/platform';
import { channelTokenIssuerOf, findBot, loadPlatformConfig } from '@fieldops/platform-config';
import { passwordKeptIn } from './generated-password';

/** The platform bot id of the inspection bot in the platform configuration (`INSPECTION_BOT_PLATFORM_ID`). */
export function inspectionBotPlatformId(environment: NodeJS.ProcessEnv): string {
  return environment.INSPECTION_BOT_PLATFORM_ID ?? 'inspection-bot';
}

/**
 * The bot's credentials as the platform configuration registers them (app id, clear password, first Direct Line
 * secret), the `iss` connector-gateway gives its tokens (per bot: `sdk`, `channelTokenIssuer`, else
 * CONNECTOR_BOT_TOKEN_ISSUER) and the keys of the AI resource it translates with (the first `translator` resource, else the first
 * one), so `npm start` needs no extra variables; undefined when the configuration has no such bot.
 */
export function botSettingsFromPlatformConfig(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv | undefined {
  if (!environment.PLATFORM_CONFIG) return undefined;
  const config = loadPlatformConfig(environment.PLATFORM_CONFIG, { environment });
  const bot = findBot(config, inspectionBotPlatformId(environment));
  if (!bot) return undefined;
  const resources = config.aiServices.resources;
  const translator = resources.find((resource) => resource.kind === 'translator') ?? resources[0];
  return {
    MicrosoftAppId: bot.anonymous ? '' : bot.appId,
    MicrosoftAppPassword: bot.appPassword ?? '',
    ToBotFromChannelTokenIssuer: channelTokenIssuerOf(bot, {
      botbuilder: environment.CONNECTOR_BOT_TOKEN_ISSUER,
      tenant: environment.CONNECTOR_TOKEN_TENANTS?.split(',')[0]?.trim() || undefined,
    }),
    INSPECTION_BOT_DIRECTLINE_SECRET: bot.directLine?.secrets[0],
    INSPECTION_BOT_TRANSLATOR_KEY: translator?.keys[0],
    INSPECTION_BOT_TRANSLATOR_KEY_2: translator?.keys[1],
    INSPECTION_BOT_TRANSLATOR_REGION: translator?.region,
  };
}

/** Where the embedded default keeps the bot's generated service-account password. */
export const SERVICE_ACCOUNT_PASSWORD_FILE = join(
  repositoryRoot(__dirname),
  '.data',
  'inspection-bot',
  'service-account-password',
);

/**
 * The service account's password: INSPECTION_BOT_API_PASSWORD, or one generated once and kept in `.data/` (the
 * account lives in the embedded database, which is kept between runs too).
 */
export function serviceAccountPassword(
  environment: NodeJS.ProcessEnv,
  file = SERVICE_ACCOUNT_PASSWORD_FILE,
): string {
  return environment.INSPECTION_BOT_API_PASSWORD ?? passwordKeptIn(file);
}

/** Where the embedded default keeps the demo inspector's generated password (printed next to the chat page URL). */
export const INSPECTOR_PASSWORD_FILE = join(
  repositoryRoot(__dirname),
  '.data',
  'inspection-bot',
  'inspector-password',
);

export interface DemoInspector {
  username: string;
  password: string;
  /** Where a person reads the password (unset when it came from DEMO_INSPECTOR_PASSWORD). */
  passwordFile?: string;
}

/**
 * The demo inspector the banner tells a new user to sign in on the chat page with: DEMO_INSPECTOR_USERNAME (default
 * `inspector`) and DEMO_INSPECTOR_PASSWORD, or a password generated once and kept in `.data/`.
 */
export function demoInspectorAccount(
  environment: NodeJS.ProcessEnv,
  file = INSPECTOR_PASSWORD_FILE,
): DemoInspector {
  const username = environment.DEMO_INSPECTOR_USERNAME ?? 'inspector';
  if (environment.DEMO_INSPECTOR_PASSWORD) return { username, password: environment.DEMO_INSPECTOR_PASSWORD };
  return { username, password: serviceAccountPassword({}, file), passwordFile: file };
}

export interface PlatformUrls {
  inspectionApi: string;
  relay: string;
  /** The relay as browsers reach it (default: `relay`). */
  relayPublic?: string;
  connector: string;
}

/**
 * The bot's environment on this machine: the given variables win; missing ones come from the platform
 * configuration (credentials, Direct Line secret), the generated service account, and the other apps' URLs.
 */
export function inspectionBotEnvironment(
  environment: NodeJS.ProcessEnv,
  botSettings: NodeJS.ProcessEnv,
  urls: PlatformUrls,
): NodeJS.ProcessEnv {
  const defaults: NodeJS.ProcessEnv = {
    ...botSettings,
    INSPECTION_BOT_API_USERNAME: 'inspection-bot',
    INSPECTION_BOT_API_PASSWORD: serviceAccountPassword(environment),
    INSPECTION_API_URL: urls.inspectionApi,
    INSPECTION_BOT_RELAY_URL: urls.relay,
    INSPECTION_BOT_RELAY_PUBLIC_URL: urls.relayPublic,
    ToChannelFromBotLoginUrl: `${urls.connector}/botframework.com`,
    ToBotFromChannelOpenIdMetadataUrl: `${urls.connector}/v1/.well-known/openidconfiguration`,
    ToBotFromEmulatorOpenIdMetadataUrl: `${urls.connector}/v1/.well-known/openidconfiguration`,
    OAuthUrl: urls.connector,
    // Translation through connector-gateway's Translator endpoint, when the configuration has an AI resource.
    INSPECTION_BOT_TRANSLATOR_URL: botSettings.INSPECTION_BOT_TRANSLATOR_KEY ? urls.connector : undefined,
  };
  const merged: NodeJS.ProcessEnv = { ...environment };
  for (const [name, value] of Object.entries(defaults)) {
    if (merged[name] === undefined && value !== undefined) merged[name] = value;
  }
  return merged;
}

/**
 * With separate processes: once inspection-api answers and the service account signs in, creates the demo data
 * when there are no devices (retried for up to `timeoutMs`, until `stopped()`).
 */
export async function seedDemoDataWhenReady(
  client: InspectionApiClient,
  logger: Logger,
  stopped: () => boolean,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!stopped()) {
    try {
      if (await seedDemoInspectionData(client))
        logger.info('no devices yet: created the demo devices, items and plans');
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        logger.warn({ err: error }, 'could not check for demo data: inspection-api did not become ready');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
