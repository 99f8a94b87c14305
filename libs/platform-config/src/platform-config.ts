import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { type ValidationError, validateSync } from 'class-validator';
import { parse } from 'yaml';
import { ConfigurationError } from '@fieldops/platform';
import { type AiServicesConfig, resolveAiServices } from './ai-services';
import { type BotSdk } from './channel-token-issuer';
import { PlatformConfigSchema } from './platform-config.schema';
import { collectingSecretResolver, type SecretResolutionContext } from './secret-source';
import { interpolateDocument } from './variable-interpolation';

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;

/** A bot's Direct Line channel, secrets resolved. */
export interface DirectLineChannelConfig {
  /** One or two secrets, each valid (two during a rotation). */
  readonly secrets: readonly string[];
  readonly enhancedAuthentication: boolean;
  readonly trustedOrigins: readonly string[];
  readonly tokenLifetimeSeconds: number;
}

export interface BotConfig {
  readonly id: string;
  /** The bot's Microsoft App ID; '' for an `anonymous` bot configured without one. */
  readonly appId: string;
  readonly name: string;
  readonly messagingEndpoint: string;
  /** Absent: the bot has no Direct Line channel. */
  readonly directLine?: DirectLineChannelConfig;
  /** connector-gateway credentials (secrets resolved); validated further by connector-gateway. */
  readonly appPassword?: string;
  readonly appPasswordHash?: string;
  readonly certificates?: readonly BotCertificateConfig[];
  readonly managedIdentity?: boolean;
  readonly anonymous?: boolean;
  /** The SDK the bot is built with (absent: botbuilder); see `channelTokenIssuerOf`. */
  readonly sdk?: BotSdk;
  /** An explicit `iss` for the tokens sent to the bot. */
  readonly channelTokenIssuer?: string;
  /** The bot's own managed-identity secret (resolved). */
  readonly identityHeader?: string;
  /** The bot's OAuth connections (user-token service); absent: none. */
  readonly oauthConnections?: readonly OAuthConnectionConfig[];
}

/** An OAuth connection of a bot, secret resolved. */
export interface OAuthConnectionConfig {
  readonly name: string;
  /** The issuer, without a trailing slash added or removed (as the provider names itself). */
  readonly issuer: string;
  readonly clientId: string;
  /** Absent: a public client. */
  readonly clientSecret?: string;
  readonly scopes: readonly string[];
  readonly displayName: string;
}

export const DEFAULT_OAUTH_SCOPES: readonly string[] = ['openid', 'profile', 'offline_access'];

export interface BotCertificateConfig {
  /** Certificate or SPKI public key, PEM (resolved). */
  readonly pem: string;
  readonly thumbprint?: string;
}

export interface RelayConfig {
  /** Resolved signing keys; empty: relay-gateway makes a random key per process. */
  readonly tokenSigningKeys: readonly string[];
}

/** The validated, resolved platform configuration shared by relay-gateway and connector-gateway. */
export interface PlatformConfig {
  readonly bots: readonly BotConfig[];
  readonly relay: RelayConfig;
  /** connector-gateway's AI services (defaults when the file has no `aiServices` section). */
  readonly aiServices: AiServicesConfig;
}

export interface LoadPlatformConfigOptions {
  /** Where `{ env: NAME }` references are looked up. */
  environment: NodeJS.ProcessEnv;
}

function describeErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const key = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map(
      (message) => `${key}: ${message} (got ${JSON.stringify(error.value)})`,
    );
    return [...own, ...describeErrors(error.children ?? [], key)];
  });
}

/** Parses, validates and resolves a platform configuration document; `source` names it in errors. */
export function parsePlatformConfig(
  text: string,
  source: string,
  context: SecretResolutionContext,
): PlatformConfig {
  let document: unknown;
  try {
    document = parse(text, { prettyErrors: true });
  } catch (error) {
    throw new ConfigurationError(source, [`not valid YAML: ${(error as Error).message}`]);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ConfigurationError(source, ['the document must be a mapping with a `bots` list']);
  }
  const problems: string[] = [];
  const interpolated = interpolateDocument(document, context.environment, problems);
  const schema = plainToInstance(PlatformConfigSchema, interpolated);
  const keyOf = (problem: string): string => problem.slice(0, problem.indexOf(':'));
  const unset = new Set(problems.map(keyOf));
  // A value whose variable is unset is reported once, as that, not also as a malformed value.
  const shapeProblems = describeErrors(validateSync(schema, { forbidUnknownValues: true })).filter(
    (problem) => !unset.has(keyOf(problem)),
  );
  if (problems.length > 0 || shapeProblems.length > 0) {
    // Report every error in one pass: also check what can be checked beyond the shape, leaving out the keys (and
    // their children) whose shape is already wrong, and whatever cannot be resolved from a malformed document.
    const wrongKeys = [...unset, ...shapeProblems.map(keyOf)];
    const further: string[] = [];
    try {
      resolveValidated(schema, context, further);
    } catch {
      // the document's shape stopped the further checks; the shape problems say why
    }
    const independent = further.filter(
      (problem) => !wrongKeys.some((key) => problem.startsWith(`${key}:`) || problem.startsWith(`${key}.`)),
    );
    throw new ConfigurationError(source, [...problems, ...shapeProblems, ...independent]);
  }
  const config = resolveValidated(schema, context, problems);
  if (problems.length > 0) throw new ConfigurationError(source, problems);
  return config;
}

/** Resolves and cross-checks a document whose shape was validated; adds what is wrong to `problems`. */
function resolveValidated(
  schema: PlatformConfigSchema,
  context: SecretResolutionContext,
  problems: string[],
): PlatformConfig {
  const secret = collectingSecretResolver(context, problems);

  const ids = new Set<string>();
  const allSecrets = new Map<string, string>();
  const identityHeaders = new Map<string, string>();
  const identityHeaderOf = (key: string, resolved: string): string => {
    if (resolved && resolved.length < 16) problems.push(`${key}: must be at least 16 characters`);
    const owner = identityHeaders.get(resolved);
    if (resolved && owner) problems.push(`${key}: the same secret is already used by ${owner}`);
    identityHeaders.set(resolved, key);
    return resolved;
  };
  const bots = schema.bots.map((bot, index): BotConfig => {
    const key = `bots.${index}`;
    if (ids.has(bot.id)) problems.push(`${key}.id: duplicate bot id ${JSON.stringify(bot.id)}`);
    ids.add(bot.id);
    let directLine: DirectLineChannelConfig | undefined;
    if (bot.directLine) {
      const channel = bot.directLine;
      const secrets = channel.secrets.map((value, secretIndex) => {
        const secretKey = `${key}.directLine.secrets.${secretIndex}`;
        const resolved = secret(secretKey, value);
        if (resolved && resolved.length < 16) problems.push(`${secretKey}: must be at least 16 characters`);
        const owner = allSecrets.get(resolved);
        if (resolved && owner) problems.push(`${secretKey}: the same secret is already used by ${owner}`);
        allSecrets.set(resolved, secretKey);
        return resolved;
      });
      const enhancedAuthentication = channel.enhancedAuthentication ?? false;
      const trustedOrigins = (channel.trustedOrigins ?? []).map((origin) => new URL(origin).origin);
      if (enhancedAuthentication && trustedOrigins.length === 0) {
        problems.push(`${key}.directLine.trustedOrigins: enhanced authentication needs at least one origin`);
      }
      directLine = {
        secrets,
        enhancedAuthentication,
        trustedOrigins,
        tokenLifetimeSeconds: channel.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS,
      };
    }
    const credentials: Pick<
      BotConfig,
      | 'appPassword'
      | 'appPasswordHash'
      | 'certificates'
      | 'managedIdentity'
      | 'anonymous'
      | 'sdk'
      | 'channelTokenIssuer'
      | 'identityHeader'
      | 'oauthConnections'
    > = {
      ...(bot.appPassword !== undefined && { appPassword: secret(`${key}.appPassword`, bot.appPassword) }),
      ...(bot.appPasswordHash !== undefined && {
        appPasswordHash: secret(`${key}.appPasswordHash`, bot.appPasswordHash),
      }),
      ...(bot.certificates !== undefined && {
        certificates: bot.certificates.map((certificate, certificateIndex) => ({
          pem: secret(`${key}.certificates.${certificateIndex}.pem`, certificate.pem),
          ...(certificate.thumbprint !== undefined && { thumbprint: certificate.thumbprint }),
        })),
      }),
      ...(bot.managedIdentity !== undefined && { managedIdentity: bot.managedIdentity }),
      ...(bot.anonymous !== undefined && { anonymous: bot.anonymous }),
      ...(bot.sdk !== undefined && { sdk: bot.sdk }),
      ...(bot.channelTokenIssuer !== undefined && { channelTokenIssuer: bot.channelTokenIssuer }),
      ...(bot.identityHeader !== undefined && {
        identityHeader: identityHeaderOf(
          `${key}.identityHeader`,
          secret(`${key}.identityHeader`, bot.identityHeader),
        ),
      }),
      ...(bot.oauthConnections !== undefined && {
        oauthConnections: bot.oauthConnections.map((connection, connectionIndex): OAuthConnectionConfig => {
          const connectionKey = `${key}.oauthConnections.${connectionIndex}`;
          if (
            bot.oauthConnections?.some(
              (other, otherIndex) => otherIndex < connectionIndex && other.name === connection.name,
            )
          )
            problems.push(
              `${connectionKey}.name: duplicate connection name ${JSON.stringify(connection.name)}`,
            );
          return {
            name: connection.name,
            issuer: connection.issuer,
            clientId: connection.clientId,
            ...(connection.clientSecret !== undefined && {
              clientSecret: secret(`${connectionKey}.clientSecret`, connection.clientSecret),
            }),
            scopes: connection.scopes ?? DEFAULT_OAUTH_SCOPES,
            displayName: connection.displayName ?? connection.name,
          };
        }),
      }),
    };
    return {
      id: bot.id,
      appId: bot.appId ?? '',
      name: bot.name ?? bot.id,
      messagingEndpoint: bot.messagingEndpoint,
      directLine,
      ...credentials,
    };
  });
  const tokenSigningKeys = (schema.relay?.tokenSigningKeys ?? []).map((value, index) => {
    const keyName = `relay.tokenSigningKeys.${index}`;
    const resolved = secret(keyName, value);
    if (resolved && resolved.length < 32) problems.push(`${keyName}: must be at least 32 characters`);
    return resolved;
  });
  const aiServices = resolveAiServices(schema.aiServices, context, problems);
  return { bots, relay: { tokenSigningKeys }, aiServices };
}

/** Reads the platform configuration file at `path` (YAML) once, at start-up. Throws ConfigurationError. */
export function loadPlatformConfig(path: string, options: LoadPlatformConfigOptions): PlatformConfig {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`platform configuration ${absolute}`, [
      `PLATFORM_CONFIG: cannot read ${absolute} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    ]);
  }
  return parsePlatformConfig(text, `platform configuration ${absolute}`, {
    environment: options.environment,
    baseDirectory: dirname(absolute),
  });
}

/** Finds the bot whose Direct Line channel has this secret (either of its two). */
export function findBotByDirectLineSecret(config: PlatformConfig, secret: string): BotConfig | undefined {
  return config.bots.find((bot) => bot.directLine?.secrets.includes(secret));
}

export function findBot(config: PlatformConfig, botId: string): BotConfig | undefined {
  return config.bots.find((bot) => bot.id === botId);
}
