import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

const path = (kind: 'admin' | 'teacher', email: string) => `/users/${kind}/${encodeURIComponent(email)}`;

/** GET /api/users/admin/:email (spec §7, secured). */
export const adminFlagQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['users', 'admin', email],
    queryFn: async ({ signal }) =>
      (await apiClient.get<{ admin: boolean }>(path('admin', email), { secured: true, signal })).admin === true,
    staleTime: 60_000,
  });

/** GET /api/users/teacher/:email (spec §7, secured). */
export const teacherFlagQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['users', 'teacher', email],
    queryFn: async ({ signal }) =>
      (await apiClient.get<{ teacher: boolean }>(path('teacher', email), { secured: true, signal })).teacher === true,
    staleTime: 60_000,
  });
