import { gzipSync } from 'node:zlib';
import type { Logger, Plugin } from 'vite';
import { EVERY_PAGE_DATA, ROUTE_DATA, ROUTE_IMAGES } from './src/app/first-render-urls.ts';
import {
  DASHBOARD_LAYOUT_MODULE,
  GUARD_MODULES,
  PAGE_LIST,
  PUBLIC_PAGES,
  type Page,
} from './src/app/routes.manifest.ts';

/** DESIGN §6: the JavaScript a public page needs before it can run. */
export const FIRST_LOAD_BUDGET_KB = 150;

/**
 * Written beside index.html: for each public route, `modules` — the chunks its lazy route module
 * needs beyond those index.html already preloads —, `data` — the API reads its first render
 * waits for (the manifest's `firstRender`, as URLs by src/app/first-render-urls.ts) — and `images`
 * — the image it paints largest at first (ROUTE_IMAGES there). The server puts them into the
 * index.html it answers that route with (`<link rel="modulepreload">`, `<link rel="preload"
 * as="fetch">`, `<link rel="preload" as="image">`, apps/server/src/plugins/static-web.ts), so the
 * browser fetches the page's code, data and main image with the shell instead of after running it.
 * On a page the server renders, the code's tags wait in a template until the first paint
 * (decision 049): the same files, loaded later, so the same first load.
 */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

interface ChunkInfo {
  code: string;
  imports: string[];
  dynamicImports: string[];
  isEntry: boolean;
  facadeModuleId: string | null;
  /** The stylesheets Vite loads with the chunk (the entry's are linked in index.html). */
  viteMetadata?: { importedCss: Set<string> };
}

/** The lazy modules a page's first load runs, outermost first (src/app/router.tsx nests them so). */
function moduleChain(page: Page): string[] {
  if (page.access === 'public') return [page.module];
  const guard = page.access === 'signed-in' ? [] : [GUARD_MODULES[page.access]];
  return [DASHBOARD_LAYOUT_MODULE, ...guard, page.module];
}

/**
 * After `vite build`, prints each page's first-load JavaScript, read from the route manifest
 * (src/app/routes.manifest.ts): the entry and its static imports (what index.html preloads) plus
 * the page's lazy chunks and their static imports, gzipped at level 9. A public page over the
 * budget is reported as a build warning; the end-to-end suite (e2e/tests/routes.spec.ts) fails
 * on it. Dashboard pages are listed for comparison (no budget). The public pages' chunk lists,
 * with their data, are emitted as ROUTE_PRELOADS_FILE, and index.html names EVERY_PAGE_DATA.
 */
export function firstLoadReport(): Plugin {
  let logger: Logger | undefined;
  let base = '/';
  return {
    name: 'skillhive-first-load-report',
    // The browser's build only: the server entry's (decision 030) is no page's first load.
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      logger = config.logger;
      base = config.base;
    },
    transformIndexHtml() {
      return EVERY_PAGE_DATA.map((url) => ({
        tag: 'link',
        attrs: { rel: 'preload', as: 'fetch', crossorigin: true, href: url },
        injectTo: 'head' as const,
      }));
    },
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      const stylesheets = new Map<string, string | Uint8Array>();
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type === 'chunk') chunks.set(fileName, output);
        else if (fileName.endsWith('.css')) stylesheets.set(fileName, output.source);
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
      // A page's stylesheets block its first paint: the entry's are linked in index.html, and a lazy
      // chunk's are loaded before the chunk runs (decision 033).
      const cssKB = (files: Set<string>) => {
        const sheets = new Set([...files].flatMap((file) => [...(chunks.get(file)!.viteMetadata?.importedCss ?? [])]));
        return [...sheets].reduce((sum, sheet) => {
          const source = stylesheets.get(sheet);
          return source === undefined ? sum : sum + gzipSync(source, { level: 9 }).length / 1024;
        }, 0);
      };
      const chunkOf = (module: string) =>
        [...chunks].find(([, c]) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(`src/app/${module}`))?.[0];
      // FIRST_LOAD_FILES=1 lists each page's files with their sizes, largest questions first.
      const listFiles = process.env['FIRST_LOAD_FILES'] === '1';
      const shell = closure([...chunks].filter(([, c]) => c.isEntry).map(([file]) => file));

      const publicLines: string[] = [];
      const guardedLines: string[] = [];
      const preloads: Record<string, { modules: string[]; data: string[]; images: string[]; deferred: string[] }> = {};
      for (const page of PAGE_LIST) {
        const routeChunks = moduleChain(page).map(chunkOf);
        if (routeChunks.some((chunk) => !chunk)) {
          logger?.warn(`first-load report: no chunk for ${page.path} (${page.module})`);
          continue;
        }
        const files = closure(routeChunks as string[], new Set(shell));
        const kb = [...files].reduce((sum, file) => sum + sizeOf(file), 0);
        const line =
          `  ${page.path.padEnd(34)} ${kb.toFixed(1).padStart(6)} KB gzip  ${files.size} files` +
          `  + CSS ${cssKB(files).toFixed(1).padStart(5)} KB gzip` +
          (listFiles
            ? [...files].map((file) => `\n      ${sizeOf(file).toFixed(1).padStart(6)}  ${file}`).join('')
            : '');
        if (page.access !== 'public') {
          guardedLines.push(line);
          continue;
        }
        const own = [...files].filter((file) => !shell.has(file));
        // What the page's own code imports later, on use or after the first paint (a carousel's
        // Embla, the auth client): not part of its first load, so not preloaded. Listed for the
        // e2e routes spec, which allows exactly these beside the named scripts; the server ignores it.
        const later = closure(
          own.flatMap((file) => chunks.get(file)!.dynamicImports),
          new Set(files),
        );
        preloads[page.path] = {
          modules: own.map((file) => base + file),
          data: ROUTE_DATA[page.path] ?? [],
          images: ROUTE_IMAGES[page.path] ?? [],
          deferred: [...later].filter((file) => !files.has(file)).map((file) => base + file),
        };
        const over = kb > FIRST_LOAD_BUDGET_KB;
        publicLines.push(`${line}${over ? '  OVER BUDGET' : ''}`);
        if (over)
          logger?.warn(`${page.path} loads ${kb.toFixed(1)} KB of JavaScript (gzip), over ${FIRST_LOAD_BUDGET_KB} KB`);
      }
      if (Object.keys(preloads).length !== PUBLIC_PAGES.length)
        logger?.warn('first-load report: some public pages have no route preloads');
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(preloads, null, 2)}\n` });
      logger?.info(
        `\nfirst-load JavaScript per public route (budget ${FIRST_LOAD_BUDGET_KB} KB gzip), and its render-blocking CSS:\n${publicLines.join('\n')}` +
          `\nfirst-load JavaScript and CSS per dashboard route (no budget):\n${guardedLines.join('\n')}`,
      );
    },
  };
}
