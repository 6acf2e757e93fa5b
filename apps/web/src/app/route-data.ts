import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { createContext, type LoaderFunctionArgs } from 'react-router';
import { queryClient } from '../lib/query-client.ts';

/*
 * Decision 008: a page's first render waits for its data — for a bounded time (decision 020). Which
 * reads each page waits for is the route manifest's `firstRender`; their URLs, which the HTML
 * preloads, are first-render-urls.ts. Loaders are React Router's own (decision 024).
 */

/**
 * Where a loader's reads go, from React Router's loader context: in the browser the app's one
 * query cache; on the server (entry-server.tsx, decision 030) a cache of the request's own, whose
 * reads are all awaited, so the HTML carries the data and no visitor's answers reach another's.
 */
export interface RouteDataTarget {
  client: QueryClient;
  /** The server's render: wait for every read, without the first-render bound. */
  waitForAll: boolean;
}

export const routeDataContext = createContext<RouteDataTarget>({ client: queryClient, waitForAll: false });

/** The query cache a loader's reads go to, and whether this is the server's render. */
export function routeDataTarget(args: Partial<Pick<PageLoaderArgs, 'context'>>): RouteDataTarget {
  return args.context?.get(routeDataContext) ?? { client: queryClient, waitForAll: false };
}

/** What a page module's loader is called with: React Router's arguments, and whether this is the router's first load. */
export interface PageLoaderArgs extends LoaderFunctionArgs {
  /** The router has not rendered yet (its `state.initialized` is false): the first page load. */
  firstLoad: boolean;
}

/**
 * The longest a first render waits for its data (decision 020). The reads are preloaded with the
 * HTML and normally arrive before the code has run, so the page still renders once, complete
 * (decision 008); a slow or unreachable API never holds back the shell: past this the page
 * renders with its skeletons and fills in when the answers come.
 */
export const FIRST_RENDER_WAIT_MS = 300;

/**
 * A loader's read: started with the navigation into the app's query cache. On the first page load
 * it is awaited, up to `waitMs` — its request was preloaded with the page, so the page paints once,
 * complete, instead of painting skeletons and rendering again when the answers arrive. Later
 * navigations do not wait (the page shows at once with its loading state). A navigation that is
 * abandoned (React Router aborts its request) stops waiting, and cancels the read if no page uses
 * it. Failures are left to the queries, which show them where the data belongs.
 */
export async function loadRouteData<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
  {
    request,
    firstLoad,
    context,
  }: Pick<PageLoaderArgs, 'request' | 'firstLoad'> & Partial<Pick<PageLoaderArgs, 'context'>>,
  waitMs: number = FIRST_RENDER_WAIT_MS,
): Promise<null> {
  const { signal } = request;
  const { client, waitForAll } = routeDataTarget({ context });
  const settled = client.prefetchQuery(options);
  if (waitForAll) {
    await settled;
    return null;
  }
  const abandon = () => {
    const query = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
    if (query && query.state.fetchStatus === 'fetching' && query.getObserversCount() === 0)
      void client.cancelQueries({ queryKey: options.queryKey, exact: true });
  };
  signal.addEventListener('abort', abandon, { once: true });
  if (!firstLoad) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bounded = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.race([settled, bounded]);
  clearTimeout(timer);
  return null;
}
