import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { firstLoadReport } from './first-load-report.ts';

const VENDOR =
  /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/]query-core|@tanstack[\\/]react-query)[\\/]/;
const ONLY_FOR_ACTIONS = /@tanstack[\\/](query-core|react-query)[\\/].*[\\/](mutationObserver|useMutation)\.js$/;

/** Where `vite` (dev) and `vite preview` forward /api. */
const API_TARGET = process.env.SKILLHIVE_API_TARGET ?? 'http://127.0.0.1:3000';
/**
 * better-auth only accepts requests whose Origin is the server's PUBLIC_URL (default
 * http://localhost:3000). Through the dev proxy the browser's Origin is Vite's, so it is
 * rewritten to the server's own.
 */
const API_ORIGIN = process.env.SKILLHIVE_API_ORIGIN ?? 'http://localhost:3000';

const apiProxy = {
  '/api': {
    target: API_TARGET,
    changeOrigin: false,
    configure(proxy: {
      on(
        event: 'proxyReq',
        listener: (request: { getHeader(name: string): unknown; setHeader(name: string, value: string): void }) => void,
      ): void;
    }) {
      proxy.on('proxyReq', (request) => {
        if (request.getHeader('origin')) request.setHeader('origin', API_ORIGIN);
      });
    },
  },
};

/**
 * The server serves apps/web/dist with an SPA fallback, so the build must land there.
 * Public routes must not pull dashboard code or charts: every route, home included, is its own
 * lazy module (route `lazy` in src/app/router.tsx), and the framework libraries share one long-cached
 * vendor chunk.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), firstLoadReport()],
  server: { host: '127.0.0.1', proxy: apiProxy },
  preview: { host: '127.0.0.1', proxy: apiProxy },
  build: {
    // The server entry (`vite build --ssr`, decision 030) goes beside the browser's build, not into
    // what the server serves, and without a second copy of public/.
    outDir: fileURLToPath(new URL(isSsrBuild ? './dist-ssr' : './dist', import.meta.url)),
    emptyOutDir: true,
    copyPublicDir: !isSsrBuild,
    assetsDir: 'assets',
    // No data: URIs, so a strict img-src/font-src CSP of 'self' holds.
    assetsInlineLimit: 0,
    target: 'es2022',
    // Every browser of the es2022 target but Safari 16 preloads modules itself; without the
    // polyfill Safari 16 still runs the app, it only fetches the chunks a moment later.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // The framework and TanStack Query, which the shell needs on every page: one long-cached
              // chunk rather than pieces split by which lazy route also imports them. Mutations are
              // left out: only pages with a form or an action use them, so the home page and the
              // catalogue do not download them (they go with those pages' chunks).
              name: 'react-vendor',
              test: (id) => VENDOR.test(id) && !ONLY_FOR_ACTIONS.test(id),
              priority: 2,
            },
          ],
        },
      },
    },
  },
}));
