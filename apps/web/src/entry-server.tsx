import { AsyncLocalStorage } from 'node:async_hooks';
import { Writable } from 'node:stream';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import {
  RouterContextProvider,
  StaticRouterProvider,
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
} from 'react-router';
import { dehydrate } from '@tanstack/react-query';
import { AppProviders } from './app/providers.tsx';
import { buildRoutes } from './app/router.tsx';
import { routeDataContext } from './app/route-data.ts';
import { PUBLIC_PAGES } from './app/routes.manifest.ts';
import { SERVER_STATE_ID, serializeServerState, type ServerState } from './app/server-state.ts';
import { setApiFetch } from './lib/api-client.ts';
import { createQueryClient } from './lib/query-client.ts';

/*
 * The server half of the data router (decisions 024 and 030): apps/server/src/plugins/server-render.ts
 * loads this module from the SSR build (dist-ssr/entry-server.js) and renders each public page per
 * request, on the same route table the browser runs.
 */

/** How the render reaches the API: the server answers it in its own process, never over the network. */
export type ApiFetch = (input: string, init: RequestInit) => Promise<Response>;

const requestFetch = new AsyncLocalStorage<ApiFetch>();
// The API client is one module for every render; each render's requests go to its own request's fetch.
setApiFetch(async (input, init) => {
  const send = requestFetch.getStore();
  if (!send) throw new Error('an API request outside a server render');
  return send(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, init ?? {});
});

const routes = buildRoutes();
const { query, dataRoutes } = createStaticHandler(routes);

/** Public pages only (DESIGN §2): the dashboard's pages stay rendered in the browser. */
const serverRoutes = PUBLIC_PAGES.map((page) => ({ path: page.path }));

/**
 * The answers of `rendersOnServer` so far. React Router's matchRoutes flattens and ranks the route
 * list on every call, which was most of a shared page's cost per request (a CPU profile under
 * load, BENCHMARKS.md); page requests ask about the same few paths again and again. Bounded: a
 * crawler's many paths only clear it.
 */
const renderedPaths = new Map<string, boolean>();
const RENDERED_PATHS_KEPT = 1_000;

/** Whether the server renders this path: a public page of the manifest. */
export function rendersOnServer(pathname: string): boolean {
  let rendered = renderedPaths.get(pathname);
  if (rendered === undefined) {
    rendered = matchRoutes(serverRoutes, pathname) !== null;
    if (renderedPaths.size >= RENDERED_PATHS_KEPT) renderedPaths.clear();
    renderedPaths.set(pathname, rendered);
  }
  return rendered;
}

export interface RenderInput {
  /** The page's absolute URL (query string included). */
  url: string;
  /** The page's index.html as the server answers it (its preloads and meta tags). */
  template: string;
  /** The visitor's request headers the page's reads need (the session cookie). */
  headers: Record<string, string>;
  fetch: ApiFetch;
}

const ROOT = '<div id="root"></div>';
/** The leading run of elements React hoists. */
const HOISTED = /^(?:<(?:link|meta)\b[^>]*>|<title>[^<]*<\/title>)*/;

/**
 * The document: the page's markup in #root and its state beside it. The data preloads go (the
 * data is in the page, decision 008's preloads are for pages the browser renders), and so does
 * the note that the page needs JavaScript: this one is readable without it.
 */
function document(template: string, rendered: string, state: string): string {
  if (!template.includes(ROOT)) throw new Error(`index.html has no ${ROOT}`);
  // React puts what its components hoist (the page's <title>, an image's preload) first; they
  // belong in the head, where the browser's React finds and keeps them.
  const hoisted = HOISTED.exec(rendered)?.[0] ?? '';
  const html = rendered.slice(hoisted.length);
  const head = hoisted.includes('<title>') ? template.replace(/<title>[^<]*<\/title>\s*/, '') : template;
  return head
    .replace('</head>', () => `  ${hoisted}\n  </head>`)
    .replace(/[ \t]*<link rel="preload" as="fetch"[^>]*>\n?/g, '')
    .replace(/<noscript>[\s\S]*?<\/noscript>\s*/, '')
    .replace(
      ROOT,
      () => `<div id="root">${html}</div><script type="application/json" id="${SERVER_STATE_ID}">${state}</script>`,
    );
}

async function collect(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    stream
      .pipe(
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        }),
      )
      .on('finish', resolve)
      .on('error', reject);
  });
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The page at `url`, rendered with its data: each render has its own query cache (no visitor's
 * answers reach another's), every loader's read awaited, and the whole tree — the parts loaded on
 * demand too — rendered before anything is sent. Null for a redirect, and an error when a route
 * fails: the server then answers with the shell, and the browser renders the page as before.
 */
export async function render(input: RenderInput): Promise<string | null> {
  const client = createQueryClient();
  const context = new RouterContextProvider();
  context.set(routeDataContext, { client, waitForAll: true });
  const request = new Request(input.url, { headers: input.headers });
  return requestFetch.run(input.fetch, async () => {
    const handled = await query(request, { requestContext: context });
    // A loader's redirect: the browser follows it from the shell, as before decision 030.
    if (handled instanceof Response) return null;
    if (handled.errors)
      throw new AggregateError(Object.values(handled.errors), 'a route of the page failed on the server');
    const router = createStaticRouter(dataRoutes, handled);
    const errors: unknown[] = [];
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <AppProviders client={client}>
          <StaticRouterProvider router={router} context={handled} hydrate={false} />
        </AppProviders>
      </StrictMode>,
      {
        // Complete parts are never split out of the page to be put in place by an inline script
        // (which the CSP refuses): the whole document is one piece, in order.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onError(error) {
          errors.push(error);
        },
      },
    );
    // A part that failed here would be left to the browser with an inline script the CSP refuses:
    // the whole page is then the browser's, as before decision 030.
    if (errors.length > 0) throw new AggregateError(errors, 'the page could not be rendered on the server');
    const html = await collect(prelude);
    const state: ServerState = { router: { loaderData: handled.loaderData }, queries: dehydrate(client) };
    client.clear();
    return document(input.template, html, serializeServerState(state));
  });
}
