import { getMetadataStorage } from 'class-validator';

type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

/** What an environment class's validators say about one of its variables. */
export interface ValidationRules {
  /** The kind of value and its bounds, as shown in the reference (`integer, 1000 … 300000`). */
  type: string;
  /** `@IsOptional()`: unset is valid. */
  optional: boolean;
  /** `@ValidateIf()`: validated only in some settings (the doc comment says which). */
  conditional: boolean;
}

function code(value: unknown): string {
  return `\`${String(value)}\``;
}

function alternatives(values: readonly unknown[]): string {
  const shown = values.map(code);
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}` : shown.join('');
}

/**
 * How each validator of class-validator (by its metadata name) is shown; null: shown by another one or by the doc
 * comment (a pattern, a cross-check). A validator missing here fails the generator, so a new one is described on
 * purpose.
 */
const SHOWN: Record<string, ((constraints: unknown[]) => string) | null> = {
  isInt: () => 'integer',
  isBoolean: () => 'boolean',
  isString: () => 'string',
  isIn: ([values]) => alternatives(values as unknown[]),
  isUrl: () => 'URL',
  isRedisUrl: () => 'Redis URL',
  isTimeZone: () => 'IANA time zone',
  areNetworks: () => 'CIDR networks',
  isSigningKeyList: () => 'JSON array',
  isReadableFile: () => 'readable file',
  arrayNotEmpty: () => 'not empty',
  minLength: ([length]) => (length === 1 ? 'not empty' : `at least ${String(length)} characters`),
  maxLength: ([length]) => `at most ${String(length)} characters`,
  matches: null,
  min: null,
  max: null,
  differsFromTokenIssuer: null,
};

/** Kinds of string that say more than `string`. */
const SPECIFIC_STRINGS = new Set(['URL', 'Redis URL', 'IANA time zone', 'JSON array', 'readable file']);

function bounds(metadatas: ValidationMetadata[]): string | undefined {
  const constraint = (name: string) =>
    metadatas.find((metadata) => metadata.name === name)?.constraints[0] as number | undefined;
  const min = constraint('min');
  const max = constraint('max');
  if (min !== undefined && max !== undefined) return `${min} … ${max}`;
  if (min !== undefined) return `≥ ${min}`;
  if (max !== undefined) return `≤ ${max}`;
  return undefined;
}

/** The validators a class declares on one of its own properties (not those it inherits). */
export function ownValidationMetadatas(
  target: abstract new () => object,
  property: string,
): ValidationMetadata[] {
  return getMetadataStorage()
    .getTargetValidationMetadatas(target as new () => object, '', true, false)
    .filter((metadata) => metadata.target === target && metadata.propertyName === property);
}

/** The type, bounds and optionality a property's validators give it, read from class-validator's metadata. */
export function validationRules(target: abstract new () => object, property: string): ValidationRules {
  const metadatas = ownValidationMetadatas(target, property);
  const conditions = metadatas.filter((metadata) => metadata.type === 'conditionalValidation');
  const parts: string[] = [];
  for (const metadata of metadatas) {
    if (metadata.type === 'conditionalValidation') continue;
    const name = metadata.name ?? metadata.type;
    if (!(name in SHOWN))
      throw new Error(
        `${target.name}.${property}: the validator ${name} has no description in docs/src/configuration/validation-rules.ts`,
      );
    const shown = SHOWN[name]?.(metadata.constraints ?? []);
    if (shown === undefined) continue;
    parts.push(shown);
  }
  const range = bounds(metadatas);
  // Decorators run bottom-up: reverse to read them in source order, kinds before refinements.
  let ordered = [...new Set(parts.reverse())];
  // A string of a more specific kind (a URL, a time zone …) is named by that kind.
  if (ordered.some((part) => SPECIFIC_STRINGS.has(part)))
    ordered = ordered.filter((part) => part !== 'string');
  // Validators applied to `each` item: the value is a comma-separated list (split by the class's transform).
  if (metadatas.some((metadata) => metadata.each))
    ordered = ['comma-separated list', ...ordered.filter((part) => part !== 'string')];
  if (ordered.length === 0) ordered.push('string');
  if (range !== undefined) ordered.splice(1, 0, range);
  return {
    type: ordered.join(', '),
    optional: conditions.some((metadata) => metadata.name === 'isOptional'),
    conditional: conditions.some((metadata) => metadata.name !== 'isOptional'),
  };
}
