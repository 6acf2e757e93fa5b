import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

export const REVIEWS_SHOWN = 10;

/** Reviews are public: the same for every visitor. */
export const reviewKeys = {
  all: ['reviews'] as const,
  latest: (count: number) => [...reviewKeys.all, 'latest', count] as const,
};

/** The home page's reviews request (preloaded with the page, decision 008). */
export const latestReviewsRequest = { path: '/reviews', query: { page: 1, limit: REVIEWS_SHOWN } } as const;

/** GET /api/reviews: the latest reviews plus the total count (X-Total-Count). */
export const reviewsQueryOptions = () =>
  queryOptions({
    queryKey: reviewKeys.latest(REVIEWS_SHOWN),
    queryFn: ({ signal }) => apiClient.list(latestReviewsRequest.path, { signal, query: latestReviewsRequest.query }),
    staleTime: 5 * 60_000,
  });

/** /reviews: every review, newest first, a page at a time. */
export const REVIEWS_PAGE_SIZE = 12;

export const reviewsPageQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...reviewKeys.all, 'page', { page, limit: REVIEWS_PAGE_SIZE }] as const,
    queryFn: ({ signal }) => apiClient.list('/reviews', { signal, query: { page, limit: REVIEWS_PAGE_SIZE } }),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
