import { Client } from 'pg';
import { createScratchDatabase } from '../src/scratch-database';
import { adminDatabaseUrl } from './support/test-database';

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('createScratchDatabase', () => {
  it('creates an empty, uniquely named database and drops it even while connections remain', async () => {
    const [first, second] = await Promise.all([
      createScratchDatabase(adminDatabaseUrl(), 'scratch'),
      createScratchDatabase(adminDatabaseUrl(), 'scratch'),
    ]);
    expect(first.name).not.toEqual(second.name);
    expect(first.name).toMatch(/^scratch_[a-z0-9]+_[0-9a-f]{8}$/);

    const lingering = new Client({ connectionString: first.url });
    lingering.on('error', () => undefined); // the forced drop terminates this session
    await lingering.connect();
    const current = await lingering.query<{ database: string; tables: number }>(
      "SELECT current_database() AS database, (SELECT count(*)::int FROM pg_tables WHERE schemaname = 'public') AS tables",
    );
    expect(current.rows).toEqual([{ database: first.name, tables: 0 }]);

    await first.drop();
    await first.drop(); // idempotent
    await second.drop();
    await lingering.end().catch(() => undefined);
    expect(await databaseExists(first.name)).toBe(false);
    expect(await databaseExists(second.name)).toBe(false);
  });

  it('rejects a prefix that is not a plain identifier', async () => {
    await expect(createScratchDatabase(adminDatabaseUrl(), 'Robert"); DROP')).rejects.toThrow(/prefix/);
  });
});
