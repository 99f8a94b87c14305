import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler, type Router } from 'express';

/** Where the supervisor console is served when `INSPECTION_CONSOLE_DIR` is set. */
export const CONSOLE_PATH = '/console';

/**
 * Serves the supervisor console's built files (`apps/inspection-console/dist`) at `/console/`, on the API's own
 * origin, so the single-page app reaches `/api` and `/media` without CORS. Vite names assets by content hash, so
 * they are cached for a year; `index.html` is always revalidated. `/console` redirects to `/console/` (the app's
 * relative asset URLs need the slash).
 */
export function consoleStaticRouter(directory: string): Router {
  if (!existsSync(join(directory, 'index.html'))) {
    throw new Error(
      `INSPECTION_CONSOLE_DIR: ${directory} has no index.html (build the console: npm run build -w @fieldops/inspection-console)`,
    );
  }
  const router = express.Router({ strict: true });
  const redirect: RequestHandler = (request, response) => {
    const query = request.originalUrl.slice(CONSOLE_PATH.length);
    response.redirect(301, `${CONSOLE_PATH}/${query.startsWith('?') ? query : ''}`);
  };
  router.get(CONSOLE_PATH, redirect);
  router.use(
    `${CONSOLE_PATH}/`,
    express.static(directory, {
      index: 'index.html',
      redirect: false,
      fallthrough: true,
      setHeaders: (response, path) => {
        response.setHeader(
          'Cache-Control',
          path.includes(`${join(directory, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    }),
  );
  return router;
}
