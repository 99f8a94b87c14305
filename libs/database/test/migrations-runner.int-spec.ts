import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { buildPostgresDataSourceOptions } from '../src/data-source-options';
import { silentDatabaseLogger, type DatabaseLogger } from '../src/database-logger';
import { runMigrationsUnderLock } from '../src/migrations-runner';
import { createScratchDatabase, type ScratchDatabase } from '../src/scratch-database';
import { adminDatabaseUrl } from './support/test-database';

class CreateMigrationRuns1700000000001 implements MigrationInterface {
  name = 'CreateMigrationRuns1700000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE TABLE migration_runs (id serial PRIMARY KEY, migration text NOT NULL)');
    // Hold the lock a little so the second replica really has to wait for it.
    await queryRunner.query('SELECT pg_sleep(0.3)');
    await queryRunner.query('INSERT INTO migration_runs (migration) VALUES ($1)', [this.name]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE migration_runs');
  }
}

class CreateWidgets1700000000002 implements MigrationInterface {
  name = 'CreateWidgets1700000000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE widgets (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), label text NOT NULL)',
    );
    await queryRunner.query('INSERT INTO migration_runs (migration) VALUES ($1)', [this.name]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE widgets');
  }
}

class BrokenMigration1700000000003 implements MigrationInterface {
  name = 'BrokenMigration1700000000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('SELECT * FROM table_that_does_not_exist');
  }

  down(): Promise<void> {
    return Promise.resolve();
  }
}

const migrations = [CreateMigrationRuns1700000000001, CreateWidgets1700000000002];
const migrationNames = ['CreateMigrationRuns1700000000001', 'CreateWidgets1700000000002'];

/** Advisory locks currently held in the scratch database (by any session). */
async function advisoryLocksHeld(dataSource: DataSource): Promise<number> {
  const [{ held }] = await dataSource.query<Array<{ held: number }>>(
    `SELECT count(*)::int AS held FROM pg_locks
      WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return held;
}

function recordingLogger(): DatabaseLogger & { messages: string[] } {
  const messages: string[] = [];
  const record = (_details: object, message?: string): void => {
    messages.push(message ?? '');
  };
  return { messages, debug: record, info: record, warn: record, error: record };
}

describe('runMigrationsUnderLock', () => {
  let scratch: ScratchDatabase;
  const dataSources: DataSource[] = [];

  async function connect(
    migrationClasses: Array<new () => MigrationInterface>,
    replica: string,
    typeormLogger: DatabaseLogger = silentDatabaseLogger,
  ): Promise<DataSource> {
    const dataSource = new DataSource(
      buildPostgresDataSourceOptions({
        url: scratch.url,
        entities: [],
        migrations: migrationClasses,
        poolSize: 3,
        applicationName: `migrations-spec-${replica}`,
        logger: typeormLogger,
      }),
    );
    dataSources.push(dataSource);
    return dataSource.initialize();
  }

  async function closeAll(): Promise<void> {
    await Promise.all(dataSources.splice(0).map((dataSource) => dataSource.destroy()));
  }

  beforeEach(async () => {
    scratch = await createScratchDatabase(adminDatabaseUrl(), 'migrations');
  });

  afterEach(async () => {
    await closeAll();
    await scratch.drop();
  });

  it('applies each migration exactly once when two replicas start together on an empty database', async () => {
    const [replicaA, replicaB] = await Promise.all([connect(migrations, 'a'), connect(migrations, 'b')]);
    const loggerA = recordingLogger();
    const loggerB = recordingLogger();

    const [appliedByA, appliedByB] = await Promise.all([
      runMigrationsUnderLock(replicaA, { logger: loggerA }),
      runMigrationsUnderLock(replicaB, { logger: loggerB }),
    ]);

    // Whoever got the lock first applied everything; the other found nothing left to do.
    expect([...appliedByA, ...appliedByB].sort()).toEqual(migrationNames);
    expect([appliedByA.length, appliedByB.length].sort()).toEqual([0, 2]);
    expect([...loggerA.messages, ...loggerB.messages]).toContain(
      'waiting for another instance to finish database migrations',
    );

    const recorded = await replicaA.query<Array<{ name: string }>>('SELECT name FROM migrations ORDER BY id');
    expect(recorded.map((row) => row.name)).toEqual(migrationNames);
    const runs = await replicaA.query<Array<{ migration: string; runs: number }>>(
      'SELECT migration, count(*)::int AS runs FROM migration_runs GROUP BY migration ORDER BY migration',
    );
    expect(runs).toEqual(migrationNames.map((migration) => ({ migration, runs: 1 })));
  });

  it('applies nothing on a second run and releases the lock', async () => {
    const dataSource = await connect(migrations, 'a');
    expect(await runMigrationsUnderLock(dataSource)).toEqual(migrationNames);
    expect(await runMigrationsUnderLock(dataSource)).toEqual([]);

    expect(await advisoryLocksHeld(dataSource)).toBe(0);
  });

  it('keeps the migrations that succeeded, reports the failure and releases the lock', async () => {
    const typeormLogger = recordingLogger();
    const dataSource = await connect([...migrations, BrokenMigration1700000000003], 'a', typeormLogger);
    const logger = recordingLogger();

    await expect(runMigrationsUnderLock(dataSource, { logger, lockKey: 42 })).rejects.toThrow(
      /table_that_does_not_exist/,
    );
    expect(logger.messages).toContain('database migrations failed');
    // TypeORM's own report goes to the logger too, not to the console.
    expect(typeormLogger.messages).toContainEqual(
      expect.stringMatching(/Migration "BrokenMigration1700000000003" failed/),
    );

    const recorded = await dataSource.query<Array<{ name: string }>>(
      'SELECT name FROM migrations ORDER BY id',
    );
    expect(recorded.map((row) => row.name)).toEqual(migrationNames); // transaction: 'each'
    expect(await advisoryLocksHeld(dataSource)).toBe(0);
  });

  it('refuses a pool that cannot hold the lock and run migrations at the same time', async () => {
    const dataSource = new DataSource(
      buildPostgresDataSourceOptions({ url: scratch.url, entities: [], migrations, poolSize: 1 }),
    );
    await expect(runMigrationsUnderLock(dataSource)).rejects.toThrow(/pool of 1 connection/);
  });

  it('refuses lock keys outside the signed 64-bit range', async () => {
    const dataSource = await connect(migrations, 'a');
    await expect(runMigrationsUnderLock(dataSource, { lockKey: 2 ** 60 })).rejects.toThrow(/safe integer/);
    await expect(runMigrationsUnderLock(dataSource, { lockKey: 2n ** 63n })).rejects.toThrow(/64-bit/);
    expect(await runMigrationsUnderLock(dataSource, { lockKey: -(2n ** 63n) })).toEqual(migrationNames);
  });
});
