import { z } from 'zod/mini';
import { Email, LocalCallbackPath, Name, Password, Phone, PhotoUrl } from './fields.ts';

/**
 * The sign-up, e-mail verification and password reset forms (spec §5), and their request bodies.
 * The login form is apart (`login-form.ts`): it checks no field rule, so /login ships none of them.
 */

/** Sign-up form and POST /api/auth/sign-up/email body (spec §5). */
export const SignUpBody = z.object({
  name: Name,
  image: PhotoUrl,
  phone: Phone,
  email: Email,
  password: Password,
});
export type SignUpBody = z.infer<typeof SignUpBody>;
export type SignUpInput = z.input<typeof SignUpBody>;

/** POST /api/auth/send-verification-email: send the verification link again. */
export const SendVerificationBody = z.object({ email: Email, callbackURL: z.optional(LocalCallbackPath) });
export type SendVerificationBody = z.infer<typeof SendVerificationBody>;

/** POST /api/auth/request-password-reset (forgot-password form). */
export const RequestPasswordResetBody = z.object({ email: Email, redirectTo: z.optional(LocalCallbackPath) });
export type RequestPasswordResetBody = z.infer<typeof RequestPasswordResetBody>;

/** POST /api/auth/reset-password: the token from the mail's link and a new password (spec §5 rule). */
export const ResetPasswordBody = z.object({
  token: z
    .string({ error: 'The reset link is incomplete' })
    .check(z.minLength(1, 'The reset link is incomplete'), z.maxLength(200)),
  newPassword: Password,
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;
