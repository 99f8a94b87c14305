import { runMigrationsUnderLock } from '@fieldops/database';
import {
  HttpFront,
  pageContentSecurityPolicy,
  type StartedService,
  startService,
  type StartServiceOptions,
} from '@fieldops/platform';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { type TrustProxy } from '@fieldops/platform';
import { authorizationHeaderMiddleware } from './auth/authorization-header';
import { inspectionKeyRing } from './auth/inspection-key-ring';
import { DrfExpressAdapter, writeRepresentation } from './drf/json-renderer';
import { bodyParsingMiddleware } from './drf/request-input';
import { apiHeadersMiddleware } from './drf/routes';
import { allowedHostsMiddleware } from './hosts/allowed-hosts';
import { InspectionApiEnvironment } from './config/inspection-api.environment';
import { CONSOLE_PATH, consoleStaticRouter } from './console/console-static';
import { resolveDatabaseUrl } from './database/database-url';
import { InspectionApiModule } from './inspection-api.module';
import { UsersService } from './users/users.service';

export const OPENAPI_DESCRIPTION = `Devices, check items, check plans and check records, with JWT authentication (simplejwt-compatible).

Wire format: Django REST Framework's. Errors are \`{"detail": "..."}\` or an object of field → messages; 401 carries \`WWW-Authenticate: Bearer realm="api"\`; 405 carries \`Allow\`.

Decisions where the spec is silent: device \`code\` is unique; deleting a device deletes its items and records (and removes it from plans); deleting a plan or an item sets the records' \`plan\` / \`item\` to null; \`active\` defaults to true; plan \`devices\` is a non-empty list of existing, distinct ids (duplicates are a 400). Lists of devices, plans and records are paged (\`page\`, \`page_size\`: default 20, at most 100, larger values clamped, invalid values fall back to the default; an invalid page is 404 \`{"detail":"Invalid page."}\`), ordered by id; \`GET /api/items/\` returns a bare array. Token operations answer 201 and need no bearer header; access tokens live 5 minutes, refresh tokens 1 day (configurable). Record photos and attachments are uploaded with multipart/form-data (parts \`photo\` and \`attachment\`), served at the absolute \`/media/...\` URLs the record shows; \`photo\` must be an image (checked by content); each file is at most 10 MB by default (413 beyond). Paths work with and without the trailing slash.`;

function configureOpenApi(app: NestExpressApplication): void {
  const config = new DocumentBuilder()
    .setTitle('FieldOps inspection API')
    .setVersion('v1')
    .setDescription(OPENAPI_DESCRIPTION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // Only the API's operations (not /healthz, /readyz, /metrics); the spec's paths end with a slash (both forms
  // are served), a file's (`/api/records/export.csv`) does not.
  document.paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .map(([path, item]) => [path.endsWith('/') || /\.\w+$/.test(path) ? path : `${path}/`, item]),
  );
  // Swagger UI is a page: its own scripts and styles, inline styles, data: icons, "Try it out" on this origin.
  const policy = pageContentSecurityPolicy({ paths: ['/api/docs', '/api/docs/'] });
  app.use(policy);
  app.get(HttpFront).use(policy);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/schema',
    yamlDocumentUrl: 'api/schema.yaml',
  });
}

/** Validates the configuration, prepares the database (embedded when DATABASE_URL is unset), migrates, listens. */
export function startInspectionApi(
  options: StartServiceOptions = {},
): Promise<StartedService<InspectionApiEnvironment>> {
  return startService(
    {
      service: 'inspection-api',
      environmentSchema: InspectionApiEnvironment,
      port: (environment) => environment.INSPECTION_API_PORT,
      publicUrl: (environment) => environment.INSPECTION_PUBLIC_URL,
      // The chat page (another origin) shows record photos from /media.
      crossOriginResources: 'cross-origin',
      // Handlers return representations; the adapter sends DRF's bytes.
      httpAdapter: () => new DrfExpressAdapter(),
      module: async ({ environment, logger, onClosed }) =>
        InspectionApiModule.forRoot({
          environment,
          logger,
          databaseUrl: await resolveDatabaseUrl(environment, logger, onClosed),
          keyRing: inspectionKeyRing(environment, logger),
        }),
      configure: async (app, { environment, logger }) => {
        // DRF sends no ETag (Django's ConditionalGetMiddleware is not in its stack); Express would hash every body.
        app.set('etag', false);
        // The `@FastPath()` routes (the devices list) run the same app-wide middleware, in the same order, on Node's
        // request, and reply with the adapter's bytes (docs/architecture/request-pipeline.md).
        const front = app.get(HttpFront);
        front.setReply(writeRepresentation);
        const use = (middleware: Parameters<HttpFront['use']>[0]): void => {
          app.use(middleware);
          front.use(middleware);
        };
        use(
          allowedHostsMiddleware(
            environment.INSPECTION_ALLOWED_HOSTS,
            environment.INSPECTION_PUBLIC_URL,
            // The `trust proxy` setting as Express compiled it (startService set it from TRUST_PROXY).
            (app.getHttpAdapter().getInstance() as { get(setting: string): unknown }).get(
              'trust proxy fn',
            ) as TrustProxy,
          ),
        );
        if (environment.INSPECTION_CONSOLE_DIR) {
          // The console is a page of this origin: its own scripts and styles, inline styles (emotion), data: and
          // blob: images (photo previews), the API and media on this origin.
          use(
            pageContentSecurityPolicy({ paths: [`${CONSOLE_PATH}/`], directives: { 'img-src': ['blob:'] } }),
          );
          const console = consoleStaticRouter(environment.INSPECTION_CONSOLE_DIR);
          app.use(console);
          // Its routes answer only paths under /console, which no fast route has: nothing to run on the fast path.
          front.model(console);
        }
        use(apiHeadersMiddleware);
        use(authorizationHeaderMiddleware);
        for (const parser of bodyParsingMiddleware({
          maxBodyBytes: environment.INSPECTION_MAX_BODY_BYTES,
          maxFileBytes: Math.max(
            environment.INSPECTION_MAX_PHOTO_BYTES,
            environment.INSPECTION_MAX_ATTACHMENT_BYTES,
          ),
          maxJsonDepth: environment.JSON_MAX_DEPTH,
        })) {
          app.use(parser);
          // A request the fast path serves (a GET) has no body (one with a body is left to Express): the parsers
          // would only record an empty body, which no GET handler reads.
          front.model(parser);
        }
        configureOpenApi(app);
        if (environment.DATABASE_MIGRATIONS_RUN) {
          await runMigrationsUnderLock(app.get(DataSource), {
            logger: logger.child({ component: 'migrations' }),
          });
        }
        if (environment.INSPECTION_ADMIN_USERNAME && environment.INSPECTION_ADMIN_PASSWORD) {
          await app
            .get(UsersService)
            .ensureUser(environment.INSPECTION_ADMIN_USERNAME, environment.INSPECTION_ADMIN_PASSWORD);
        } else if (!(await app.get(UsersService).anyUser())) {
          // Nobody can sign in yet: say how to make the first (supervisor) account.
          logger.warn(
            {
              create: "echo '<password>' | npm run users -w @fieldops/inspection-api -- create <username>",
              or: 'set INSPECTION_ADMIN_USERNAME and INSPECTION_ADMIN_PASSWORD',
            },
            'no user yet: create a supervisor to sign in with (npm start makes one and prints it)',
          );
        }
      },
    },
    options,
  );
}
