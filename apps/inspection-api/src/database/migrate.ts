import 'reflect-metadata';
import { runMigrationsUnderLock } from '@fieldops/database';
import { ConfigurationError, createLogger, loadEnvironment } from '@fieldops/platform';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { resolveDatabaseUrl } from './database-url';
import { inspectionDataSourceOptions } from './inspection-data-source';

/** `npm run migration:run`: applies pending migrations once (safe beside running replicas) and exits. */
async function migrate(): Promise<void> {
  const environment = loadEnvironment(InspectionApiEnvironment, process.env, 'inspection-api migrations');
  const logger = createLogger({ service: 'inspection-api', level: environment.LOG_LEVEL }).child({
    component: 'migrations',
  });
  const cleanups: Array<() => Promise<void>> = [];
  try {
    const url = await resolveDatabaseUrl(environment, logger, (cleanup) => cleanups.push(cleanup));
    const dataSource = await new DataSource(inspectionDataSourceOptions(url, 2, logger)).initialize();
    try {
      const applied = await runMigrationsUnderLock(dataSource, { logger });
      logger.info(
        { applied },
        applied.length ? `applied ${applied.length} migration(s)` : 'database is up to date',
      );
    } finally {
      await dataSource.destroy();
    }
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

migrate().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigurationError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
