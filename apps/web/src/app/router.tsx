import { Suspense, type ComponentType } from 'react';
import {
  Outlet,
  createBrowserRouter,
  matchRoutes,
  useRouteError,
  type DataRouter,
  type HydrationState,
  type LazyRouteFunction,
  type LoaderFunctionArgs,
  type Params,
  type Path,
  type RouteObject,
} from 'react-router';
import { sessionQueryOptions } from '../features/auth/api/get-session.ts';
import { TopProgressBar } from '../components/ui/top-progress-bar.tsx';
import { loadRouteData, type PageLoaderArgs } from './route-data.ts';
import { AppLayout } from './app-layout.tsx';
import { RouterProviders } from './providers.tsx';
import { RootErrorPage, RouteErrorPage } from './routes/route-error.tsx';
import {
  DASHBOARD_LAYOUT_MODULE,
  DASHBOARD_PATH,
  GUARD_MODULES,
  PAGE_LIST,
  type GuardRole,
  type Page,
} from './routes.manifest.ts';

/**
 * A page's module (named by the manifest, decision 016; loaded by React Router's route `lazy`,
 * decision 024): its `Component`, and optionally a `loader` that starts the page's reads with the
 * navigation (and, on the first page load, waits for them: route-data.ts).
 */
export interface RouteModule {
  Component: ComponentType;
  loader?: (args: PageLoaderArgs) => unknown;
}

/**
 * The route modules the manifest names and the not-found page, each its own lazy chunk. The error
 * page is part of the shell (it must render when a chunk fails to load), so it is not here.
 */
const routeModules = import.meta.glob<RouteModule>([
  './routes/**/*.tsx',
  '!./routes/route-error.tsx',
  '!./routes/**/*.test.tsx',
]);

/** The import of a module the manifest names (a missing file fails when the route table is built, and in tests). */
export function moduleImport(module: string): () => Promise<RouteModule> {
  const load = routeModules[`./${module}`];
  if (!load) throw new Error(`route module ${module} (routes.manifest.ts) does not exist`);
  return load;
}

/** What a route carries besides its code: the lazy module it renders, if any. */
export interface RouteHandle {
  module: string;
}

/** Whether the router is still on its first load (its state, not ours): a loader waits for its data only then. */
type FirstLoad = () => boolean;

/**
 * A route whose code is its module's chunk. React Router imports it when a navigation matches it
 * (and again after a failed download), then runs its loader.
 */
function moduleRoute(
  module: string,
  firstLoad: FirstLoad,
): { handle: RouteHandle; lazy: LazyRouteFunction<RouteObject> } {
  const load = moduleImport(module);
  const handle: RouteHandle = { module };
  return {
    handle,
    lazy: async () => {
      const { Component, loader } = await load();
      if (!loader) return { Component };
      return { Component, loader: (args: LoaderFunctionArgs) => loader({ ...args, firstLoad: firstLoad() }) };
    },
  };
}

/** A page's error, where React Router stops it (DESIGN §1.10): the layout around it stays usable. */
function PageError() {
  return <RouteErrorPage error={useRouteError()} />;
}

/** The last resort, above the layout. */
function RootError() {
  return <RootErrorPage error={useRouteError()} />;
}

/** A page's content area: a part of a page that loads on demand (React.lazy) shows the progress bar meanwhile. */
function PageOutlet() {
  return (
    <Suspense fallback={<TopProgressBar active />}>
      <Outlet />
    </Suspense>
  );
}

/** The progress bar while the first page's code and data arrive; then the page, in one render (decision 008). */
function FirstLoadFallback() {
  return <TopProgressBar active />;
}

/** The layouts' outlet, with its error boundary: errors of the pages below render inside the layout. */
function boundedPages(children: RouteObject[]): RouteObject {
  return { Component: PageOutlet, ErrorBoundary: PageError, children };
}

/** A page as a child route of the layout mounted at `base`: its path relative to it, or index. */
function childRoute(page: Page, base: string, firstLoad: FirstLoad): RouteObject {
  if (page.path === base) return { index: true, ...moduleRoute(page.module, firstLoad) };
  const prefix = base === '/' ? '/' : `${base}/`;
  if (!page.path.startsWith(prefix)) throw new Error(`${page.path} is not under ${base}`);
  return { path: page.path.slice(prefix.length), ...moduleRoute(page.module, firstLoad) };
}

/**
 * /dashboard and its children (spec §2): the layout requires login, and pages that need a role
 * sit under that role's guard (spec §6). Errors render inside the dashboard, so its menu stays usable.
 */
function dashboardRoute(pages: readonly Page[], firstLoad: FirstLoad): RouteObject {
  const anyone = pages.filter((page) => page.access === 'signed-in');
  const byRole = (Object.keys(GUARD_MODULES) as GuardRole[]).map((role): RouteObject => ({
    ...moduleRoute(GUARD_MODULES[role], firstLoad),
    children: pages.filter((page) => page.access === role).map((page) => childRoute(page, DASHBOARD_PATH, firstLoad)),
  }));
  return {
    path: DASHBOARD_PATH.slice(1),
    ...moduleRoute(DASHBOARD_LAYOUT_MODULE, firstLoad),
    children: [boundedPages([...anyone.map((page) => childRoute(page, DASHBOARD_PATH, firstLoad)), ...byRole])],
  };
}

/**
 * The route table, derived from the manifest. Every page is a route-level lazy import, home
 * included: the shell is what all pages share, so / loads no form, catalogue or dashboard code
 * and the other pages no carousel. The root's loader reads the session, which the navbar and every
 * guard need; it is kept up to date by the auth provider's query, so the loader does not run again
 * on later navigations.
 */
export function buildRoutes(
  pages: readonly Page[] = PAGE_LIST,
  { firstLoad = () => false }: { firstLoad?: FirstLoad } = {},
): RouteObject[] {
  const publicPages = pages.filter((page) => page.access === 'public');
  const guardedPages = pages.filter((page) => page.access !== 'public');
  return [
    {
      id: 'root',
      Component: RouterProviders,
      ErrorBoundary: RootError,
      HydrateFallback: FirstLoadFallback,
      loader: ({ request, context }) =>
        loadRouteData(sessionQueryOptions(), { request, context, firstLoad: firstLoad() }),
      shouldRevalidate: () => false,
      children: [
        {
          Component: AppLayout,
          children: [
            boundedPages([
              ...publicPages.map((page) => childRoute(page, '/', firstLoad)),
              dashboardRoute(guardedPages, firstLoad),
              { path: '*', ...moduleRoute('routes/not-found.tsx', firstLoad) },
            ]),
          ],
        },
      ],
    },
  ];
}

/**
 * The app's router (decision 024): React Router's data router over the browser's history. Its
 * loaders wait for their data while it has not rendered yet (the first page load, decisions 008
 * and 020), and never after.
 */
export function createAppRouter(): DataRouter {
  // The first loaders may run before createBrowserRouter has returned: no router yet is a first load too.
  const created: { router?: DataRouter } = {};
  const firstLoad = () => created.router === undefined || !created.router.state.initialized;
  created.router = createBrowserRouter(buildRoutes(PAGE_LIST, { firstLoad }));
  return created.router;
}

/**
 * The app's router over a page the server rendered (decision 030): it starts from the server's
 * loader data, so no loader runs again, and with the modules of the matched routes already
 * imported (their chunks are preloaded with the HTML), so its first render is the server's
 * markup and not the HydrateFallback. React Router's documented way for lazy routes under SSR.
 */
export async function hydrateAppRouter(hydrationData: HydrationState): Promise<DataRouter> {
  const routes = buildRoutes(PAGE_LIST);
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, resolved);
      route.lazy = undefined;
    }),
  );
  return createBrowserRouter(routes, { hydrationData });
}

/** The lazy modules a URL's page renders, outermost first, with the URL's parameters. */
export function matchedModules(
  routeTable: RouteObject[],
  location: Partial<Path>,
): { module: string; params: Params }[] {
  return (matchRoutes(routeTable, location) ?? []).flatMap((match) => {
    const handle = match.route.handle as RouteHandle | undefined;
    return handle ? [{ module: handle.module, params: match.params }] : [];
  });
}
