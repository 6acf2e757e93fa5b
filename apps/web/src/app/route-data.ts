/*
 * Decision 008: a page's first render waits for its data — for a bounded time (decision 020). Which reads each page waits for is the
 * route manifest's `firstRender`; their URLs, which the HTML preloads, are first-render-urls.ts.
 */

let firstPageLoad = true;

/** Called once the router has rendered the first page. */
export function endFirstPageLoad(): void {
  firstPageLoad = false;
}

/**
 * The longest a first render waits for its data (decision 020). The reads are preloaded with the
 * HTML and normally arrive before the code has run, so the page still renders once, complete
 * (decision 008); a slow or unreachable API no longer holds back the shell: past this the page
 * renders with its skeletons and fills in when the answers come.
 */
export const FIRST_RENDER_WAIT_MS = 300;

/**
 * A loader's data: on the first page load it is awaited, up to FIRST_RENDER_WAIT_MS — its request
 * was preloaded with the page, so the page paints once, complete, instead of painting skeletons
 * and then rendering again when the answers arrive (that second render was most of Lighthouse's
 * blocking time). On later navigations the page shows at once with its loading state. Failures
 * are left to the queries, which show them where the data belongs.
 */
export async function loadRouteData(prefetch: Promise<unknown>, waitMs: number = FIRST_RENDER_WAIT_MS): Promise<null> {
  const settled = prefetch.catch(() => undefined);
  if (!firstPageLoad) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  await Promise.race([settled, deadline]);
  clearTimeout(timer);
  return null;
}
