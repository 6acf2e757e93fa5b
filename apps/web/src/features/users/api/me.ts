import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteOwnAccountBody, NotificationPreferences, SessionListItem } from '@skillhive/shared/users';
import { apiClient, apiRequest } from '../../../lib/api-client.ts';

/** The signed-in user's own account (accounts and e-mail issue §4–§5), under ['users', 'me']. */
export const meKeys = {
  all: ['users', 'me'] as const,
  sessions: () => ['users', 'me', 'sessions'] as const,
  notifications: () => ['users', 'me', 'notifications'] as const,
};

/** GET /api/users/me/sessions: the devices signed in, most recently active first. */
export const mySessionsQueryOptions = () =>
  queryOptions({
    queryKey: meKeys.sessions(),
    queryFn: ({ signal }) => apiClient.get<SessionListItem[]>('/users/me/sessions', { secured: true, signal }),
  });

/** DELETE /api/users/me/sessions/:id → {deletedCount}: signs that device out. */
export function useEndMySession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiClient.delete<{ deletedCount: number }>(`/users/me/sessions/${encodeURIComponent(id)}`, { secured: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: meKeys.sessions() }),
  });
}

/** GET /api/users/me/notifications: the optional e-mails this user gets. */
export const myNotificationsQueryOptions = () =>
  queryOptions({
    queryKey: meKeys.notifications(),
    queryFn: ({ signal }) =>
      apiClient.get<NotificationPreferences>('/users/me/notifications', { secured: true, signal }),
  });

/** PUT /api/users/me/notifications: answers with the stored preferences. */
export function useSaveMyNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationPreferences) =>
      apiClient.put<NotificationPreferences>('/users/me/notifications', body, { secured: true }),
    onSuccess: (saved) => queryClient.setQueryData(meKeys.notifications(), saved),
  });
}

/**
 * DELETE /api/users/me with {password} (none for an account without one, which must have signed
 * in within 15 minutes). Payment records are kept. The caller then forgets the session.
 */
export async function deleteMyAccount(body: DeleteOwnAccountBody): Promise<{ deletedCount: number }> {
  return (await apiRequest<{ deletedCount: number }>('/users/me', { method: 'DELETE', body, secured: true })).data;
}
