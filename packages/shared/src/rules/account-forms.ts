import { z } from 'zod/mini';
import { Email, LocalCallbackPath, Name, Password, Phone, PhotoUrl } from './fields.ts';
import { AUTH_MESSAGES } from './messages.ts';

/** The profile's forms: edit the profile, change the password or the e-mail address, delete the account. */

/**
 * POST /api/auth/update-user (spec §7 "profile update (displayName, photoURL)"): the fields a
 * user may change about themself, under the sign-up rules. E-mail and roles are not among them.
 */
export const UpdateUserBody = z.object({
  name: z.optional(Name),
  image: z.optional(PhotoUrl),
  phone: z.optional(Phone),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** POST /api/auth/change-password: the new password follows the sign-up rule of spec §5. */
export const ChangePasswordBody = z.object({
  currentPassword: z
    .string({ error: AUTH_MESSAGES.currentPasswordRequired })
    .check(z.minLength(1, AUTH_MESSAGES.currentPasswordRequired)),
  newPassword: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/**
 * POST /api/auth/change-email: the new address gets a link; the change happens when it is followed.
 * The current password confirms the person (an account with none leaves it empty and must have
 * signed in within the last 15 minutes), as for deleting the account.
 */
export const ChangeEmailBody = z.object({
  newEmail: Email,
  callbackURL: z.optional(LocalCallbackPath),
  password: z.optional(z.string().check(z.maxLength(128))),
});
export type ChangeEmailBody = z.infer<typeof ChangeEmailBody>;

/**
 * DELETE /api/users/me: delete your own account. An account with a password confirms it; one
 * that signs in only through Google/OIDC leaves it empty and must have signed in within the last
 * 15 minutes.
 */
export const DeleteOwnAccountBody = z.object({ password: z.optional(z.string().check(z.maxLength(128))) });
export type DeleteOwnAccountBody = z.infer<typeof DeleteOwnAccountBody>;

/** POST /api/users/not-me: the token of a "this was not me" link mailed to the account's address. */
export const NotMeBody = z.object({ token: z.string().check(z.minLength(1), z.maxLength(200)) });
export type NotMeBody = z.infer<typeof NotMeBody>;
