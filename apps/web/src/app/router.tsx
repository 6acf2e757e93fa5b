import { createBrowserRouter, type LazyRouteFunction, type RouteObject } from 'react-router';
import { queryClient } from '../lib/query-client.ts';
import { sessionQueryOptions } from '../features/auth/api/get-session.ts';
import { endFirstPageLoad, loadRouteData } from './route-data.ts';
import { TopProgressBar } from '../components/ui/top-progress-bar.tsx';
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

type RouteModuleLoader = LazyRouteFunction<RouteObject>;

/**
 * The route modules the manifest names and the not-found page, each its own lazy chunk. The error
 * page is part of the shell (it must render when a chunk fails to load), so it is not here.
 */
const routeModules = import.meta.glob<Awaited<ReturnType<RouteModuleLoader>>>([
  './routes/**/*.tsx',
  '!./routes/route-error.tsx',
  '!./routes/**/*.test.tsx',
]);

/** The lazy loader of a module the manifest names (a missing file fails at start-up, and in tests). */
export function lazyModule(module: string): RouteModuleLoader {
  const load = routeModules[`./${module}`];
  if (!load) throw new Error(`route module ${module} (routes.manifest.ts) does not exist`);
  return load;
}

/** A page as a child route of the layout mounted at `base`: its path relative to it, or index. */
function childRoute(page: Page, base: string): RouteObject {
  const lazy = lazyModule(page.module);
  if (page.path === base) return { index: true, lazy };
  const prefix = base === '/' ? '/' : `${base}/`;
  if (!page.path.startsWith(prefix)) throw new Error(`${page.path} is not under ${base}`);
  return { path: page.path.slice(prefix.length), lazy };
}

/**
 * /dashboard and its children (spec §2): the layout requires login, and pages that need a role
 * sit under that role's guard (spec §6). Errors render inside the dashboard, so its menu stays usable.
 */
function dashboardRoute(pages: readonly Page[]): RouteObject {
  const anyone = pages.filter((page) => page.access === 'signed-in');
  const byRole = (Object.keys(GUARD_MODULES) as GuardRole[]).map((role) => ({
    lazy: lazyModule(GUARD_MODULES[role]),
    children: pages.filter((page) => page.access === role).map((page) => childRoute(page, DASHBOARD_PATH)),
  }));
  return {
    path: DASHBOARD_PATH.slice(1),
    lazy: lazyModule(DASHBOARD_LAYOUT_MODULE),
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [...anyone.map((page) => childRoute(page, DASHBOARD_PATH)), ...byRole],
      },
    ],
  };
}

function InitialLoad() {
  return <TopProgressBar active />;
}

/**
 * The route table, derived from the manifest. Every page is a route-level lazy import, home
 * included: the shell is what all pages share, so / loads no form, catalogue or dashboard code
 * and the other pages no carousel.
 */
export function buildRoutes(pages: readonly Page[] = PAGE_LIST): RouteObject[] {
  const publicPages = pages.filter((page) => page.access === 'public');
  const guardedPages = pages.filter((page) => page.access !== 'public');
  return [
    {
      id: 'root',
      // The navbar and every guard read the session: the first page renders with it.
      loader: () => loadRouteData(queryClient.prefetchQuery(sessionQueryOptions())),
      Component: RouterProviders,
      errorElement: <RootErrorPage />,
      HydrateFallback: InitialLoad,
      children: [
        {
          Component: AppLayout,
          children: [
            {
              // Errors render inside the layout, so the navbar stays usable.
              errorElement: <RouteErrorPage />,
              children: [
                ...publicPages.map((page) => childRoute(page, '/')),
                dashboardRoute(guardedPages),
                { path: '*', lazy: lazyModule('routes/not-found.tsx') },
              ],
            },
          ],
        },
      ],
    },
  ];
}

export const routes: RouteObject[] = buildRoutes();

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    endFirstPageLoad();
    unsubscribe();
  });
  return router;
}
