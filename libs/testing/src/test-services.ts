/**
 * The services the int and e2e tiers run against, named once: CI sets `DATABASE_URL` and `REDIS_URL`; for
 * PostgreSQL, the Jest global set-up of `@fieldops/database` starts an embedded server when it is unset.
 * A test that needs a service which is not there fails with the variable's name instead of a connection error.
 */
export function testDatabaseUrl(): string {
  return requiredVariable(
    'DATABASE_URL',
    'the Jest global set-up provides it (embedded PostgreSQL) unless CI sets it',
  );
}

/** The Redis the int tier uses. */
export function testRedisUrl(): string {
  return requiredVariable('REDIS_URL', 'start a redis-server and set it, as .ci/run does');
}

function requiredVariable(name: string, hint: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: ${hint}`);
  return value;
}
