import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';

/**
 * Written by the web build beside index.html (apps/web/first-load-report.ts): for each public
 * route, the script chunks its lazy route module needs beyond those index.html preloads, and the
 * API reads its first render waits for (declared in apps/web/src/app/routes.manifest.ts, turned
 * into URLs by apps/web/src/app/first-render-urls.ts).
 */
const ROUTE_PRELOADS_FILE = 'route-preloads.json';
const routePreloadsSchema = z.record(
  z.string().regex(/^\/[\w/-]*$/),
  z.object({
    modules: z.array(z.string().regex(/^\/assets\/[\w.-]+\.js$/)),
    data: z.array(z.string().regex(/^\/api\/[\w/-]+(\?[\w=&.,%-]*)?$/)),
  }),
);

/** The trailing slash is not part of a route: /teach/ is /teach. */
function routeOf(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** A page answer: index.html, or a public route's copy of it. */
type SpaPage = (pathname: string, search: string) => string;

/**
 * index.html as each page is answered with: a public route's copy names that route's chunks as
 * `<link rel="modulepreload">`, so the browser fetches them together with the shell rather than
 * after the shell has run and asked for them (one round trip less before the page can render).
 * Visited without a query string, it also names the API reads that page's first render waits for
 * as `<link rel="preload" as="fetch">` (decision 008); with one, the page asks for other data.
 * Read once at start-up, like the rest of the build, which a rebuild replaces along with a restart.
 */
function spaPages(root: string, indexHtml: string, log: FastifyInstance['log']): SpaPage {
  const file = path.join(root, ROUTE_PRELOADS_FILE);
  if (!existsSync(file)) return () => indexHtml;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    json = undefined;
  }
  const parsed = routePreloadsSchema.safeParse(json);
  if (!parsed.success) {
    log.warn(`${file} is not a route → { modules, data } map; pages are served without route preloads`);
    return () => indexHtml;
  }
  const withLinks = (links: string[]) =>
    links.length === 0 ? indexHtml : indexHtml.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
  const pages = new Map<string, { withData: string; withoutData: string }>();
  for (const [route, { modules, data }] of Object.entries(parsed.data)) {
    const moduleLinks = modules.map((url) => `<link rel="modulepreload" crossorigin href="${url}">`);
    // The schema admits no quote or angle bracket; & is the one character to escape.
    const dataLinks = data.map(
      (url) => `<link rel="preload" as="fetch" crossorigin href="${url.replaceAll('&', '&amp;')}">`,
    );
    pages.set(routeOf(route), {
      withData: withLinks([...moduleLinks, ...dataLinks]),
      withoutData: withLinks(moduleLinks),
    });
  }
  return (pathname, search) => {
    const page = pages.get(routeOf(pathname));
    if (!page) return indexHtml;
    return search === '' ? page.withData : page.withoutData;
  };
}

/** A GET or HEAD of a path that is not the API's nor a file's: a page of the web app. */
function isPageRequest(method: string, pathname: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return pathname !== '/api' && !pathname.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(pathname);
}

/**
 * The built web app: hashed assets cached for a year as immutable, everything else revalidated,
 * and index.html for a page path no route answers (SPA fallback: the web app's router has its own
 * not-found page). Everything else no route answers — the API, missing files, other methods —
 * goes on to the not-found handler of plugins/error-handler.ts, which answers the JSON 404.
 */
export const staticWebPlugin = fp(async function staticWeb(app: FastifyInstance, opts: { root: string }) {
  const index = path.join(opts.root, 'index.html');
  if (!existsSync(index)) {
    app.log.warn(`web app not built (${index} missing): run "npm run build"`);
    return;
  }
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const isHashed = filePath.startsWith(path.join(opts.root, 'assets') + path.sep);
      reply.header('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const spaPage = spaPages(opts.root, readFileSync(index, 'utf8'), app.log);
  // A hook on the not-found path rather than a '/*' route: a wildcard route would also catch what
  // the router refuses (an over-long /api/classes/:id is a 400 of its own, plugins/error-handler.ts).
  // As a preHandler it runs after the guards' onRequest hooks (input guard, lifecycle, CSRF).
  app.addHook('preHandler', async (request, reply) => {
    if (!request.is404) return;
    const queryAt = request.url.indexOf('?');
    const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    if (!isPageRequest(request.method, pathname)) return;
    const search = queryAt === -1 ? '' : request.url.slice(queryAt);
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(spaPage(pathname, search));
  });
});
