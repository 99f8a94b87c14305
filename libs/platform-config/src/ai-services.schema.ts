import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsSecretSource, type SecretSource } from './secret-source';

/** Azure's custom-subdomain rule: alphanumerics and `-`, 2–64 characters, not ending in `-`. */
export const CUSTOM_SUBDOMAIN = /^[A-Za-z0-9][A-Za-z0-9-]{0,62}[A-Za-z0-9]$/;
/** A region name as Azure spells them (`global`, `chinaeast2`, `westeurope` …). */
export const REGION_NAME = /^[a-z][a-z0-9]{1,39}$/;
/** A host name (no port), lower-case letters, digits, dots and dashes. */
export const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

export const AI_RESOURCE_KINDS = ['translator', 'multi-service'] as const;
export type AiResourceKind = (typeof AI_RESOURCE_KINDS)[number];

/** One AI-services resource (a Translator or a multi-service account), as written in the file. */
export class AiResourceSchema {
  @IsString() @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/) name!: string;
  @IsIn(AI_RESOURCE_KINDS) kind!: AiResourceKind;
  @IsString()
  @Matches(REGION_NAME, { message: 'region must be a region name such as global or chinaeast2' })
  region!: string;
  /** Exactly two keys (literal or secret references); either one works. */
  @IsArray() @ArrayMinSize(2) @ArrayMaxSize(2) @IsSecretSource({ each: true }) keys!: SecretSource[];
  @IsOptional()
  @IsString()
  @Matches(CUSTOM_SUBDOMAIN, {
    message: 'customSubdomain must be 2-64 letters, digits or "-", not starting or ending with "-"',
  })
  customSubdomain?: string;
  @IsOptional() @IsBoolean() localAuthDisabled?: boolean;
  /** App ids (clients of the client-credentials endpoint) allowed to call with identity tokens. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Matches(/\S/, { each: true })
  roleAssignments?: string[];
  /** Characters per hour this resource may translate (all targets counted); beyond: 429000. */
  @IsOptional() @IsInt() @Min(1) charactersPerHour?: number;
}

export class UpstreamTranslatorSchema {
  /** Base URL of a Translator v3 service, e.g. https://api.translator.azure.cn */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }) endpoint!: string;
  @IsSecretSource() key!: SecretSource;
  @IsOptional() @IsString() @Matches(REGION_NAME) region?: string;
  @IsOptional() @IsInt() @Min(100) timeoutMs?: number;
}

export class TranslationSchema {
  @IsIn(['phrasebook', 'upstream']) provider!: 'phrasebook' | 'upstream';
  /** Phrasebook files (YAML, relative to the configuration file). */
  @IsOptional() @IsArray() @IsString({ each: true }) phrasebooks?: string[];
  @IsOptional() @ValidateNested() @Type(() => UpstreamTranslatorSchema) upstream?: UpstreamTranslatorSchema;
}

export class AiServicesSchema {
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AiResourceSchema)
  resources?: AiResourceSchema[];
  @IsOptional() @ValidateNested() @Type(() => TranslationSchema) translation?: TranslationSchema;
  /** host → region: host names that address one region (multi-service keys only at their own region's). */
  @IsOptional() @IsObject() regionalHosts?: Record<string, string>;
  /** Regions where multi-service keys may be exchanged for tokens. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Matches(REGION_NAME, { each: true })
  tokenExchangeRegions?: string[];
  /** `{customSubdomain}.{customSubdomainHostSuffix}` addresses a resource (identity tokens only there). */
  @IsOptional() @IsString() @Matches(HOST_NAME) customSubdomainHostSuffix?: string;
}
