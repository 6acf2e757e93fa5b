import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { getSessionCookie } from 'better-auth/cookies';
import { declareAccess } from '../lib/authorize.ts';
import type { CatalogueCache } from './catalogue-cache.ts';
import { allowCodeLoader, withCodeAfterPaint } from './code-after-paint.ts';
import { forwardedHeaders, inProcessFetch, type ServerRenderer } from './server-render.ts';

/**
 * Written by the web build beside index.html (apps/web/first-load-report.ts): for each public
 * route, the script chunks its lazy route module needs beyond those index.html preloads, the
 * API reads its first render waits for (declared in apps/web/src/app/routes.manifest.ts, turned
 * into URLs by apps/web/src/app/first-render-urls.ts) and the image it paints largest at first.
 */
const ROUTE_PRELOADS_FILE = 'route-preloads.json';
const routePreloadsSchema = z.record(
  // A route, with `:name` parameters (/classes/:id).
  z.string().regex(/^\/[\w/:-]*$/),
  z.object({
    modules: z.array(z.string().regex(/^\/assets\/[\w.-]+\.js$/)),
    // An API URL; `:name` is filled with the route's parameter of that name.
    data: z.array(z.string().regex(/^\/api\/[\w/:-]+(\?[\w=&.,%-]*)?$/)),
    // An image of the build's own (public/images), the page's largest first paint.
    images: z.array(z.string().regex(/^\/images\/[\w/.-]+\.(svg|png|jpg|webp|avif)$/)).default([]),
  }),
);

/** A parameter value we fill into a preload URL: an id, nothing that needs escaping. */
const SAFE_PARAM = /^[\w-]{1,64}$/;

/** What a shared link of a page shows (Open Graph, the document title), when the server knows it. */
export interface PageMeta {
  title: string;
  description: string;
  /** Absolute URL of an image. */
  image?: string | undefined;
}

/** The metadata of a page for a route with parameters (/classes/:id), or null to leave index.html's. */
export type PageMetaResolver = (route: string, params: Record<string, string>) => Promise<PageMeta | null>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text or attribute value into HTML: every character that could end one is escaped. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** A description for a meta tag: one line, at most 200 characters. */
function summary(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 197).trimEnd()}…` : line;
}

/**
 * index.html with the page's own title, description and Open Graph tags (so a shared
 * class link shows the class), every value escaped. The generic description is replaced.
 */
export function withPageMeta(html: string, meta: PageMeta, url: string): string {
  const title = escapeHtml(`${meta.title} — SkillHive`);
  const description = escapeHtml(summary(meta.description));
  const tags = [
    `<meta name="description" content="${description}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="SkillHive">`,
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="${description}">`,
    `<meta property="og:url" content="${escapeHtml(url)}">`,
    ...(meta.image ? [`<meta property="og:image" content="${escapeHtml(meta.image)}">`] : []),
    `<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}">`,
  ];
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
    .replace(/<meta\s+name="description"[^>]*>/, () => '')
    .replace('</head>', () => `  ${tags.join('\n    ')}\n  </head>`);
}

/** Open Graph wants absolute URLs; our images are usually served from our own origin (/uploads/…). */
function absoluteImage(meta: PageMeta, publicUrl: string): PageMeta {
  return meta.image?.startsWith('/') ? { ...meta, image: `${publicUrl}${meta.image}` } : meta;
}

/** `/classes/:id` → a matcher of pathnames giving the parameters, or null for a route without any. */
function routeMatcher(route: string): ((pathname: string) => Record<string, string> | null) | null {
  const names: string[] = [];
  const source = route
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  if (names.length === 0) return null;
  const pattern = new RegExp(`^${source}$`);
  return (pathname) => {
    const match = pattern.exec(pathname);
    if (!match) return null;
    try {
      return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    } catch {
      return null;
    }
  };
}

/** The trailing slash is not part of a route: /teach/ is /teach. */
function routeOf(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * A page answer: index.html, or a public route's copy of it. With `rendered` (the template of a
 * page the server renders), without its data preloads and with its code started after the first
 * paint (decision 049).
 */
type SpaPage = (pathname: string, search: string, rendered?: boolean) => Promise<string>;

/**
 * index.html as each page is answered with: a public route's copy names that route's chunks as
 * `<link rel="modulepreload">`, so the browser fetches them together with the shell rather than
 * after the shell has run and asked for them (one round trip less before the page can render).
 * Visited without a query string, it also names the API reads that page's first render waits for
 * as `<link rel="preload" as="fetch">` (decision 008); with one, the page asks for other data.
 * Its largest first image (the home page's first hero slide) is `<link rel="preload" as="image">`:
 * the browser cannot discover it before the page's code has rendered the `<img>`.
 * A route with parameters (/classes/:id) has them filled into its data URLs, and the page's own
 * title, description and Open Graph tags from `pageMeta`.
 * A page the server renders names the same code, but inside an inert template that a small inline
 * script starts after the first paint (decision 049): the rendered page has nothing to wait for.
 * Read once at start-up, like the rest of the build, which a rebuild replaces along with a restart.
 */
function spaPages(
  root: string,
  indexHtml: string,
  log: FastifyInstance['log'],
  meta: { pageMeta?: PageMetaResolver | undefined; publicUrl: string },
): SpaPage {
  const { pageMeta, publicUrl } = meta;
  const file = path.join(root, ROUTE_PRELOADS_FILE);
  const renderedIndex = withCodeAfterPaint(indexHtml);
  const plain: SpaPage = async (_pathname, _search, rendered = false) => (rendered ? renderedIndex : indexHtml);
  if (!existsSync(file)) return plain;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    json = undefined;
  }
  const parsed = routePreloadsSchema.safeParse(json);
  if (!parsed.success) {
    log.warn(`${file} is not a route → { modules, data, images } map; pages are served without route preloads`);
    return plain;
  }
  const withLinks = (html: string, links: string[]) =>
    links.length === 0 ? html : html.replace('</head>', () => `  ${links.join('\n    ')}\n  </head>`);
  const moduleLinksOf = (modules: string[]) =>
    modules.map((url) => `<link rel="modulepreload" crossorigin href="${url}">`);
  // The schema admits no quote or angle bracket; & is the one character to escape.
  const dataLinksOf = (data: string[]) =>
    data.map((url) => `<link rel="preload" as="fetch" crossorigin href="${url.replaceAll('&', '&amp;')}">`);
  // The page's largest first paint (its LCP image), fetched beside the code rather than after it.
  const imageLinksOf = (images: string[]) =>
    images.map((url) => `<link rel="preload" as="image" fetchpriority="high" href="${url}">`);

  const pages = new Map<string, { withData: string; withoutData: string; rendered: string }>();
  const patterns: {
    route: string;
    match: (pathname: string) => Record<string, string> | null;
    /** The links every visit of the route gets: its chunks and its first image. */
    code: string[];
    data: string[];
  }[] = [];
  for (const [route, { modules, data, images }] of Object.entries(parsed.data)) {
    const code = [...moduleLinksOf(modules), ...imageLinksOf(images)];
    const match = routeMatcher(route);
    if (match) {
      patterns.push({ route, match, code, data });
      continue;
    }
    const withoutData = withLinks(indexHtml, code);
    pages.set(routeOf(route), {
      withData: withLinks(indexHtml, [...code, ...dataLinksOf(data)]),
      withoutData,
      rendered: withCodeAfterPaint(withoutData),
    });
  }
  return async (pathname, search, rendered = false) => {
    const page = pages.get(routeOf(pathname));
    if (page) return rendered ? page.rendered : search === '' ? page.withData : page.withoutData;
    for (const { route, match, code, data } of patterns) {
      const params = match(routeOf(pathname));
      if (!params) continue;
      const safe = Object.values(params).every((value) => SAFE_PARAM.test(value));
      const filled =
        safe && search === '' && !rendered
          ? data.map((url) => url.replace(/:(\w+)/g, (_m, name: string) => params[name] ?? ''))
          : [];
      let html = withLinks(indexHtml, [...code, ...dataLinksOf(filled)]);
      const found = safe && pageMeta ? await pageMeta(route, params).catch(() => null) : null;
      if (found) html = withPageMeta(html, absoluteImage(found, publicUrl), `${publicUrl}${pathname}`);
      return rendered ? withCodeAfterPaint(html) : html;
    }
    return rendered ? renderedIndex : indexHtml;
  };
}

/**
 * Whether the request is a signed-in visitor's: a session cookie that names a session. A cookie
 * alone does not do (anyone can send one), or a forged cookie would make every request a render
 * of its own instead of the shared page.
 */
async function readSession(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<{ signedIn: boolean; setCookie: string[] }> {
  const headers = forwardedHeaders(request);
  if (getSessionCookie(new Headers(headers)) === null) return { signedIn: false, setCookie: [] };
  const answer = await app.inject({ method: 'GET', url: SESSION_PATH, headers, remoteAddress: request.ip });
  // better-auth renews a session past its update age (or clears a dead one) with Set-Cookie on
  // this read; the browser made it itself before decision 030, so the page passes it on.
  const setCookie = [answer.headers['set-cookie'] ?? []].flat().map(String);
  return { signedIn: answer.statusCode === 200 && sessionIn(answer.body), setCookie };
}

/** Whether a session read's body names a session (it is `null` without one). */
function sessionIn(body: string): boolean {
  try {
    return JSON.parse(body) !== null;
  } catch {
    return false;
  }
}

/** better-auth's session read, under our API (decision 004). */
const SESSION_PATH = '/api/auth/get-session';

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
export const staticWebPlugin = fp(async function staticWeb(
  app: FastifyInstance,
  opts: {
    root: string;
    publicUrl: string;
    pageMeta?: PageMetaResolver | undefined;
    /** The web app's server entry: public pages rendered per request (decision 030); null renders none. */
    renderer?: ServerRenderer | null | undefined;
    /** Where anonymous visitors' rendered pages are shared (plugins/catalogue-cache.ts). */
    sharedPages?: CatalogueCache | undefined;
  },
) {
  const origin = new URL(opts.publicUrl).origin;
  const index = path.join(opts.root, 'index.html');
  if (!existsSync(index)) {
    app.log.warn(`web app not built (${index} missing): run "npm run build"`);
    return;
  }
  // The files of the web app are public (decision 025): one route each, declared here.
  await app.register(async (files) => {
    declareAccess(files, 'public');
    await files.register(fastifyStatic, {
      root: opts.root,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders(reply, filePath) {
        const isHashed = filePath.startsWith(path.join(opts.root, 'assets') + path.sep);
        reply.header('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  });
  const spaPage = spaPages(opts.root, readFileSync(index, 'utf8'), app.log, {
    pageMeta: opts.pageMeta,
    publicUrl: opts.publicUrl.replace(/\/+$/, ''),
  });
  // A hook on the not-found path rather than a '/*' route: a wildcard route would also catch what
  // the router refuses (an over-long /api/classes/:id is a 400 of its own, plugins/error-handler.ts).
  // As a preHandler it runs after the guards' onRequest hooks (input guard, lifecycle, CSRF).
  // Synchronous for every routed request (the API, the catalogue): only the not-found path waits
  // for a page (decision 036).
  app.addHook('preHandler', (request, reply, done) => {
    if (!request.is404) return done();
    const queryAt = request.url.indexOf('?');
    const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    if (!isPageRequest(request.method, pathname)) return done();
    // Once the page is sent, done() runs no further hook (Fastify skips them for a sent reply).
    answerPage(request, reply, pathname, queryAt).then(() => done(), done);
  });

  async function answerPage(request: FastifyRequest, reply: FastifyReply, pathname: string, queryAt: number) {
    const search = queryAt === -1 ? '' : request.url.slice(queryAt);
    const renderer = opts.renderer;
    if (renderer?.rendersOnServer(routeOf(pathname))) {
      const render = async () => {
        const html = await renderer.render({
          url: `${origin}${request.url}`,
          template: await spaPage(pathname, search, true),
          headers: forwardedHeaders(request),
          fetch: inProcessFetch(app, request),
        });
        if (html === null) throw new Error('the page redirects: the browser follows it from the shell');
        return html;
      };
      reply.header('cache-control', 'no-cache');
      // The rendered page starts its code with an inline script, allowed by its hash (decision 049).
      const csp = reply.getHeader('content-security-policy');
      if (typeof csp === 'string') reply.header('content-security-policy', allowCodeLoader(csp));
      try {
        // An anonymous visitor's page is the same for every anonymous visitor: shared as the
        // catalogue is, for the same TTL. A signed-in visitor's names them: rendered for them alone.
        const session = await readSession(app, request);
        if (session.setCookie.length > 0) reply.header('set-cookie', session.setCookie);
        const anonymous = !session.signedIn;
        if (anonymous && opts.sharedPages)
          return await opts.sharedPages.sendHtml(request, reply, JSON.stringify(['page', request.url]), render);
        return reply.type('text/html; charset=utf-8').send(await render());
      } catch (error) {
        // The browser can still render the page from the shell, as it did before decision 030.
        if (typeof csp === 'string') reply.header('content-security-policy', csp);
        request.log.error({ err: error, page: pathname }, 'server render failed; answering with the shell');
      }
    }
    const html = await spaPage(pathname, search);
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  }
});
