import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { auditKeys } from '../../audit/api/audit.ts';

export const USERS_PAGE_SIZE = 10;

export interface UserListParams {
  page: number;
  q: string;
}

/** The reader's own profile and the admin's list of accounts, under the reader's key root. */
export const userKeys = {
  profile: (userId: string) => [...userScopeKey(userId), 'profile'] as const,
  lists: (userId: string) => [...userScopeKey(userId), 'users'] as const,
  list: (userId: string, params: UserListParams) => [...userKeys.lists(userId), params] as const,
};

/** GET /api/users/profile/:email (spec §7: image, name, role, email, phone). */
export const profileQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: userKeys.profile(user?.id ?? ''),
    queryFn: ({ signal }) =>
      apiClient.get('/users/profile/{email}', { path: { email: user?.email ?? '' }, secured: true, signal }),
    enabled: user !== null,
  });

/** GET /api/users?page=&limit=&q= (admin; X-Total-Count). */
export const usersQueryOptions = (user: UserScope | null, params: UserListParams) =>
  queryOptions({
    queryKey: userKeys.list(user?.id ?? '', params),
    queryFn: ({ signal }) =>
      apiClient.list('/users', {
        secured: true,
        signal,
        query: { page: params.page, limit: USERS_PAGE_SIZE, q: params.q || undefined },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** PATCH /api/users/admin/:id → {modifiedCount} (admin). */
export function usePromoteUser() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (id: string) =>
      apiClient.patch('/users/admin/{user}', undefined, {
        path: { user: id },
        secured: true,
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.lists(userId) }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all(userId) }),
      ]),
  });
}

/** DELETE /api/users/:id → {deletedCount} (admin). */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (id: string) => apiClient.delete('/users/{id}', { path: { id }, secured: true }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.lists(userId) }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all(userId) }),
      ]),
  });
}
