/**
 * The chat page's service worker (built to sw.js at the page's scope): the page shell (the page, its hashed
 * script and styles, manifest, icons) is kept in the Cache API, so a reload without a network still opens the
 * signed-in chat and its outbox. The page itself is network-first (a fresh one whenever the network answers),
 * the hashed files cache-first. The bot's API (api/...) and Direct Line never go through the cache.
 */

/** The few service-worker types used here (the page's tsconfig has the DOM library, not WebWorker's). */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ServiceWorkerScope {
  registration: { scope: string };
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}
const worker = self as unknown as ServiceWorkerScope;

/** The build's hashed files, written in by the build (vite.config.mjs); the cache's name changes with them. */
const BUILT: string[] = JSON.parse('__CHAT_PAGE_SHELL__') as string[];
const SHELL = ['./', './manifest.webmanifest', './icons/icon.svg', './icons/icon-192.png', ...BUILT];
const CACHE = `chat-page-${BUILT.join(',').length}-${BUILT[0] ?? 'dev'}`;

const scope = new URL(worker.registration.scope);
const pageUrl = new URL('./', scope).href;

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((path) => new URL(path, scope).href)))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => worker.clients.claim()),
  );
});

/** The page: from the network (and kept), else the kept one, whatever its query (`?device=`, `?locale=`). */
async function page(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(pageUrl, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(pageUrl);
    if (kept) return kept;
    throw error;
  }
}

/** A shell file: the kept copy, else the network's (kept for next time). */
async function shellFile(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.href.startsWith(scope.href)) return;
  const path = url.href.slice(scope.href.length).split('?')[0] ?? '';
  if (request.mode === 'navigate' && (path === '' || path.startsWith('d/'))) {
    event.respondWith(page(request));
  } else if (/^(assets|icons)\//.test(path) || path === 'manifest.webmanifest') {
    event.respondWith(shellFile(request));
  }
});
