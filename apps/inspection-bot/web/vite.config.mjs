// Vite builds the chat page (web/) into the bot's dist/web, which the bot serves: index.html (a template the bot
// fills with the page's language), hashed assets (the page's script with Web Chat and React bundled in, its
// styles), the web app manifest, icons, and the service worker at the page's scope (sw.js, with the list of
// hashed files it keeps for offline use written in). Relative URLs, so the page works under any path prefix.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Web Chat's ES module build imports three `*-es5` wrapper packages whose ES module entry is made by their own
 * install script (not run: package.json allowScripts). Their published `src/index.mjs` is the same module (it re-exports p-defer,
 * markdown-it-attrs or abort-controller), so the bundle takes it from there.
 */
function es5WrapperSource(name) {
  const file = fileURLToPath(new URL(`../../../node_modules/${name}/src/index.mjs`, import.meta.url));
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm install`);
  return file;
}
const SHELL_PLACEHOLDER = /(["'`])__CHAT_PAGE_SHELL__\1/;

/** Writes the build's file names into sw.js (the shell it caches), so each build has its own cache. */
function serviceWorkerShell() {
  return {
    name: 'chat-page-service-worker-shell',
    generateBundle(_options, bundle) {
      const worker = bundle['sw.js'];
      if (!worker || worker.type !== 'chunk') throw new Error('sw.js is missing from the build');
      const files = Object.keys(bundle)
        .filter((name) => name.startsWith('assets/') && /\.(js|css)$/.test(name))
        .sort()
        .map((name) => `./${name}`);
      if (!SHELL_PLACEHOLDER.test(worker.code)) throw new Error('sw.js has no shell placeholder');
      worker.code = worker.code.replace(SHELL_PLACEHOLDER, JSON.stringify(JSON.stringify(files)));
    },
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [serviceWorkerShell()],
  resolve: {
    alias: {
      'p-defer-es5': es5WrapperSource('p-defer-es5'),
      'markdown-it-attrs-es5': es5WrapperSource('markdown-it-attrs-es5'),
      'abort-controller-es5': es5WrapperSource('abort-controller-es5'),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    sourcemap: false,
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        sw: fileURLToPath(new URL('src/service-worker.ts', import.meta.url)),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
});
