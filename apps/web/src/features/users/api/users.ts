import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserListItem, UserProfile } from '@skillhive/shared/users';
import { apiClient } from '../../../lib/api-client.ts';
import { auditKeys } from '../../audit/api/audit.ts';

export const USERS_PAGE_SIZE = 10;

export interface UserListParams {
  page: number;
  q: string;
}

/**
 * Keys under ['users'], the prefix the auth feature's role flags also use: promoting someone
 * refreshes the flags too.
 */
export const userKeys = {
  all: ['users'] as const,
  profile: (email: string) => ['users', 'profile', email] as const,
  lists: () => ['users', 'list'] as const,
  list: (params: UserListParams) => ['users', 'list', params] as const,
  roleCounts: () => ['users', 'role-counts'] as const,
};

/** GET /api/users/profile/:email (spec §7: image, name, role, email, phone). */
export const profileQueryOptions = (email: string) =>
  queryOptions({
    queryKey: userKeys.profile(email),
    queryFn: ({ signal }) =>
      apiClient.get<UserProfile>(`/users/profile/${encodeURIComponent(email)}`, { secured: true, signal }),
  });

/** GET /api/users?page=&limit=&q= (admin; X-Total-Count). */
export const usersQueryOptions = (params: UserListParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) =>
      apiClient.list<UserListItem>('/users', {
        secured: true,
        signal,
        query: { page: params.page, limit: USERS_PAGE_SIZE, q: params.q || undefined },
      }),
    placeholderData: keepPreviousData,
  });

const ROLE_SCAN_PAGE = 100;
const ROLE_SCAN_MAX_PAGES = 10;

export interface RoleCounts {
  total: number;
  admin: number;
  teacher: number;
  student: number;
  /** How many users the breakdown is based on (the API has no per-role count). */
  counted: number;
}

/**
 * Users by displayed role for the admin home. GET /api/users has no role filter, so this reads
 * up to 1,000 users, 100 per request; the total always comes from X-Total-Count.
 */
export const userRoleCountsQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.roleCounts(),
    queryFn: async ({ signal }): Promise<RoleCounts> => {
      const counts: RoleCounts = { total: 0, admin: 0, teacher: 0, student: 0, counted: 0 };
      for (let page = 1; page <= ROLE_SCAN_MAX_PAGES; page += 1) {
        const { items, total } = await apiClient.list<UserListItem>('/users', {
          secured: true,
          signal,
          query: { page, limit: ROLE_SCAN_PAGE },
        });
        counts.total = total;
        for (const user of items) counts[user.role] += 1;
        counts.counted += items.length;
        if (items.length < ROLE_SCAN_PAGE || counts.counted >= total) break;
      }
      return counts;
    },
  });

/** PATCH /api/users/admin/:id → {modifiedCount} (admin). */
export function usePromoteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiClient.patch<{ modifiedCount: number }>(`/users/admin/${encodeURIComponent(id)}`, undefined, {
        secured: true,
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  });
}

/** DELETE /api/users/:id → {deletedCount} (admin). */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiClient.delete<{ deletedCount: number }>(`/users/${encodeURIComponent(id)}`, { secured: true }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  });
}
