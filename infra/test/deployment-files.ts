import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConnectorGatewayEnvironment } from '@fieldops/connector-gateway';
import { InspectionApiEnvironment } from '@fieldops/inspection-api';
import { InspectionBotEnvironment } from '@fieldops/inspection-bot';
import { environmentVariableNames } from '@fieldops/platform';
import { RelayGatewayEnvironment } from '@fieldops/relay-gateway';
import { parseAllDocuments } from 'yaml';

export const REPOSITORY_ROOT = resolve(__dirname, '..', '..');

/** What the deployment files must agree with: each app's port variable, default port and environment class. */
export const APPS = {
  'inspection-api': {
    port: 8000,
    portVariable: 'INSPECTION_API_PORT',
    environment: InspectionApiEnvironment,
  },
  'relay-gateway': { port: 8010, portVariable: 'RELAY_GATEWAY_PORT', environment: RelayGatewayEnvironment },
  'connector-gateway': {
    port: 8020,
    portVariable: 'CONNECTOR_GATEWAY_PORT',
    environment: ConnectorGatewayEnvironment,
  },
  'inspection-bot': {
    port: 3978,
    portVariable: 'INSPECTION_BOT_PORT',
    environment: InspectionBotEnvironment,
  },
} as const;

export type AppName = keyof typeof APPS;

/** The port every deployed app serves `/metrics` on (METRICS_PORT), apart from its app port. */
export const METRICS_PORT = 9464;

/** Variables the images themselves set rather than the app reads. */
const IMAGE_VARIABLES = ['NODE_ENV'];

export function isAppName(name: string): name is AppName {
  return name in APPS;
}

/** Every variable a deployment may set for an app: what its environment class reads, plus the image's own. */
export function acceptedVariables(app: AppName): Set<string> {
  return new Set([...environmentVariableNames(APPS[app].environment), ...IMAGE_VARIABLES]);
}

export type YamlObject = Record<string, unknown>;

export function readYamlDocuments(path: string): YamlObject[] {
  return parseAllDocuments(readFileSync(path, 'utf8'), { merge: true }).map((document) => {
    if (document.errors.length > 0)
      throw new Error(`${path}: ${document.errors.map((error) => error.message).join('; ')}`);
    return document.toJS({ maxAliasCount: 100 }) as YamlObject;
  });
}

export function yamlFilesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return yamlFilesUnder(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

export function repositoryFileExists(relativePath: string): boolean {
  return existsSync(join(REPOSITORY_ROOT, relativePath));
}
