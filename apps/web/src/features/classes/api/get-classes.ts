import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  CATEGORIES,
  CLASS_SORTS,
  PAGE_SIZE_DEFAULT,
  PRICE_MAX_CENTS,
  type Category,
  type ClassSort,
} from '@skillhive/shared/rules/constants';
import {
  isCalendarDate,
  TIMES_OF_DAY,
  WEEKDAYS,
  type TimeOfDay,
  type Weekday,
} from '@skillhive/shared/rules/weekly-schedule';
import { isTimeZone } from '@skillhive/shared/rules/time-zones';
import { ApiError, apiClient } from '../../../lib/api-client.ts';
import { classKeys } from './class-keys.ts';

/** The catalogue's state, all of it kept in the URL, so a search can be shared and survives a reload. */
export interface CatalogueParams {
  q: string;
  category: Category | '';
  sort: ClassSort;
  page: number;
  /** Price bounds in dollars, and the lowest average rating; null when not filtered. */
  minPrice: number | null;
  maxPrice: number | null;
  minRating: number | null;
  /**
   * The schedule filter (decision 053): sections starting on or after a date (YYYY-MM-DD), on these
   * days and at these times of day, on the clock of `tz` — the visitor's zone, written into the URL
   * with the filter so a server render and a shared link mean the same hours.
   */
  startsAfter: string | null;
  days: Weekday[];
  times: TimeOfDay[];
  tz: string | null;
}

export const CATALOGUE_PAGE_SIZE = PAGE_SIZE_DEFAULT;
export const DEFAULT_SORT: ClassSort = 'newest';
/** The ratings the filter offers: "4 stars & up" and so on. */
export const RATING_FILTERS = [4, 3, 2, 1] as const;
const PRICE_MAX = PRICE_MAX_CENTS / 100;

/** A search is ranked by relevance unless another order is chosen; the catalogue is newest first. */
export const defaultSortFor = (q: string): ClassSort => (q ? 'relevance' : DEFAULT_SORT);

export const SORT_LABELS: Record<ClassSort, string> = {
  relevance: 'Best match',
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  popular: 'Most popular',
};

/** A price bound from the URL: a number from 0 to the highest price, else none. */
function priceOf(raw: string | null): number | null {
  if (raw === null || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 && value <= PRICE_MAX ? Math.round(value * 100) / 100 : null;
}

/** Reads the URL leniently: a hand-edited or stale value falls back to the default, never an error. */
export function parseCatalogueParams(search: URLSearchParams): CatalogueParams {
  const q = (search.get('q') ?? '').trim().slice(0, 100);
  const rawCategory = search.get('category') ?? '';
  const category = (CATEGORIES as readonly string[]).includes(rawCategory) ? (rawCategory as Category) : '';
  const rawSort = search.get('sort') ?? '';
  const known = (CLASS_SORTS as readonly string[]).includes(rawSort) && !(rawSort === 'relevance' && !q);
  const sort = known ? (rawSort as ClassSort) : defaultSortFor(q);
  const page = Number.parseInt(search.get('page') ?? '1', 10);
  const minPrice = priceOf(search.get('minPrice'));
  let maxPrice = priceOf(search.get('maxPrice'));
  if (minPrice !== null && maxPrice !== null && maxPrice < minPrice) maxPrice = null;
  const rating = Number(search.get('minRating'));
  const minRating = Number.isInteger(rating) && rating >= 1 && rating <= 5 ? rating : null;
  const startsAfter = search.get('startsAfter');
  const listOf = <T extends string>(raw: string | null, known: readonly T[]) => {
    const parts = (raw ?? '').split(',');
    return known.filter((word) => parts.includes(word));
  };
  const tz = search.get('tz');
  return {
    q,
    category,
    sort,
    page: Number.isFinite(page) && page >= 1 && page <= 10_000 ? page : 1,
    minPrice,
    maxPrice,
    minRating,
    startsAfter: startsAfter && isCalendarDate(startsAfter) ? startsAfter : null,
    days: listOf(search.get('days'), WEEKDAYS),
    times: listOf(search.get('times'), Object.keys(TIMES_OF_DAY) as TimeOfDay[]),
    tz: tz && isTimeZone(tz) ? tz : null,
  };
}

/** Whether a schedule filter is set (a self-paced class then matches nothing). */
export const hasSchedule = (params: CatalogueParams) =>
  params.startsAfter !== null || params.days.length > 0 || params.times.length > 0;

/** Writes only what differs from the defaults, so URLs stay short and shareable. */
export function toSearchParams(params: CatalogueParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  if (params.category) search.set('category', params.category);
  if (params.minPrice !== null) search.set('minPrice', String(params.minPrice));
  if (params.maxPrice !== null) search.set('maxPrice', String(params.maxPrice));
  if (params.minRating !== null) search.set('minRating', String(params.minRating));
  if (params.startsAfter) search.set('startsAfter', params.startsAfter);
  if (params.days.length > 0) search.set('days', params.days.join(','));
  if (params.times.length > 0) search.set('times', params.times.join(','));
  if (hasSchedule(params) && params.tz) search.set('tz', params.tz);
  if (params.sort !== defaultSortFor(params.q)) search.set('sort', params.sort);
  if (params.page > 1) search.set('page', String(params.page));
  return search;
}

/** The catalogue as the URL says nothing: what /allClassAllowed shows first (and preloads). */
export const DEFAULT_CATALOGUE_PARAMS: CatalogueParams = parseCatalogueParams(new URLSearchParams());

/** GET /api/classes for one catalogue state. */
export function catalogueRequest(params: CatalogueParams) {
  return {
    path: '/classes',
    query: {
      q: params.q || undefined,
      category: params.category || undefined,
      minPrice: params.minPrice ?? undefined,
      maxPrice: params.maxPrice ?? undefined,
      minRating: params.minRating ?? undefined,
      // Only with a schedule filter: the plain catalogue's pages stay one shared cache entry.
      ...(hasSchedule(params)
        ? {
            startsAfter: params.startsAfter ?? undefined,
            days: params.days.length > 0 ? params.days.join(',') : undefined,
            times: params.times.length > 0 ? params.times.join(',') : undefined,
            tz: params.tz ?? undefined,
          }
        : {}),
      sort: params.sort,
      page: params.page,
      limit: CATALOGUE_PAGE_SIZE,
    },
  } as const;
}

/** GET /api/classes: accepted classes, paginated (array body + X-Total-Count). */
export const classesQueryOptions = (params: CatalogueParams) =>
  queryOptions({
    queryKey: classKeys.catalogue(params),
    queryFn: ({ signal }) => {
      const { path, query } = catalogueRequest(params);
      return apiClient.list(path, { signal, query });
    },
    placeholderData: keepPreviousData,
  });

/**
 * GET /api/classes/:id for the class page anyone may open: an accepted class, the same for every
 * visitor. The server also shows its teacher and admins a class of another status; that view is
 * `managedClassQueryOptions` (teacher feature), kept under the person's own key root, so a
 * pending class never sits in the public cache.
 */
export const classQueryOptions = (id: string) =>
  queryOptions({
    queryKey: classKeys.detail(id),
    queryFn: async ({ signal }) => {
      const item = await apiClient.get('/classes/{id}', { path: { id }, signal });
      if (item.status !== 'accepted') {
        throw new ApiError({ status: 404, code: 'not_found', message: 'Class not found' });
      }
      return item;
    },
  });
