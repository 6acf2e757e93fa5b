import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { SUGGESTIONS_MAX } from '@skillhive/shared/rules/constants';
import { apiClient } from '../../../lib/api-client.ts';
import { classKeys } from './class-keys.ts';

/** The public class page's reviews, a page at a time. */
export const CLASS_REVIEWS_PAGE_SIZE = 5;

/** GET /api/classes/:id/public, the request the class page's first render waits for (decision 008). */
export const publicClassRequest = (id: string) => ({ path: '/classes/{id}/public', params: { id } }) as const;

/** An accepted class as its public page shows it (the same for every visitor). */
export const publicClassQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...classKeys.detail(id), 'page'] as const,
    queryFn: ({ signal }) =>
      apiClient.get(publicClassRequest(id).path, { path: publicClassRequest(id).params, signal }),
  });

/** GET /api/reviews?classId=: one page of the class's reviews, newest first. */
export const classReviewsQueryOptions = (classId: string, page: number) =>
  queryOptions({
    queryKey: [...classKeys.detail(classId), 'reviews', { page }] as const,
    queryFn: ({ signal }) =>
      apiClient.list('/reviews', { signal, query: { classId, page, limit: CLASS_REVIEWS_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

/** Suggestions start from this many characters: one letter would match most of the catalogue. */
export const SUGGEST_MIN_CHARS = 2;

/**
 * GET /api/classes/suggestions: what the search box offers for what is typed. Typing on changes the
 * key; TanStack Query then aborts the earlier request through the signal it handed to fetch.
 */
export const suggestionsQueryOptions = (q: string) =>
  queryOptions({
    queryKey: [...classKeys.all, 'suggestions', q.toLowerCase()] as const,
    queryFn: ({ signal }) => apiClient.get('/classes/suggestions', { signal, query: { q, limit: SUGGESTIONS_MAX } }),
    enabled: q.length >= SUGGEST_MIN_CHARS,
    staleTime: 60_000,
  });
