import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { classKeys } from '../../classes/api/class-keys.ts';

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

/** POST (first reply) or PATCH (edit) /api/reviews/:id/reply: the class teacher's reply (decision 046). */
export function useSaveReviewReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reviewId, text, edit }: { reviewId: string; classId: string; text: string; edit: boolean }) =>
      edit
        ? apiClient.patch('/reviews/{id}/reply', { text }, { path: { id: reviewId }, secured: true })
        : apiClient.post('/reviews/{id}/reply', { text }, { path: { id: reviewId }, secured: true }),
    // Every reviews list carries the reply, and the public class page keeps its reviews under the class key.
    onSuccess: (_saved, { classId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
        queryClient.invalidateQueries({ queryKey: classKeys.detail(classId) }),
      ]),
  });
}
