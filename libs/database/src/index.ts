export { silentDatabaseLogger, type DatabaseLogger } from './database-logger';
export {
  buildPostgresDataSourceOptions,
  DEFAULT_POOL_SIZE,
  MIGRATIONS_TABLE_NAME,
  type PostgresDataSourceOptions,
  type PostgresDataSourceSettings,
} from './data-source-options';
export {
  DEFAULT_MIGRATIONS_LOCK_KEY,
  runMigrationsUnderLock,
  type RunMigrationsOptions,
} from './migrations-runner';
export { EmbeddedPostgresServer, type EmbeddedPostgresServerOptions } from './embedded-postgres-server';
export { createScratchDatabase, type ScratchDatabase } from './scratch-database';
export { checkDatabaseReady } from './database-readiness';
export { TypeOrmDatabaseLogger } from './typeorm-logger';
