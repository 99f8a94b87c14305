import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { registerDecorator, type ValidationArguments } from 'class-validator';
import { exampleSecretProblem, exampleSecretsAllowed, processVariables } from '@fieldops/platform';

/** A secret given literally, or by reference to an environment variable or a file (Kubernetes Secrets). */
export type SecretSource = string | { env: string } | { file: string };

export function isSecretSource(value: unknown): value is SecretSource {
  if (typeof value === 'string') return value.length > 0;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  const [key] = keys;
  const target = (value as Record<string, unknown>)[key ?? ''];
  return (key === 'env' || key === 'file') && typeof target === 'string' && target.length > 0;
}

/** class-validator: the property is a SecretSource (or, with `each`, an array of them). */
export function IsSecretSource(options: { each?: boolean } = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isSecretSource',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { each: options.each },
      validator: {
        validate: (value: unknown) => isSecretSource(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} must be a non-empty string, { env: NAME } or { file: path }`,
      },
    });
  };
}

export interface SecretResolutionContext {
  environment: NodeJS.ProcessEnv;
  /** Relative `file` references are resolved against this directory (the configuration file's). */
  baseDirectory: string;
}

/** Resolves a validated SecretSource to its value; throws an Error saying what is missing. */
export function resolveSecret(source: SecretSource, context: SecretResolutionContext): string {
  if (typeof source === 'string') return source;
  if ('env' in source) {
    const value = context.environment[source.env];
    if (value === undefined || value === '') throw new Error(`environment variable ${source.env} is not set`);
    return value;
  }
  const path = isAbsolute(source.file) ? source.file : resolve(context.baseDirectory, source.file);
  let value: string;
  try {
    value = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
      cause: error,
    });
  }
  // Mounted secrets usually end with a newline that is not part of the secret.
  value = value.replace(/\r?\n$/, '');
  if (value === '') throw new Error(`file ${path} is empty`);
  return value;
}

/**
 * A resolver that records a failing reference in `problems`, keyed by its path in the configuration, and yields ''
 * instead of throwing, so that every bad reference of a file is reported at once. Outside tests a published
 * example secret is such a problem too (named by its key and, for `{ env: NAME }`, its variable).
 */
export function collectingSecretResolver(
  context: SecretResolutionContext,
  problems: string[],
): (key: string, value: SecretSource) => string {
  const examplesAllowed = exampleSecretsAllowed(context.environment, processVariables());
  return (key, value) => {
    try {
      const resolved = resolveSecret(value, context);
      const name = typeof value === 'object' && 'env' in value ? `${key} (${value.env})` : key;
      const problem = examplesAllowed ? undefined : exampleSecretProblem(name, resolved);
      if (problem) problems.push(problem);
      return resolved;
    } catch (error) {
      problems.push(`${key}: ${(error as Error).message}`);
      return '';
    }
  };
}
