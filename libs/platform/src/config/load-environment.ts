import { type ClassConstructor, instanceToPlain, plainToInstance } from 'class-transformer';
import { type ValidationError, validateSync } from 'class-validator';
import { ConfigurationError } from './configuration-error';
import { exampleSecretProblem, exampleSecretsAllowed } from './example-secrets';

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const key = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map(
      (message) => `${key}: ${message} (got ${echoedValue(key, error.value)})`,
    );
    return [...own, ...describe(error.children ?? [], key)];
  });
}

/** Variables whose values are credentials: a configuration error names them but never echoes their value. */
const CREDENTIAL_VARIABLE = /SECRET|PASSWORD|TOKEN|KEY|CREDENTIAL/i;

function echoedValue(key: string, value: unknown): string {
  if (CREDENTIAL_VARIABLE.test(key) && typeof value === 'string')
    return `[redacted, ${value.length} characters]`;
  return JSON.stringify(withoutUrlCredentials(value));
}

/** A value echoed in a configuration error, with the credentials of any URL in it (`scheme://user:pass@`) masked. */
function withoutUrlCredentials(value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^@/\s]*@/gi, '$1***@') : value;
}

/**
 * An environment class whose defaults follow other settings (a URL that follows a port): `deriveSettings()` runs
 * after the variables are read and before validation, so a derived value is validated like a given one.
 */
export interface DerivesSettings {
  deriveSettings(): void;
}

function derivesSettings(settings: object): settings is DerivesSettings {
  return typeof (settings as Partial<DerivesSettings>).deriveSettings === 'function';
}

/**
 * Reads an environment into a validated, typed settings object, once, at start-up.
 * Only the properties the class declares (with `@Expose()`) are read; empty strings count as unset,
 * so class defaults apply. Throws a ConfigurationError listing every invalid variable, and, outside tests, every
 * variable holding a published example secret (example-secrets.ts).
 */
export function loadEnvironment<T extends object>(
  schema: ClassConstructor<T>,
  environment: NodeJS.ProcessEnv,
  source: string,
): T {
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const settings = plainToInstance(schema, present, {
    excludeExtraneousValues: true,
    exposeDefaultValues: true,
  });
  if (derivesSettings(settings)) settings.deriveSettings();
  const errors = validateSync(settings, { forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new ConfigurationError(source, describe(errors));
  }
  if (!exampleSecretsAllowed(environment, processVariables())) {
    const values = settings as Record<string, unknown>;
    const problems = environmentVariableNames(schema)
      .map((name) => exampleSecretProblem(name, values[name]))
      .filter((problem): problem is string => problem !== undefined);
    if (problems.length > 0) throw new ConfigurationError(source, problems);
  }
  return settings;
}

/** The variables an environment class reads (its `@Expose()`d properties), for docs and deployment checks. */
export function environmentVariableNames(schema: ClassConstructor<object>): string[] {
  return Object.keys(instanceToPlain(new schema(), { strategy: 'excludeAll', exposeUnsetFields: true }));
}

/**
 * The process's own variables, for a service started without an explicit environment (its main.ts). Configuration
 * code is the one place that reads `process.env`; everything else is handed what was read here.
 */
export function processVariables(): NodeJS.ProcessEnv {
  return process.env;
}
