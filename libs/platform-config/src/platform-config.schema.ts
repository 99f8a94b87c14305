import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { AiServicesSchema } from './ai-services.schema';
import { BOT_SDKS, type BotSdk } from './channel-token-issuer';
import { IsSecretSource, type SecretSource } from './secret-source';

/** The raw (unresolved) shape of the platform configuration file, as validated. */
export class DirectLineChannelSchema {
  /** One or two secrets; two let an operator rotate without downtime. */
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(2) @IsSecretSource({ each: true }) secrets!: SecretSource[];

  @IsOptional() @IsBoolean() enhancedAuthentication?: boolean;

  @IsOptional()
  @IsArray()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { each: true })
  trustedOrigins?: string[];

  @IsOptional() @IsInt() @Min(60) @Max(86_400) tokenLifetimeSeconds?: number;
}

/** A certificate (or bare RSA public key) the bot may sign client assertions with (connector-gateway). */
export class BotCertificateSchema {
  /** The PEM: literal, `{ env }` or `{ file }` (relative to the configuration file). */
  @IsSecretSource() pem!: SecretSource;

  /** SHA-1 thumbprint (40 hex digits or base64url `x5t`); required for a bare public key. */
  @IsOptional() @IsString() thumbprint?: string;
}

/** An OAuth connection of a bot (the user-token service): an OpenID Connect provider the bot's users sign in with. */
export class OAuthConnectionSchema {
  /** The connection's name, as the bot's code names it (`connectionName` of OAuthPrompt / the Agents SDK). */
  @IsString() @Matches(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/) name!: string;

  /** The provider's issuer; its discovery document is `{issuer}/.well-known/openid-configuration`. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }) issuer!: string;

  /** The client id registered at the provider for this platform. */
  @IsString() @Matches(/\S/) clientId!: string;

  /** The client secret (normally a reference); absent: a public client (PKCE only). */
  @IsOptional() @IsSecretSource() clientSecret?: SecretSource;

  /** Scopes asked for (default `openid profile offline_access`). */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  @Matches(/^\S+$/, { each: true })
  scopes?: string[];

  /** The provider's name shown to users and in GetTokenStatus (default: the connection's name). */
  @IsOptional() @IsString() displayName?: string;
}

export class BotSchema {
  /** The bot's handle in this platform (recipient id towards the client, lookup key). */
  @IsString() @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/) id!: string;

  /** The bot's Microsoft App ID (the `aud` of tokens the connector mints for it); optional for `anonymous` bots. */
  @ValidateIf((bot: BotSchema) => bot.anonymous !== true || bot.appId !== undefined)
  @IsString()
  @Matches(/\S/)
  appId?: string;

  @IsOptional() @IsString() name?: string;

  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  messagingEndpoint!: string;

  @IsOptional() @ValidateNested() @Type(() => DirectLineChannelSchema) directLine?: DirectLineChannelSchema;

  /** connector-gateway: the app password in clear, normally a reference (`{ env }` / `{ file }`). */
  @IsOptional() @IsSecretSource() appPassword?: SecretSource;

  /** connector-gateway: the app password as an argon2 PHC string (`$argon2id$…`), or a reference to one. */
  @IsOptional() @IsSecretSource() appPasswordHash?: SecretSource;

  /** connector-gateway: certificates for RFC 7523 client assertions. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => BotCertificateSchema)
  certificates?: BotCertificateSchema[];

  /** connector-gateway: the bot may get tokens from the managed-identity endpoint. */
  @IsOptional() @IsBoolean() managedIdentity?: boolean;

  /** connector-gateway: the bot runs without authentication (no tokens either way). */
  @IsOptional() @IsBoolean() anonymous?: boolean;

  /**
   * connector-gateway: the SDK the bot is built with, which decides the `iss` of the tokens sent to it (see
   * `channelTokenIssuerOf`): `botbuilder` (default) or `agents` (Microsoft 365 Agents SDK).
   */
  @IsOptional() @IsIn(BOT_SDKS) sdk?: BotSdk;

  /** connector-gateway: an explicit `iss` for the tokens sent to this bot (wins over `sdk`). */
  @IsOptional() @IsString() @Matches(/^\S+$/) channelTokenIssuer?: string;

  /**
   * connector-gateway: the bot's own managed-identity secret (its `IDENTITY_HEADER`, 16+ characters): `/msi/token`
   * requests carrying it are this bot's, with or without `client_id` (a system-assigned identity).
   */
  @IsOptional() @IsSecretSource() identityHeader?: SecretSource;

  /** connector-gateway: the bot's OAuth connections (the user-token service; docs/protocols/user-token-service.md). */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => OAuthConnectionSchema)
  oauthConnections?: OAuthConnectionSchema[];
}

export class RelaySchema {
  /** HMAC keys (32+ characters once resolved) that sign Direct Line tokens; the first one signs. */
  @IsOptional() @IsArray() @ArrayMinSize(1) @IsSecretSource({ each: true }) tokenSigningKeys?: SecretSource[];
}

export class PlatformConfigSchema {
  @IsArray() @ValidateNested({ each: true }) @Type(() => BotSchema) bots!: BotSchema[];

  @IsOptional() @ValidateNested() @Type(() => RelaySchema) relay?: RelaySchema;
  /** connector-gateway: AI-services resources, the translation provider and the addresses they answer at. */
  @IsOptional() @ValidateNested() @Type(() => AiServicesSchema) aiServices?: AiServicesSchema;
}
