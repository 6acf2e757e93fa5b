import type { ComponentType, ReactPromise } from 'react';
import type { Params } from 'react-router';

/** What a loader learns about the navigation it starts with. */
export interface RouteLoaderArgs {
  params: Params;
  url: URL;
}

/**
 * A page's module (named by the manifest, decision 016; loaded by the router, decision 022): its
 * `Component`, and optionally a `loader` that starts the page's reads with the navigation (and, on
 * the first page load, is waited for: route-data.ts).
 */
export interface RouteModule {
  Component: ComponentType;
  loader?: (args: RouteLoaderArgs) => unknown;
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

/** The import of a module the manifest names (a missing file fails at start-up, and in tests). */
export function moduleImport(module: string): () => Promise<RouteModule> {
  const load = routeModules[`./${module}`];
  if (!load) throw new Error(`route module ${module} (routes.manifest.ts) does not exist`);
  return load;
}

/**
 * A module's import as React's `use` reads it: once it has arrived, `status` and `value` let the
 * page render at once, without suspending (the first page's modules arrive before it renders).
 */
export type TrackedImport = ReactPromise<RouteModule>;

const imports = new Map<string, TrackedImport>();

/**
 * The module's import, started once and shared. An import that failed (offline, or a deploy
 * replaced the chunk) stays failed while the page renders, so its error boundary shows it; a
 * navigation passes `retry`, and the module is downloaded again.
 */
export function importRouteModule(module: string, { retry = false } = {}): TrackedImport {
  const known = imports.get(module);
  if (known && !(retry && known.status === 'rejected')) return known;
  const download = moduleImport(module)();
  const tracked: TrackedImport = Object.assign(download, { status: 'pending' as const });
  download.then(
    (value) => Object.assign(tracked, { status: 'fulfilled', value }),
    (reason: unknown) => Object.assign(tracked, { status: 'rejected', reason }),
  );
  imports.set(module, tracked);
  return tracked;
}
