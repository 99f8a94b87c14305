import { buildPostgresDataSourceOptions, type DatabaseLogger } from '@fieldops/database';
import { type DataSourceOptions } from 'typeorm';
import { CreateUsers1732240000000 } from './migrations/1732240000000-create-users';

/** Every migration, in order. New ones are appended here (and never edited once released). */
export const INSPECTION_MIGRATIONS = [CreateUsers1732240000000];

/** The one DataSource definition: used by the app and by the migration command alike. */
export function inspectionDataSourceOptions(
  url: string,
  poolSize: number,
  logger?: DatabaseLogger,
): DataSourceOptions {
  return buildPostgresDataSourceOptions({
    url,
    entities: [],
    migrations: INSPECTION_MIGRATIONS,
    poolSize,
    applicationName: 'inspection-api',
    logger,
  });
}
