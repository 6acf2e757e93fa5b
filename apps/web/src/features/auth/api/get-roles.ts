import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { userScopeKey, type UserScope } from '../../../lib/query-client.ts';

/**
 * Role changes reach an open session without a reload: an approved applicant or a
 * new admin sees their menus when they come back to the tab (TanStack Query's focus manager:
 * the tab becomes visible or the window gains focus), and actions that can change the caller's
 * own roles invalidate `roleKeys.all`.
 */
const ROLE_FRESHNESS = { staleTime: 60_000, refetchOnWindowFocus: 'always' } as const;

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
      (await apiClient.get('/users/admin/{user}', { path: { user: user?.email ?? '' }, secured: true, signal }))
        .admin === true,
    enabled: user !== null,
    ...ROLE_FRESHNESS,
  });

/** GET /api/users/teacher/:email (spec §7, secured). */
export const teacherFlagQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: roleKeys.teacher(user?.id ?? ''),
    queryFn: async ({ signal }) =>
      (await apiClient.get('/users/teacher/{email}', { path: { email: user?.email ?? '' }, secured: true, signal }))
        .teacher === true,
    enabled: user !== null,
    ...ROLE_FRESHNESS,
  });
