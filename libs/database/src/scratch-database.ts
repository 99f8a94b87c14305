import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A throw-away database created by {@link createScratchDatabase}. */
export interface ScratchDatabase {
  /** Connection URL of the new database (same server and credentials as the admin URL). */
  readonly url: string;
  /** The generated database name. */
  readonly name: string;
  /** Drops the database, disconnecting whoever is still connected. Safe to call twice. */
  drop(): Promise<void>;
}

async function withClient<T>(connectionString: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString, application_name: 'fieldops-scratch-database' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a uniquely named, empty database on the server behind `adminUrl` (whose user needs CREATEDB)
 * for one test suite. Call `drop()` when done.
 */
export async function createScratchDatabase(adminUrl: string, prefix = 'test'): Promise<ScratchDatabase> {
  if (!/^[a-z_][a-z0-9_]{0,39}$/.test(prefix)) {
    throw new Error(
      `Scratch database prefix must be a lower-case identifier of at most 40 characters, got "${prefix}"`,
    );
  }
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));

  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      await withClient(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
      );
      dropped = true;
    },
  };
}
