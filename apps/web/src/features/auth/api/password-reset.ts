import { useMutation } from '@tanstack/react-query';
import type { RequestPasswordResetBody, ResetPasswordBody } from '@skillhive/shared/rules/auth-forms';
import { apiClient } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';

/**
 * POST /api/auth/request-password-reset: the same 200 whether or not an account has that address
 * (so it does not tell who has an account); 429 when asked too often. The mail's link opens /reset-password.
 */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) =>
      apiClient.post('/auth/request-password-reset', {
        email,
        redirectTo: paths.resetPassword,
      } satisfies RequestPasswordResetBody),
  });
}

/** The code of a 400 for a reset link that is unknown, used or older than an hour. */
export const INVALID_RESET_TOKEN = 'INVALID_TOKEN';

/** POST /api/auth/reset-password {token, newPassword}: ends every session of the account. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) => apiClient.post('/auth/reset-password', body),
  });
}
