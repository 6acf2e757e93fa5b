import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { userScopeKey, type UserScope } from '../../../lib/query-client.ts';

const path = (kind: 'admin' | 'teacher', email: string) => `/users/${kind}/${encodeURIComponent(email)}`;

/** The signed-in user's role flags, under their own key root. */
export const roleKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'roles'] as const,
  admin: (userId: string) => [...roleKeys.all(userId), 'admin'] as const,
  teacher: (userId: string) => [...roleKeys.all(userId), 'teacher'] as const,
};

/** GET /api/users/admin/:email (spec §7, secured). */
export const adminFlagQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: roleKeys.admin(user?.id ?? ''),
    queryFn: async ({ signal }) =>
      (await apiClient.get<{ admin: boolean }>(path('admin', user?.email ?? ''), { secured: true, signal })).admin ===
      true,
    enabled: user !== null,
    staleTime: 60_000,
  });

/** GET /api/users/teacher/:email (spec §7, secured). */
export const teacherFlagQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: roleKeys.teacher(user?.id ?? ''),
    queryFn: async ({ signal }) =>
      (await apiClient.get<{ teacher: boolean }>(path('teacher', user?.email ?? ''), { secured: true, signal }))
        .teacher === true,
    enabled: user !== null,
    staleTime: 60_000,
  });
