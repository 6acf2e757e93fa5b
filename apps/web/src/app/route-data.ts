/*
 * Decision 008: a page's first render waits for its data. Which reads each page waits for is the
 * route manifest's `firstRender`; their URLs, which the HTML preloads, are first-render-urls.ts.
 */

let firstPageLoad = true;

/** Called once the router has rendered the first page. */
export function endFirstPageLoad(): void {
  firstPageLoad = false;
}

/**
 * A loader's data: on the first page load it is awaited — its request was preloaded with the
 * page, so the page paints once, complete, instead of painting skeletons and then rendering again
 * when the answers arrive (that second render was most of Lighthouse's blocking time). On later
 * navigations the page shows at once with its loading state. Failures are left to the queries,
 * which show them where the data belongs.
 */
export async function loadRouteData(prefetch: Promise<unknown>): Promise<null> {
  if (firstPageLoad) await prefetch.catch(() => undefined);
  else void prefetch.catch(() => undefined);
  return null;
}
