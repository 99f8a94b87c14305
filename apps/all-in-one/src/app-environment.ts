import { readFileSync } from 'node:fs';
import { ConnectorGatewayEnvironment } from '@fieldops/connector-gateway';
import { InspectionApiEnvironment } from '@fieldops/inspection-api';
import { InspectionBotEnvironment } from '@fieldops/inspection-bot';
import { environmentVariableNames } from '@fieldops/platform';
import { RelayGatewayEnvironment } from '@fieldops/relay-gateway';
import { type PlatformApp } from './app-selection';

/** Each app's environment class: the variables it reads (its own and the ones it inherits). */
const ENVIRONMENT_CLASSES = {
  'inspection-api': InspectionApiEnvironment,
  'connector-gateway': ConnectorGatewayEnvironment,
  'relay-gateway': RelayGatewayEnvironment,
  'inspection-bot': InspectionBotEnvironment,
} as const;

/** What Node.js and the system libraries read (locale, time zone, temporary files, CAs, proxies, Node's options). */
const SYSTEM_VARIABLES =
  /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|TMP|TEMP|NODE_[A-Z_]+|UV_THREADPOOL_SIZE|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy)$/;

/** The variables a platform configuration file names (`${NAME}`, `${NAME:-default}`, `{ env: NAME }`). */
export function platformConfigVariables(path: string | undefined): string[] {
  if (!path) return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return []; // the app itself reports an unreadable configuration
  }
  const names = [
    ...text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)/g),
    ...text.matchAll(/\benv:\s*['"]?([A-Za-z_][A-Za-z0-9_]*)/g),
  ];
  return [...new Set(names.map((match) => match[1] ?? ''))];
}

/**
 * The environment of an app's own process: only the variables its environment class reads, those its platform
 * configuration file names (for the apps that load one), and the system's (PATH, locale, Node's options …). Another
 * app's secrets (signing keys, passwords, Direct Line secrets) are not handed to it.
 */
export function ownEnvironment(app: PlatformApp, environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const names = new Set(environmentVariableNames(ENVIRONMENT_CLASSES[app]));
  if (names.has('PLATFORM_CONFIG'))
    for (const name of platformConfigVariables(environment.PLATFORM_CONFIG)) names.add(name);
  const own: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && (names.has(name) || SYSTEM_VARIABLES.test(name))) own[name] = value;
  }
  return own;
}
