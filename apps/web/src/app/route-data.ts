import type { FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { queryClient } from '../lib/query-client.ts';

/*
 * Decision 008: a page's first render waits for its data — for a bounded time (decision 020). Which
 * reads each page waits for is the route manifest's `firstRender`; their URLs, which the HTML
 * preloads, are first-render-urls.ts. Loaders are React Router's own (decision 024).
 */

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
  { request, firstLoad }: Pick<PageLoaderArgs, 'request' | 'firstLoad'>,
  waitMs: number = FIRST_RENDER_WAIT_MS,
): Promise<null> {
  const { signal } = request;
  const settled = queryClient.prefetchQuery(options);
  const abandon = () => {
    const query = queryClient.getQueryCache().find({ queryKey: options.queryKey, exact: true });
    if (query && query.state.fetchStatus === 'fetching' && query.getObserversCount() === 0)
      void queryClient.cancelQueries({ queryKey: options.queryKey, exact: true });
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
