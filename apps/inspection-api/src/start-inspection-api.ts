import { runMigrationsUnderLock } from '@fieldops/database';
import { type StartedService, startService, type StartServiceOptions } from '@fieldops/platform';
import { DataSource } from 'typeorm';
import { inspectionKeyRing } from './auth/inspection-key-ring';
import { InspectionApiEnvironment } from './config/inspection-api.environment';
import { resolveDatabaseUrl } from './database/database-url';
import { InspectionApiModule } from './inspection-api.module';

/** Validates the configuration, prepares the database (embedded when DATABASE_URL is unset), migrates, listens. */
export function startInspectionApi(
  options: StartServiceOptions = {},
): Promise<StartedService<InspectionApiEnvironment>> {
  return startService(
    {
      service: 'inspection-api',
      environmentSchema: InspectionApiEnvironment,
      port: (environment) => environment.INSPECTION_API_PORT,
      module: async ({ environment, logger, onClosed }) =>
        InspectionApiModule.forRoot({
          environment,
          logger,
          databaseUrl: await resolveDatabaseUrl(environment, logger, onClosed),
          keyRing: inspectionKeyRing(environment, logger),
        }),
      configure: async (app, { environment, logger }) => {
        if (environment.DATABASE_MIGRATIONS_RUN) {
          await runMigrationsUnderLock(app.get(DataSource), {
            logger: logger.child({ component: 'migrations' }),
          });
        }
      },
    },
    options,
  );
}
