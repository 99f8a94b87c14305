/**
 * The API lives on the console's own origin: the console is served at `<origin>/console/` (npm start, nginx in
 * compose and Kubernetes) and the API at `<origin>/api/`, so `../api/` from the page resolves to it; under Vite's
 * dev server (page at `/`) it is `/api/`, which the dev server proxies.
 */
export function apiUrl(path: string, query?: URLSearchParams): string {
  const base = new URL(
    window.location.pathname.startsWith('/console') ? '../api/' : '/api/',
    window.location.href,
  );
  const url = new URL(path.replace(/^\//, ''), base);
  if (query) url.search = query.toString();
  return url.toString();
}
