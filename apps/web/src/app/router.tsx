import { use } from 'react';
import { Outlet, createPath, matchRoutes, useRoutes, type Params, type Path, type RouteObject } from 'react-router';
import { queryClient } from '../lib/query-client.ts';
import { sessionQueryOptions } from '../features/auth/api/get-session.ts';
import { endFirstPageLoad, loadRouteData } from './route-data.ts';
import { AppLayout } from './app-layout.tsx';
import { RouterProviders } from './providers.tsx';
import { RouteBoundary } from './route-boundary.tsx';
import { RootErrorPage } from './routes/route-error.tsx';
import { importRouteModule } from './route-modules.ts';
import {
  DASHBOARD_LAYOUT_MODULE,
  DASHBOARD_PATH,
  GUARD_MODULES,
  PAGE_LIST,
  type GuardRole,
  type Page,
} from './routes.manifest.ts';

/** What a route carries besides its element: the lazy module it renders, if any. */
export interface RouteHandle {
  module: string;
}

/** A route module's page, rendered as soon as its code has arrived (route-modules.ts). */
function LazyRoute({ module }: { module: string }) {
  const { Component } = use(importRouteModule(module));
  return <Component />;
}

function moduleRoute(module: string) {
  const handle: RouteHandle = { module };
  return { element: <LazyRoute module={module} />, handle };
}

/** The layouts' outlet, behind an error boundary: the layout stays usable when a page fails. */
function BoundedOutlet() {
  return (
    <RouteBoundary>
      <Outlet />
    </RouteBoundary>
  );
}

/** A page as a child route of the layout mounted at `base`: its path relative to it, or index. */
function childRoute(page: Page, base: string): RouteObject {
  if (page.path === base) return { index: true, ...moduleRoute(page.module) };
  const prefix = base === '/' ? '/' : `${base}/`;
  if (!page.path.startsWith(prefix)) throw new Error(`${page.path} is not under ${base}`);
  return { path: page.path.slice(prefix.length), ...moduleRoute(page.module) };
}

/**
 * /dashboard and its children (spec §2): the layout requires login, and pages that need a role
 * sit under that role's guard (spec §6). Errors render inside the dashboard, so its menu stays usable.
 */
function dashboardRoute(pages: readonly Page[]): RouteObject {
  const anyone = pages.filter((page) => page.access === 'signed-in');
  const byRole = (Object.keys(GUARD_MODULES) as GuardRole[]).map((role): RouteObject => ({
    ...moduleRoute(GUARD_MODULES[role]),
    children: pages.filter((page) => page.access === role).map((page) => childRoute(page, DASHBOARD_PATH)),
  }));
  return {
    path: DASHBOARD_PATH.slice(1),
    ...moduleRoute(DASHBOARD_LAYOUT_MODULE),
    children: [
      {
        element: <BoundedOutlet />,
        children: [...anyone.map((page) => childRoute(page, DASHBOARD_PATH)), ...byRole],
      },
    ],
  };
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
      element: (
        <RouteBoundary Fallback={RootErrorPage}>
          <RouterProviders />
        </RouteBoundary>
      ),
      children: [
        {
          element: <AppLayout />,
          children: [
            {
              // Errors render inside the layout, so the navbar stays usable.
              element: <BoundedOutlet />,
              children: [
                ...publicPages.map((page) => childRoute(page, '/')),
                dashboardRoute(guardedPages),
                { path: '*', ...moduleRoute('routes/not-found.tsx') },
              ],
            },
          ],
        },
      ],
    },
  ];
}

export const routes: RouteObject[] = buildRoutes();

/** The page of the current location, from the route table. */
export function AppRoutes() {
  return useRoutes(routes);
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

/**
 * Starts a page's code and reads with the navigation: each of its modules' import (again, if it
 * failed before), then the module's loader. Settles when the loaders have (a first page load waits for them, bounded:
 * route-data.ts); a module that did not arrive is the page's error boundary's to show.
 */
export function loadPage(location: Partial<Path>): Promise<unknown> {
  const url = new URL(createPath(location), window.location.origin);
  return Promise.all(
    matchedModules(routes, location).map(({ module, params }) =>
      importRouteModule(module, { retry: true }).then((loaded) => loaded.loader?.({ params, url })),
    ),
  ).catch(() => undefined);
}

/**
 * The first page renders once, complete (decisions 008 and 020): with its code, the session the
 * navbar and every guard read, and its own first-render reads, each waited for a bounded time.
 */
export async function loadFirstPage(): Promise<void> {
  await Promise.all([loadRouteData(queryClient.prefetchQuery(sessionQueryOptions())), loadPage(window.location)]);
  endFirstPageLoad();
}
