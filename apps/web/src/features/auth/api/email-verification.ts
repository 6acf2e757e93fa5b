import { useMutation } from '@tanstack/react-query';
import type { SendVerificationBody } from '@skillhive/shared/rules/auth-forms';
import { apiClient } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';

/**
 * POST /api/auth/send-verification-email → {status: true}; 429 when asked too often. The mail's
 * link verifies and lands on /email-verified (decision 014).
 */
export function useSendVerificationEmail() {
  return useMutation({
    mutationFn: (email: string) =>
      apiClient.post('/auth/send-verification-email', {
        email,
        callbackURL: paths.emailVerified,
      } satisfies SendVerificationBody),
  });
}
