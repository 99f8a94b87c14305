import type { EmbeddedPostgresServer } from '../embedded-postgres-server';

// Jest runs globalSetup and globalTeardown in the same (parent) process; the server travels between them
// on a well-known global, which also works when the two files are loaded by different module loaders.
const STATE_KEY = Symbol.for('@fieldops/database/testing/embedded-server');

type StateHolder = { [STATE_KEY]?: EmbeddedPostgresServer };

export function rememberTestServer(server: EmbeddedPostgresServer): void {
  (globalThis as StateHolder)[STATE_KEY] = server;
}

export function takeTestServer(): EmbeddedPostgresServer | undefined {
  const holder = globalThis as StateHolder;
  const server = holder[STATE_KEY];
  delete holder[STATE_KEY];
  return server;
}

/** The single line telling a CI log which PostgreSQL the tests ran against. */
export function announce(line: string): void {
  process.stderr.write(`[@fieldops/database] ${line}\n`);
}
