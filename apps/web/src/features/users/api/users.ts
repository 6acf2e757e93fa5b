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
