import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences } from '@skillhive/shared/contracts/users';
import type { DeleteOwnAccountBody } from '@skillhive/shared/rules/account-forms';
import { apiClient, apiRequest } from '../../../lib/api-client.ts';
import { userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

/** The signed-in user's own account, under their key root. */
export const meKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'me'] as const,
  sessions: (userId: string) => [...meKeys.all(userId), 'sessions'] as const,
  notifications: (userId: string) => [...meKeys.all(userId), 'notifications'] as const,
};

/** GET /api/users/me/sessions: the devices signed in, most recently active first. */
export const mySessionsQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: meKeys.sessions(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/users/me/sessions', { secured: true, signal }),
    enabled: user !== null,
  });

/** DELETE /api/users/me/sessions/:id → {deletedCount}: signs that device out. */
export function useEndMySession() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (id: string) => apiClient.delete('/users/me/sessions/{id}', { path: { id }, secured: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: meKeys.sessions(userId) }),
  });
}

/** GET /api/users/me/notifications: the optional e-mails this user gets. */
export const myNotificationsQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: meKeys.notifications(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/users/me/notifications', { secured: true, signal }),
    enabled: user !== null,
  });

/** PUT /api/users/me/notifications: answers with the stored preferences. */
export function useSaveMyNotifications() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (body: NotificationPreferences) => apiClient.put('/users/me/notifications', body, { secured: true }),
    onSuccess: (saved) => queryClient.setQueryData(meKeys.notifications(userId), saved),
  });
}

/**
 * DELETE /api/users/me with {password} (none for an account without one, which must have signed
 * in within 15 minutes). Payment records are kept. The caller then forgets the session.
 */
export async function deleteMyAccount(body: DeleteOwnAccountBody): Promise<{ deletedCount: number }> {
  return (await apiRequest<{ deletedCount: number }>('/users/me', { method: 'DELETE', body, secured: true })).data;
}

const SENT_ZONE_KEY = 'skillhive:time-zone-sent';

/**
 * Tells the server the browser's time zone (decision 053) once per session and zone: reminder
 * mails then show session times on the person's own clock. Best effort: a failure only leaves
 * the mails in the section's zone, so nothing is shown to the person.
 */
export function reportTimeZone(sessionId: string): void {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!timeZone) return;
  const marker = `${sessionId} ${timeZone}`;
  try {
    if (window.sessionStorage.getItem(SENT_ZONE_KEY) === marker) return;
  } catch {
    // Storage refused (privacy mode): send it each time instead.
  }
  apiClient
    .put('/users/me/time-zone', { timeZone }, { secured: true })
    .then(() => {
      try {
        window.sessionStorage.setItem(SENT_ZONE_KEY, marker);
      } catch {
        // As above.
      }
    })
    .catch(() => {});
}
