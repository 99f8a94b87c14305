import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { Expose, Transform } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';
import { ConversationStateEnvironment } from '@fieldops/conversation-store';
import { LOCAL_HOSTS, repositoryRoot, ToInteger, toHostList } from '@fieldops/platform';
import { type ResolvedSigningKey, resolveSigningKeys } from './signing-keys.setting';

/** Splits a comma-separated list (blanks dropped); leaves non-strings for validation to report. */
export function ToList(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '')
      : value,
  );
}

function IsSigningKeyList(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSigningKeyList',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && 'keys' in resolveSigningKeys(value),
        defaultMessage: (args) => {
          const value: unknown = args?.value;
          if (typeof value !== 'string') return 'CONNECTOR_SIGNING_KEYS must be a JSON array';
          const result = resolveSigningKeys(value);
          return `CONNECTOR_SIGNING_KEYS ${'problems' in result ? result.problems.join('; ') : 'is invalid'}`;
        },
      },
    },
    options,
  );
}

function IsReadableFile(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isReadableFile',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          try {
            accessSync(value, constants.R_OK);
            return true;
          } catch {
            return false;
          }
        },
        defaultMessage: (args) => `${args?.property ?? 'file'} names no readable file`,
      },
    },
    options,
  );
}

const SCOPE = /^\S+\/\.default$/;
const NAME_LIST_ITEM = /^[A-Za-z0-9._-]+$/;

/** connector-gateway's environment (docs/operate/configuration.md). */
export class ConnectorGatewayEnvironment extends ConversationStateEnvironment {
  /** HTTP port. */
  @Expose() @ToInteger() @IsInt() @Min(0) @Max(65535) CONNECTOR_GATEWAY_PORT: number = 8020;

  /**
   * The platform configuration file (YAML) the bot registry is built from, the same file as the relay's; unset: no
   * bots registered (`npm start`: `infra/config/platform.example.yaml`).
   */
  @Expose() @IsOptional() @IsString() @Matches(/\S/) PLATFORM_CONFIG?: string;

  /**
   * Shared secret relay-gateway sends as `Authorization: Bearer <key>` to `POST /internal/v1/deliveries`
   * (its RELAY_CONNECTOR_KEY). Unset: the internal delivery endpoint answers 404.
   */
  @Expose() @IsOptional() @IsString() @MinLength(32) CONNECTOR_INTERNAL_KEY?: string;

  /** Deadline for a bot's HTTP answer to a delivered activity; later: the relay's send answers 504 BotError. */
  @Expose() @ToInteger() @IsInt() @Min(100) @Max(120_000) CONNECTOR_DELIVERY_TIMEOUT_MS: number = 15_000;

  /**
   * The gateway's public base URL (what bots and their SDKs reach, e.g. `https://connector.example.com`).
   * Used in the OpenID documents and as the audience of client assertions. Unset: taken from each request
   * (protocol and Host, honouring TRUST_PROXY).
   */
  @Expose()
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  @Matches(/^[^?#]*[^/?#]$/, {
    message: 'CONNECTOR_PUBLIC_URL must have no trailing slash, query or fragment',
  })
  CONNECTOR_PUBLIC_URL?: string;

  /**
   * Host names this gateway builds absolute URLs for when CONNECTOR_PUBLIC_URL is unset (Django's ALLOWED_HOSTS patterns,
   * comma-separated: `.example.com` = the domain and its subdomains, `*` = any). A request naming another host (Host,
   * or X-Forwarded-Host from a trusted proxy) that asks for such a URL gets 400. Default: local names only. With
   * CONNECTOR_PUBLIC_URL set, URLs are built from it and any host is answered.
   */
  @Expose()
  @Transform(toHostList)
  @IsString({ each: true })
  @ArrayNotEmpty()
  CONNECTOR_ALLOWED_HOSTS: string[] = [...LOCAL_HOSTS];

  /** `iss` of the tokens the token endpoint issues to bots (and that the `/v3` API accepts). */
  @Expose() @IsString() @MinLength(1) CONNECTOR_TOKEN_ISSUER: string = 'urn:fieldops:connector-gateway';

  /** Tenants accepted in the token path `/{tenant}/oauth2/v2.0/token` (comma-separated). */
  @Expose()
  @ToList()
  @ArrayNotEmpty()
  @Matches(NAME_LIST_ITEM, {
    each: true,
    message: 'each tenant must be letters, digits, dot, dash, underscore',
  })
  CONNECTOR_TOKEN_TENANTS: string[] = ['botframework.com'];

  /** Scopes a bot may ask for (comma-separated, each ending in `/.default`); the token's `aud` is the scope minus `/.default`. */
  @Expose()
  @ToList()
  @ArrayNotEmpty()
  @Matches(SCOPE, { each: true, message: 'each scope must end in /.default' })
  CONNECTOR_TOKEN_SCOPES: string[] = ['https://api.botframework.com/.default'];

  /** Lifetime of every token the gateway issues or sends (bot → gateway and gateway → bot), in seconds. */
  @Expose() @ToInteger() @IsInt() @Min(600) @Max(86_400) CONNECTOR_TOKEN_LIFETIME_SECONDS: number = 3600;

  /**
   * `iss` of the tokens the gateway sends to botbuilder bots (the bot's `ToBotFromChannelTokenIssuer` must equal it);
   * a bot's own `channelTokenIssuer` or `sdk: agents` in the platform configuration wins.
   */
  @Expose()
  @IsString()
  @MinLength(1)
  @ValidateBy({
    name: 'differsFromTokenIssuer',
    validator: {
      validate: (value: unknown, args) =>
        value !== (args?.object as ConnectorGatewayEnvironment | undefined)?.CONNECTOR_TOKEN_ISSUER,
      defaultMessage: () =>
        'CONNECTOR_BOT_TOKEN_ISSUER must differ from CONNECTOR_TOKEN_ISSUER (both kinds of token share the signing keys)',
    },
  })
  CONNECTOR_BOT_TOKEN_ISSUER: string = 'https://api.botframework.com';

  /** Channel ids listed as `endorsements` of every key in the bot-facing JWKS (comma-separated). */
  @Expose()
  @ToList()
  @ArrayNotEmpty()
  @Matches(NAME_LIST_ITEM, {
    each: true,
    message: 'each channel id must be letters, digits, dot, dash, underscore',
  })
  CONNECTOR_CHANNEL_IDS: string[] = ['directline', 'webchat'];

  /**
   * Secret shared by the bots with `managedIdentity: true`, sent as `X-IDENTITY-HEADER` to the managed-identity
   * endpoint with a `client_id` (their `IDENTITY_HEADER`). A bot's own `identityHeader` in the platform configuration
   * works without it. Unset, and no bot with its own: the managed-identity endpoint is disabled.
   */
  @Expose() @IsOptional() @IsString() @MinLength(16) CONNECTOR_IDENTITY_HEADER?: string;

  /**
   * The RSA signing keys, shared by every replica: a JSON array of `{kid?, pem | file, activatesAt?}`.
   * Unset: one development key, generated once and kept in CONNECTOR_DEV_SIGNING_KEY_FILE.
   */
  @Expose() @IsOptional() @IsSigningKeyList() CONNECTOR_SIGNING_KEYS?: string;

  /**
   * Where the development signing key lives when CONNECTOR_SIGNING_KEYS is unset (created on first start; not for
   * production).
   *
   * @default `<repo>/.data/connector-gateway/signing-key.pem`
   */
  @Expose() @IsString() CONNECTOR_DEV_SIGNING_KEY_FILE: string = resolve(
    repositoryRoot(__dirname),
    '.data',
    'connector-gateway',
    'signing-key.pem',
  );

  /**
   * The scope clients of the token endpoint ask for to call AI resources with identity tokens; the token's `aud`
   * is the scope minus `/.default`. Accepted by the token endpoint besides CONNECTOR_TOKEN_SCOPES.
   */
  @Expose()
  @Matches(SCOPE, { message: 'CONNECTOR_AI_TOKEN_SCOPE must end in /.default' })
  CONNECTOR_AI_TOKEN_SCOPE: string = 'https://cognitiveservices.azure.com/.default';

  /**
   * Also serve the same app over HTTPS on this port (needs CONNECTOR_TLS_CERT_FILE and CONNECTOR_TLS_KEY_FILE): the
   * official Translator client sends tokens only over https. Unset: HTTP only.
   */
  @Expose() @IsOptional() @ToInteger() @IsInt() @Min(0) @Max(65535) CONNECTOR_HTTPS_PORT?: number;

  /** PEM certificate (chain) of the HTTPS listener; required with CONNECTOR_HTTPS_PORT. */
  @Expose()
  @ValidateIf((environment: ConnectorGatewayEnvironment) => environment.CONNECTOR_HTTPS_PORT !== undefined)
  @IsString({ message: 'CONNECTOR_TLS_CERT_FILE is required with CONNECTOR_HTTPS_PORT' })
  @IsReadableFile()
  CONNECTOR_TLS_CERT_FILE?: string;

  /** PEM private key of the HTTPS listener; required with CONNECTOR_HTTPS_PORT. */
  @Expose()
  @ValidateIf((environment: ConnectorGatewayEnvironment) => environment.CONNECTOR_HTTPS_PORT !== undefined)
  @IsString({ message: 'CONNECTOR_TLS_KEY_FILE is required with CONNECTOR_HTTPS_PORT' })
  @IsReadableFile()
  CONNECTOR_TLS_KEY_FILE?: string;

  /**
   * Secret (32+ characters) the user-token service derives its keys from: AES-256-GCM encryption of users' tokens at
   * rest and the signature of sign-in states. Equal on every instance. Unset: a random key per process (signed-in
   * users are lost on restart); required with REDIS_URL when a bot has OAuth connections.
   */
  @Expose() @IsOptional() @IsString() @MinLength(32) CONNECTOR_USER_TOKEN_KEY?: string;

  /** The configured signing keys, parsed (undefined when CONNECTOR_SIGNING_KEYS is unset). */
  configuredSigningKeys(): ResolvedSigningKey[] | undefined {
    if (this.CONNECTOR_SIGNING_KEYS === undefined) return undefined;
    const result = resolveSigningKeys(this.CONNECTOR_SIGNING_KEYS);
    if ('problems' in result) throw new Error(`CONNECTOR_SIGNING_KEYS: ${result.problems.join('; ')}`);
    return result.keys;
  }
}
