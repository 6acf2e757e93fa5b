import { ErrorCode } from '@skillhive/shared/rules/http';
import { isApiError } from '../../lib/api-client.ts';

/** The code of the 403 that applying to teach and paying answer for an unverified address (decision 014). */
export const EMAIL_NOT_VERIFIED = ErrorCode.EMAIL_NOT_VERIFIED;

export function isEmailNotVerified(error: unknown): boolean {
  return isApiError(error) && error.code === EMAIL_NOT_VERIFIED;
}

/** What an unverified user is told wherever applying to teach or paying is offered. */
export function verifyEmailMessage(email: string): string {
  return `Verify your e-mail address to apply to teach and to pay. We sent a link to ${email}.`;
}

export const MAIL_RATE_LIMITED = 'You asked for several links just now. Please wait a few minutes.';

/** A failed request for a mail (verification, password reset, e-mail change) as the user reads it. */
export function mailRequestFailureMessage(error: unknown, fallback: string): string {
  if (isApiError(error)) {
    if (error.status === 429) return MAIL_RATE_LIMITED;
    if (error.status === 0 || error.message) return error.message;
  }
  return fallback;
}
