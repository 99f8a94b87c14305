import type { DataSource } from 'typeorm';
import { silentDatabaseLogger, type DatabaseLogger } from './database-logger';

/**
 * Default advisory lock key for migrations: the ASCII bytes of "fieldops" as a signed 64-bit integer.
 * Advisory locks are scoped to one database, so services sharing a server but not a database never contend.
 */
export const DEFAULT_MIGRATIONS_LOCK_KEY = 0x6669656c646f7073n;

/** Options for {@link runMigrationsUnderLock}. */
export interface RunMigrationsOptions {
  /** Advisory lock key (a signed 64-bit integer); defaults to {@link DEFAULT_MIGRATIONS_LOCK_KEY}. */
  lockKey?: bigint | number;
  logger?: DatabaseLogger;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function toLockKeyParameter(lockKey: bigint | number): string {
  if (typeof lockKey === 'number' && !Number.isSafeInteger(lockKey)) {
    throw new Error(`Migration lock key must be a safe integer, got ${lockKey}`);
  }
  const key = BigInt(lockKey);
  if (key < INT64_MIN || key > INT64_MAX) {
    throw new Error(`Migration lock key must fit in a signed 64-bit integer, got ${key}`);
  }
  return key.toString();
}

function configuredPoolSize(dataSource: DataSource): number | undefined {
  const extra = dataSource.options.extra as { max?: unknown } | undefined;
  const max = extra?.max ?? dataSource.options.poolSize;
  return typeof max === 'number' ? max : undefined;
}

/**
 * Runs the pending migrations of an initialized DataSource while holding a PostgreSQL session advisory
 * lock, so several replicas can start at once against the same (even empty) database: one applies the
 * migrations, the others wait and then find nothing left to do. Each migration runs in its own
 * transaction. The lock is held on a dedicated pooled connection, so the pool needs at least two
 * connections. Resolves with the names of the migrations this call applied (empty when none).
 */
export async function runMigrationsUnderLock(
  dataSource: DataSource,
  options: RunMigrationsOptions = {},
): Promise<string[]> {
  const logger = options.logger ?? silentDatabaseLogger;
  const lockKey = toLockKeyParameter(options.lockKey ?? DEFAULT_MIGRATIONS_LOCK_KEY);
  const poolSize = configuredPoolSize(dataSource);
  if (poolSize !== undefined && poolSize < 2) {
    throw new Error(
      `Cannot run migrations under a lock with a pool of ${poolSize} connection: one connection holds the lock, another runs the migrations`,
    );
  }
  if (!dataSource.isInitialized) {
    throw new Error('Cannot run migrations: the DataSource is not initialized');
  }

  const lockConnection = dataSource.createQueryRunner('master');
  await lockConnection.connect();
  try {
    const [attempt] = (await lockConnection.query('SELECT pg_try_advisory_lock($1::bigint) AS acquired', [
      lockKey,
    ])) as Array<{ acquired: boolean }>;
    if (!attempt?.acquired) {
      logger.info({ lockKey }, 'waiting for another instance to finish database migrations');
      const startedWaitingAt = Date.now();
      await lockConnection.query('SELECT pg_advisory_lock($1::bigint)', [lockKey]);
      logger.info(
        { lockKey, waitedMs: Date.now() - startedWaitingAt },
        'acquired the database migration lock',
      );
    }
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      const names = applied.map((migration) => migration.name);
      if (names.length > 0) {
        logger.info({ migrations: names }, `applied ${names.length} database migration(s)`);
      } else {
        logger.info({}, 'database schema is up to date');
      }
      return names;
    } finally {
      // A failed unlock must not hide the migration outcome; the lock is session-scoped and goes with
      // the connection at the latest.
      await lockConnection
        .query('SELECT pg_advisory_unlock($1::bigint)', [lockKey])
        .catch((error: unknown) =>
          logger.warn({ err: error, lockKey }, 'could not release the database migration lock'),
        );
    }
  } catch (error) {
    logger.error({ err: error }, 'database migrations failed');
    throw error;
  } finally {
    await lockConnection.release();
  }
}
