import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { InAppPreferences, NotificationPage } from '@skillhive/shared/contracts/notifications';
import { apiClient, apiRequest } from '../../../lib/api-client.ts';
import { userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

/** The notification centre (decision 047), under the person's own key root: signing out forgets it. */
export const notificationKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'notifications'] as const,
  page: (userId: string, page: number, limit: number) =>
    [...notificationKeys.all(userId), 'page', page, limit] as const,
  preferences: (userId: string) => [...userScopeKey(userId), 'notification-preferences'] as const,
};

/** The bell's panel shows this many of the newest. */
export const PANEL_SIZE = 8;
/** The notifications page lists this many a page. */
export const PAGE_SIZE = 20;

/** GET /api/notifications: a page of items, newest first, the unread count and (X-Total-Count) the total. */
export const notificationsQueryOptions = (user: UserScope | null, page = 1, limit = PANEL_SIZE) =>
  queryOptions({
    queryKey: notificationKeys.page(user?.id ?? '', page, limit),
    queryFn: async ({ signal }): Promise<NotificationPage & { total: number }> => {
      const answer = await apiRequest<NotificationPage>('/notifications', {
        query: { page, limit },
        secured: true,
        signal,
      });
      return { ...answer.data, total: answer.total ?? answer.data.items.length };
    },
    enabled: user !== null,
    placeholderData: keepPreviousData,
    // The live stream says when something changed (use-live-notifications.ts).
    staleTime: 60_000,
  });

/** Mark one read, or all: every page and the bell's count are read again. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (which: { id: string } | 'all') =>
      which === 'all'
        ? apiClient.post('/notifications/read', undefined, { secured: true })
        : apiClient.post('/notifications/{id}/read', undefined, { path: { id: which.id }, secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all(userId) }),
  });
}

/** GET /api/notifications/preferences: which kinds show in the notification centre. */
export const notificationPreferencesQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: notificationKeys.preferences(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/notifications/preferences', { secured: true, signal }),
    enabled: user !== null,
  });

export function useSaveNotificationPreferences() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (body: InAppPreferences) => apiClient.put('/notifications/preferences', body, { secured: true }),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.preferences(userId), saved),
  });
}
