import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { DatabaseLogger } from '../database-logger';
import { EmbeddedPostgresServer } from '../embedded-postgres-server';
import { announce, rememberTestServer } from './test-server-state';

const warningsToStderr: DatabaseLogger = {
  info: () => undefined,
  warn: (details, message) =>
    process.stderr.write(`[@fieldops/database] warning: ${message ?? ''} ${JSON.stringify(details)}\n`),
  error: (details, message) =>
    process.stderr.write(`[@fieldops/database] error: ${message ?? ''} ${JSON.stringify(details)}\n`),
};

async function describeRealServer(databaseUrl: string): Promise<string> {
  const { hostname, port, pathname } = new URL(databaseUrl);
  const where = `${hostname}:${port || '5432'}${pathname}`;
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    const result = await client.query<{ server_version: string }>('SHOW server_version');
    return `real PostgreSQL ${result.rows[0]?.server_version ?? '?'} at ${where} (DATABASE_URL)`;
  } catch (error) {
    throw new Error(
      `DATABASE_URL is set but PostgreSQL at ${where} is not usable: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Jest globalSetup for any package whose tests need PostgreSQL. With DATABASE_URL set (CI provides a real
 * server) it only checks and reports that server; otherwise it starts a throw-away embedded PostgreSQL on
 * a free port and exports its URL as DATABASE_URL to the test workers. Use together with global-teardown.
 * Tests should create their own database with createScratchDatabase(process.env.DATABASE_URL).
 */
export default async function globalSetup(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    announce(`tests use ${await describeRealServer(databaseUrl)}`);
    return;
  }
  const startedAt = Date.now();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fieldops-test-pg-'));
  const server = await EmbeddedPostgresServer.start({ dataDir, persistent: false, logger: warningsToStderr });
  rememberTestServer(server);
  process.env.DATABASE_URL = server.url;
  announce(
    `tests use embedded PostgreSQL ${server.serverVersion} at port ${server.port} (started in ${Date.now() - startedAt} ms; DATABASE_URL unset)`,
  );
}
