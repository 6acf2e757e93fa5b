import { gzipSync } from 'node:zlib';
import type { Logger, Plugin } from 'vite';

/** DESIGN §6: the JavaScript a public page needs before it can run. */
export const FIRST_LOAD_BUDGET_KB = 150;

/** Public pages and the route module each one lazily loads (src/app/router.tsx). */
const PUBLIC_ROUTES: Record<string, string> = {
  '/': 'src/app/routes/home.tsx',
  '/allClassAllowed': 'src/app/routes/all-classes.tsx',
  '/login': 'src/app/routes/login.tsx',
  '/signup': 'src/app/routes/signup.tsx',
  '/teach': 'src/app/routes/teach.tsx',
  '/forgot-password': 'src/app/routes/forgot-password.tsx',
  '/reset-password': 'src/app/routes/reset-password.tsx',
  '/email-verified': 'src/app/routes/email-verified.tsx',
};

interface ChunkInfo {
  code: string;
  imports: string[];
  isEntry: boolean;
  facadeModuleId: string | null;
}

/**
 * Written beside index.html: for each public route, `modules` — the chunks its lazy route module
 * needs beyond those index.html already preloads — and `data` — the API reads its first render
 * waits for (src/app/route-data.ts), as URLs. The server puts them into the index.html it answers
 * that route with (`<link rel="modulepreload">`, `<link rel="preload" as="fetch">`,
 * apps/server/src/plugins/static-web.ts), so the browser fetches the page's code and data with
 * the shell instead of after running it.
 */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

export interface RouteDataPreloads {
  /** API URLs every page's first render waits for: preloaded in index.html itself. */
  everyPage: string[];
  /** API URLs a public route's first render waits for, when it is visited without a query string. */
  routes: Record<string, string[]>;
}

/**
 * After `vite build`, prints each public route's first-load JavaScript: the entry and its static
 * imports (what index.html preloads) plus the route's lazy chunk and its static imports, gzipped
 * at level 9. A route over the budget is reported as a build warning; the end-to-end suite
 * (e2e/tests/routes.spec.ts) fails on it. The same chunk lists, with `data`, are emitted as
 * ROUTE_PRELOADS_FILE, and index.html names `data.everyPage`.
 */
export function firstLoadReport(data: RouteDataPreloads): Plugin {
  let logger: Logger | undefined;
  let base = '/';
  return {
    name: 'skillhive-first-load-report',
    apply: 'build',
    configResolved(config) {
      logger = config.logger;
      base = config.base;
    },
    transformIndexHtml() {
      return data.everyPage.map((url) => ({
        tag: 'link',
        attrs: { rel: 'preload', as: 'fetch', crossorigin: true, href: url },
        injectTo: 'head' as const,
      }));
    },
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type === 'chunk') chunks.set(fileName, output);
      }
      const closure = (start: string[], into = new Set<string>()) => {
        for (const file of start) {
          if (into.has(file) || !chunks.has(file)) continue;
          into.add(file);
          closure(chunks.get(file)!.imports, into);
        }
        return into;
      };
      const gzipKB = new Map<string, number>();
      const sizeOf = (file: string) => {
        if (!gzipKB.has(file)) gzipKB.set(file, gzipSync(chunks.get(file)!.code, { level: 9 }).length / 1024);
        return gzipKB.get(file)!;
      };
      const entries = [...chunks].filter(([, c]) => c.isEntry).map(([file]) => file);
      const shell = closure(entries);

      const lines: string[] = [];
      const preloads: Record<string, { modules: string[]; data: string[] }> = {};
      for (const route of Object.keys(data.routes)) {
        if (!(route in PUBLIC_ROUTES))
          logger?.warn(`first-load report: ${route} has first-render data but is not in PUBLIC_ROUTES`);
      }
      for (const [route, moduleId] of Object.entries(PUBLIC_ROUTES)) {
        const routeChunk = [...chunks].find(([, c]) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(moduleId));
        if (!routeChunk) {
          logger?.warn(`first-load report: no chunk for ${route} (${moduleId}); update PUBLIC_ROUTES`);
          continue;
        }
        const files = closure([routeChunk[0]], new Set(shell));
        preloads[route] = {
          modules: [...files].filter((file) => !shell.has(file)).map((file) => base + file),
          data: data.routes[route] ?? [],
        };
        const kb = [...files].reduce((sum, file) => sum + sizeOf(file), 0);
        const over = kb > FIRST_LOAD_BUDGET_KB;
        lines.push(
          `  ${route.padEnd(17)} ${kb.toFixed(1).padStart(6)} KB gzip  ${files.size} files${over ? '  OVER BUDGET' : ''}`,
        );
        if (over)
          logger?.warn(`${route} loads ${kb.toFixed(1)} KB of JavaScript (gzip), over ${FIRST_LOAD_BUDGET_KB} KB`);
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(preloads, null, 2)}\n` });
      logger?.info(
        `\nfirst-load JavaScript per public route (budget ${FIRST_LOAD_BUDGET_KB} KB gzip):\n${lines.join('\n')}`,
      );
    },
  };
}
