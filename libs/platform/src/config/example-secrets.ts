/**
 * Secrets that are published (in docker-compose.yml's old fallbacks, the example platform configuration, the docs)
 * are no secrets: anyone could mint tokens with them. Outside tests every app refuses them at start-up, naming the
 * variable (or the configuration key) that holds one.
 */

/** The prefix of the placeholder values the deployment files and docs show (`change-me-…`). */
export const EXAMPLE_SECRET_PREFIX = 'change-me';

/**
 * The literal secrets `infra/config/platform.example.yaml` falls back to (`${NAME:-value}`): usable by the test
 * suites, refused by a running app. example-secrets.spec.ts checks this list against the file.
 */
export const PUBLISHED_EXAMPLE_SECRETS: ReadonlySet<string> = new Set([
  'inspection-bot-dev-password',
  'demo-directline-secret-0001',
  'demo-directline-secret-0002',
  'demo-translator-key-0000000000000001',
  'demo-translator-key-0000000000000002',
]);

/** Whether `value` is a published example or placeholder secret. */
export function isExampleSecret(value: string): boolean {
  return value.toLowerCase().startsWith(EXAMPLE_SECRET_PREFIX) || PUBLISHED_EXAMPLE_SECRETS.has(value);
}

/**
 * Example secrets are accepted only in a test run: `NODE_ENV=test` in the app's environment (or, when the
 * environment does not say, in the process's, as jest sets it).
 */
export function exampleSecretsAllowed(
  environment: NodeJS.ProcessEnv,
  processEnvironment: NodeJS.ProcessEnv,
): boolean {
  return (environment.NODE_ENV ?? processEnvironment.NODE_ENV) === 'test';
}

/** The problem to report for `name` when it holds an example secret (undefined when it does not). */
export function exampleSecretProblem(name: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || !isExampleSecret(value)) return undefined;
  return (
    `${name}: holds a published example value (${value.toLowerCase().startsWith(EXAMPLE_SECRET_PREFIX) ? `"${EXAMPLE_SECRET_PREFIX}…"` : 'from the example files'}); ` +
    'set a secret of your own (e.g. `openssl rand -base64 32`)'
  );
}
