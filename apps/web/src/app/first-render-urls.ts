import { buildApiUrl } from '../lib/api-client.ts';
import { sessionRequest } from '../features/auth/api/get-session.ts';
import { latestReviewsRequest } from '../features/reviews/api/get-reviews.ts';
import { catalogueRequest, DEFAULT_CATALOGUE_PARAMS } from '../features/classes/api/get-classes.ts';
import { publicClassRequest } from '../features/classes/api/get-public-class.ts';
import { HERO_SLIDES } from '../features/home/hero-slides.ts';
import { EVERY_PAGE_READS, PUBLIC_PAGES, SITE_PAGES, type FirstRenderRead } from './routes.manifest.ts';

/*
 * Read at build time (first-load-report.ts) and by tests, never by the app: importing it from the
 * shell would put every public page's query code into every page's first load.
 */

const firstCatalogue = catalogueRequest(DEFAULT_CATALOGUE_PARAMS);
const ID_PARAM = ':id';

/**
 * The URL of each read a first render can wait for (decision 008), built from the same request
 * descriptors the queries fetch with, so a preload is always the request the page makes.
 */
export const FIRST_RENDER_URLS: Record<FirstRenderRead, string> = {
  session: buildApiUrl(sessionRequest.path),
  latestReviews: buildApiUrl(latestReviewsRequest.path, latestReviewsRequest.query),
  catalogue: buildApiUrl(firstCatalogue.path, firstCatalogue.query),
  // A pattern: the server fills `:id` with the page's own (apps/server/src/plugins/static-web.ts).
  publicClass: buildApiUrl(publicClassRequest(ID_PARAM).path, undefined, publicClassRequest(ID_PARAM).params).replace(
    encodeURIComponent(ID_PARAM),
    ID_PARAM,
  ),
};

/**
 * The API reads a page's first render waits for, as the route manifest declares them. The web
 * build names them in the HTML as `<link rel="preload" as="fetch">` (first-load-report.ts), so
 * they travel with the page's code rather than after it has run: the session on every page (in
 * index.html), and each public page's own data on the page as first visited, without a query
 * string (the server adds those, apps/server/src/plugins/static-web.ts).
 */
export const EVERY_PAGE_DATA: string[] = EVERY_PAGE_READS.map((read) => FIRST_RENDER_URLS[read]);

export const ROUTE_DATA: Record<string, string[]> = Object.fromEntries(
  PUBLIC_PAGES.filter((page) => page.firstRender.length > 0).map((page) => [
    page.path,
    page.firstRender.map((read) => FIRST_RENDER_URLS[read]),
  ]),
);

/**
 * The image a public page paints largest at first (its LCP element), named in that page's HTML as
 * `<link rel="preload" as="image">` so it downloads beside the code instead of after the code has
 * run and rendered the `<img>`: the home page's first hero slide, which is always the first.
 */
export const ROUTE_IMAGES: Record<string, string[]> = {
  [SITE_PAGES.home.path]: [HERO_SLIDES[0].image],
};
