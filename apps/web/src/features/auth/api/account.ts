import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeEmailBody, ChangePasswordBody, UpdateUserBody } from '@skillhive/shared/rules/account-forms';
import { apiClient } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';
import { SESSION_QUERY_KEY } from './get-session.ts';
import { useUserScope } from './use-user-scope.ts';
import { userKeys } from '../../users/api/users.ts';

/**
 * The signed-in user's own account, through better-auth behind our identity gate (decision 009).
 * Same-origin calls: the session cookie is what these endpoints read.
 */

/**
 * POST /api/auth/update-user {name?, phone?, image?} (spec §5 rules): the session and the profile
 * show the new name, phone and photo once the returned promise settles.
 */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (body: UpdateUserBody) => apiClient.post('/auth/update-user', body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: userKeys.profile(userId) }),
      ]),
  });
}

/** The code of a 400 for a wrong current password. */
export const INVALID_PASSWORD = 'INVALID_PASSWORD';

/**
 * POST /api/auth/change-password: the server signs every other device out and gives this one a
 * new session (decision 009); the caller adopts it (`adoptRenewedSession`).
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => apiClient.post('/auth/change-password', body),
  });
}

/**
 * POST /api/auth/change-email: confirmed by the current password; a link goes to the new address,
 * and the address changes when it is followed.
 */
export function useChangeEmail() {
  return useMutation({
    mutationFn: (input: { newEmail: string; password?: string }) =>
      apiClient.post('/auth/change-email', {
        ...input,
        callbackURL: paths.dashboard.profile,
      } satisfies ChangeEmailBody),
  });
}

/** POST /api/auth/revoke-other-sessions: every device but this one is signed out. */
export function revokeOtherSessions(): Promise<unknown> {
  return apiClient.post('/auth/revoke-other-sessions', {});
}

/** POST /api/auth/revoke-sessions: every device, this one included, is signed out. */
export function revokeAllSessions(): Promise<unknown> {
  return apiClient.post('/auth/revoke-sessions', {});
}
