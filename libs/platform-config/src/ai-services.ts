import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { type AiResourceKind, type AiServicesSchema, HOST_NAME, REGION_NAME } from './ai-services.schema';
import { collectingSecretResolver, type SecretResolutionContext } from './secret-source';

/** One phrase in several languages, keyed by Translator language codes (`en`, `zh-Hans` …). */
export type Phrase = Readonly<Record<string, string>>;

export interface AiResourceConfig {
  readonly name: string;
  readonly kind: AiResourceKind;
  readonly region: string;
  /** The two configured keys (resolved); regenerated keys live in the gateway's key store. */
  readonly keys: readonly [string, string];
  readonly customSubdomain?: string;
  readonly localAuthDisabled: boolean;
  /** App ids that may call the resource with identity tokens. */
  readonly roleAssignments: readonly string[];
  readonly charactersPerHour?: number;
}

export type TranslationProviderConfig =
  | { readonly provider: 'phrasebook'; readonly phrases: readonly Phrase[] }
  | {
      readonly provider: 'upstream';
      readonly endpoint: string;
      readonly key: string;
      readonly region?: string;
      readonly timeoutMs: number;
    };

export interface AiServicesConfig {
  readonly resources: readonly AiResourceConfig[];
  readonly translation: TranslationProviderConfig;
  /** Lower-case host name → region. */
  readonly regionalHosts: Readonly<Record<string, string>>;
  readonly tokenExchangeRegions: readonly string[];
  readonly customSubdomainHostSuffix: string;
}

export const DEFAULT_TOKEN_EXCHANGE_REGIONS = ['chinaeast2', 'chinanorth2'] as const;
export const DEFAULT_CUSTOM_SUBDOMAIN_HOST_SUFFIX = 'cognitiveservices.azure.cn';
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 15_000;

/** The phrasebook used when no phrasebook file is configured: the inspection statuses and a greeting. */
export const EMBEDDED_PHRASES: readonly Phrase[] = [
  { en: 'ok', 'zh-Hans': '正常' },
  { en: 'warn', 'zh-Hans': '警告' },
  { en: 'fail', 'zh-Hans': '故障' },
  { en: 'Hello', 'zh-Hans': '你好' },
];

/** The AI-services settings when the file has no `aiServices` section: no resources, embedded phrasebook. */
export function defaultAiServicesConfig(): AiServicesConfig {
  return {
    resources: [],
    translation: { provider: 'phrasebook', phrases: EMBEDDED_PHRASES },
    regionalHosts: {},
    tokenExchangeRegions: [...DEFAULT_TOKEN_EXCHANGE_REGIONS],
    customSubdomainHostSuffix: DEFAULT_CUSTOM_SUBDOMAIN_HOST_SUFFIX,
  };
}

const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** Reads one phrasebook file: `phrases: [ { en: "…", zh-Hans: "…" }, … ]`. Problems are pushed, keyed by `key`. */
export function readPhrasebook(path: string, key: string, problems: string[]): Phrase[] {
  let document: unknown;
  try {
    document = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    problems.push(`${key}: cannot read phrasebook ${path} (${(error as Error).message.split('\n')[0]})`);
    return [];
  }
  const phrases = (document as { phrases?: unknown } | null)?.phrases;
  if (!Array.isArray(phrases)) {
    problems.push(`${key}: ${path} must be a mapping with a \`phrases\` list`);
    return [];
  }
  const result: Phrase[] = [];
  phrases.forEach((entry: unknown, index) => {
    const at = `${key} (${path}) phrases.${index}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at}: must be a mapping of language code to text`);
      return;
    }
    const pairs = Object.entries(entry as Record<string, unknown>);
    const bad = pairs.filter(([language, text]) => !LANGUAGE_CODE.test(language) || typeof text !== 'string');
    if (bad.length > 0 || pairs.length < 2) {
      problems.push(`${at}: needs two or more language codes mapped to strings`);
      return;
    }
    result.push(Object.fromEntries(pairs) as Phrase);
  });
  return result;
}

/** Validates and resolves the `aiServices` section (schema already checked); pushes problems keyed by path. */
export function resolveAiServices(
  schema: AiServicesSchema | undefined,
  context: SecretResolutionContext,
  problems: string[],
): AiServicesConfig {
  const defaults = defaultAiServicesConfig();
  if (!schema) return defaults;
  const secret = collectingSecretResolver(context, problems);
  const names = new Set<string>();
  const subdomains = new Map<string, string>();
  const keyOwners = new Map<string, string>();
  const resources = (schema.resources ?? []).map((resource, index): AiResourceConfig => {
    const key = `aiServices.resources.${index}`;
    if (names.has(resource.name)) problems.push(`${key}.name: duplicate resource name "${resource.name}"`);
    names.add(resource.name);
    if (resource.customSubdomain !== undefined) {
      const subdomain = resource.customSubdomain.toLowerCase();
      const owner = subdomains.get(subdomain);
      if (owner) problems.push(`${key}.customSubdomain: "${subdomain}" is already used by ${owner}`);
      subdomains.set(subdomain, key);
    }
    const keys = resource.keys.map((value, keyIndex) => {
      const keyName = `${key}.keys.${keyIndex}`;
      const resolved = secret(keyName, value);
      if (resolved && resolved.length < 16) problems.push(`${keyName}: must be at least 16 characters`);
      const owner = keyOwners.get(resolved);
      if (resolved && owner) problems.push(`${keyName}: the same key is already used by ${owner}`);
      keyOwners.set(resolved, keyName);
      return resolved;
    }) as [string, string];
    return {
      name: resource.name,
      kind: resource.kind,
      region: resource.region,
      keys,
      ...(resource.customSubdomain !== undefined && {
        customSubdomain: resource.customSubdomain.toLowerCase(),
      }),
      localAuthDisabled: resource.localAuthDisabled ?? false,
      roleAssignments: resource.roleAssignments ?? [],
      ...(resource.charactersPerHour !== undefined && { charactersPerHour: resource.charactersPerHour }),
    };
  });

  const regionalHosts: Record<string, string> = {};
  for (const [host, region] of Object.entries(schema.regionalHosts ?? {})) {
    const name = host.toLowerCase();
    if (!HOST_NAME.test(name)) problems.push(`aiServices.regionalHosts: "${host}" is not a host name`);
    if (typeof region !== 'string' || !REGION_NAME.test(region))
      problems.push(`aiServices.regionalHosts.${host}: must be a region name`);
    else regionalHosts[name] = region;
  }

  let translation: TranslationProviderConfig = defaults.translation;
  const settings = schema.translation;
  if (settings?.provider === 'upstream') {
    if (!settings.upstream) {
      problems.push('aiServices.translation.upstream: required when provider is upstream');
    } else {
      translation = {
        provider: 'upstream',
        endpoint: settings.upstream.endpoint.replace(/\/+$/, ''),
        key: secret('aiServices.translation.upstream.key', settings.upstream.key),
        ...(settings.upstream.region !== undefined && { region: settings.upstream.region }),
        timeoutMs: settings.upstream.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
      };
    }
  } else if (settings?.phrasebooks && settings.phrasebooks.length > 0) {
    const phrases = settings.phrasebooks.flatMap((file, index) =>
      readPhrasebook(
        isAbsolute(file) ? file : resolve(context.baseDirectory, file),
        `aiServices.translation.phrasebooks.${index}`,
        problems,
      ),
    );
    translation = { provider: 'phrasebook', phrases };
  }

  return {
    resources,
    translation,
    regionalHosts,
    tokenExchangeRegions: schema.tokenExchangeRegions ?? defaults.tokenExchangeRegions,
    customSubdomainHostSuffix:
      schema.customSubdomainHostSuffix?.toLowerCase() ?? defaults.customSubdomainHostSuffix,
  };
}
