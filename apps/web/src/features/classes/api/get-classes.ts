import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  CATEGORIES,
  CLASS_SORTS,
  PAGE_SIZE_DEFAULT,
  type Category,
  type ClassSort,
} from '@skillhive/shared/rules/constants';
import type { ClassItem } from '@skillhive/shared/contracts/classes';
import { ApiError, apiClient } from '../../../lib/api-client.ts';
import { classKeys } from './class-keys.ts';

/** The catalogue's state, all of it kept in the URL (issue 6). */
export interface CatalogueParams {
  q: string;
  category: Category | '';
  sort: ClassSort;
  page: number;
}

export const CATALOGUE_PAGE_SIZE = PAGE_SIZE_DEFAULT;
export const DEFAULT_SORT: ClassSort = 'newest';

export const SORT_LABELS: Record<ClassSort, string> = {
  newest: 'Newest',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  popular: 'Most popular',
};

/** Reads the URL leniently: a hand-edited or stale value falls back to the default, never an error. */
export function parseCatalogueParams(search: URLSearchParams): CatalogueParams {
  const q = (search.get('q') ?? '').trim().slice(0, 100);
  const rawCategory = search.get('category') ?? '';
  const category = (CATEGORIES as readonly string[]).includes(rawCategory) ? (rawCategory as Category) : '';
  const rawSort = search.get('sort') ?? '';
  const sort = (CLASS_SORTS as readonly string[]).includes(rawSort) ? (rawSort as ClassSort) : DEFAULT_SORT;
  const page = Number.parseInt(search.get('page') ?? '1', 10);
  return { q, category, sort, page: Number.isFinite(page) && page >= 1 && page <= 10_000 ? page : 1 };
}

/** Writes only what differs from the defaults, so URLs stay short and shareable. */
export function toSearchParams(params: CatalogueParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  if (params.category) search.set('category', params.category);
  if (params.sort !== DEFAULT_SORT) search.set('sort', params.sort);
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
      return apiClient.list<ClassItem>(path, { signal, query });
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
      const item = await apiClient.get<ClassItem>(`/classes/${encodeURIComponent(id)}`, { signal });
      if (item.status !== 'accepted') {
        throw new ApiError({ status: 404, code: 'not_found', message: 'Class not found' });
      }
      return item;
    },
  });
