import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
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

export class BotSchema {
  /** The bot's handle in this platform (recipient id towards the client, lookup key). */
  @IsString() @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/) id!: string;

  /** The bot's Microsoft App ID (the `aud` of tokens the connector mints for it). */
  @IsString() @Matches(/\S/) appId!: string;

  @IsOptional() @IsString() name?: string;

  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  messagingEndpoint!: string;

  @IsOptional() @ValidateNested() @Type(() => DirectLineChannelSchema) directLine?: DirectLineChannelSchema;
}

export class RelaySchema {
  /** HMAC keys (32+ characters once resolved) that sign Direct Line tokens; the first one signs. */
  @IsOptional() @IsArray() @ArrayMinSize(1) @IsSecretSource({ each: true }) tokenSigningKeys?: SecretSource[];
}

export class PlatformConfigSchema {
  @IsArray() @ValidateNested({ each: true }) @Type(() => BotSchema) bots!: BotSchema[];

  @IsOptional() @ValidateNested() @Type(() => RelaySchema) relay?: RelaySchema;
}
