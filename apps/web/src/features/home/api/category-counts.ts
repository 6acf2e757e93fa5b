import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * GET /api/classes/categories: accepted classes per category, so the hero's slides link only to
 * categories that have classes. Not part of the first render: the slides link to
 * their category at once, and one whose category turns out empty is redirected to all classes.
 */
export const categoryCountsQueryOptions = () =>
  queryOptions({
    queryKey: ['classes', 'categories'] as const,
    queryFn: ({ signal }) => apiClient.get('/classes/categories', { signal }),
    staleTime: 5 * 60_000,
  });
