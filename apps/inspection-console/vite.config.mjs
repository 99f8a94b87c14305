// Vite builds the console into dist/ with relative asset URLs, so the same files work under any path of the proxy
// (/console/ in npm start, nginx, compose and Kubernetes). `npm run dev` proxies /api and /media to a local API.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.CONSOLE_DEV_API_URL ?? 'http://127.0.0.1:8000';

export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000, sourcemap: false },
  server: { proxy: { '/api': apiTarget, '/media': apiTarget } },
});
