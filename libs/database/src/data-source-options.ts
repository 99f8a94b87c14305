import type { DataSourceOptions } from 'typeorm';
import type { DatabaseLogger } from './database-logger';
import { TypeOrmDatabaseLogger } from './typeorm-logger';

/** TypeORM's PostgreSQL flavour of {@link DataSourceOptions}. */
export type PostgresDataSourceOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

/** Inputs for {@link buildPostgresDataSourceOptions}. */
export interface PostgresDataSourceSettings {
  /** Connection URL, e.g. `postgres://user:password@host:5432/database`. */
  url: string;
  /** Entity classes, schemas or glob paths, exactly as TypeORM accepts them. */
  entities: NonNullable<PostgresDataSourceOptions['entities']>;
  /** Migration classes or glob paths, exactly as TypeORM accepts them. */
  migrations: NonNullable<PostgresDataSourceOptions['migrations']>;
  /** Upper bound of pooled connections per process (default 10). Migrations under lock need at least 2. */
  poolSize?: number;
  /** Shown in `pg_stat_activity.application_name` (default `fieldops`). */
  applicationName?: string;
  /** Which TypeORM messages to produce (default `false`: only migration and slow-query messages). */
  logging?: PostgresDataSourceOptions['logging'];
  /** Where TypeORM's messages go (pino-compatible). Without it TypeORM prints them to the console. */
  logger?: DatabaseLogger;
  /** How long to wait for a new connection before failing (default 5000 ms). */
  connectionTimeoutMillis?: number;
  /** How long an idle pooled connection is kept (default 30000 ms). */
  idleTimeoutMillis?: number;
  /** Server settings of every connection, as libpq's `options` (e.g. `-c jit=off`). */
  serverOptions?: string;
}

/** Default pool size per process. */
export const DEFAULT_POOL_SIZE = 10;
/** Name of the table that records applied migrations. */
export const MIGRATIONS_TABLE_NAME = 'migrations';

/**
 * Builds TypeORM options for PostgreSQL the way every FieldOps service uses it: the schema is owned by
 * migrations (never `synchronize`, never migrations at `initialize()`, no `CREATE EXTENSION`; use
 * `gen_random_uuid()` from core PostgreSQL for UUIDs) and the pool is bounded with explicit timeouts.
 */
export function buildPostgresDataSourceOptions(settings: PostgresDataSourceSettings): DataSourceOptions {
  const poolSize = settings.poolSize ?? DEFAULT_POOL_SIZE;
  if (!Number.isInteger(poolSize) || poolSize < 1) {
    throw new Error(`poolSize must be a positive integer, got ${String(settings.poolSize)}`);
  }
  const logging = settings.logging ?? false;
  const options: PostgresDataSourceOptions = {
    type: 'postgres',
    url: settings.url,
    entities: settings.entities,
    migrations: settings.migrations,
    migrationsTableName: MIGRATIONS_TABLE_NAME,
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    dropSchema: false,
    installExtensions: false,
    applicationName: settings.applicationName ?? 'fieldops',
    logging,
    ...(settings.logger ? { logger: new TypeOrmDatabaseLogger(settings.logger, logging) } : {}),
    extra: {
      max: poolSize,
      connectionTimeoutMillis: settings.connectionTimeoutMillis ?? 5_000,
      idleTimeoutMillis: settings.idleTimeoutMillis ?? 30_000,
      ...(settings.serverOptions ? { options: settings.serverOptions } : {}),
    },
  };
  return options;
}
