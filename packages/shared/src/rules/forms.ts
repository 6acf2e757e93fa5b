import { z } from 'zod/mini';
import {
  CATEGORIES,
  EXPERIENCE_LEVELS,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PHONE_MAX_DIGITS,
  PHONE_MIN_DIGITS,
  PRICE_MAX_CENTS,
  PRICE_MIN_CENTS,
  REASON_MAX,
  REVIEW_DETAILS_MAX,
} from './constants.ts';
import { AUTH_MESSAGES, CLASS_MESSAGES, REASON_MESSAGES, REVIEW_MESSAGES, TEACH_MESSAGES } from './messages.ts';

/**
 * The schemas behind the web forms, which the server also applies to the same request bodies.
 * They are written with `zod/mini` (decision 005): its functions tree-shake, so a form page ships
 * a few kilobytes of validation instead of all of classic Zod. Both flavours share Zod's core, so
 * the server's type provider and react-hook-form's resolver take these as they are.
 */

/** A required, trimmed string of at most `max` characters. */
function requiredText(required: string, max: number, tooLong: string = required) {
  return z.string({ error: required }).check(z.trim(), z.minLength(1, required), z.maxLength(max, tooLong));
}

/**
 * Phone (DESIGN §1.9): 11 to 20 digits, an optional leading "+", digits may be grouped by "-" or
 * spaces. The spec's three messages are kept: too few, too many, and anything else malformed.
 */
const PHONE_SHAPE = /^\+?\d+(?:[ -]\d+)*$/;
export const Phone = z.string({ error: AUTH_MESSAGES.phoneRequired }).check(
  z.trim(),
  z.minLength(1, AUTH_MESSAGES.phoneRequired),
  z.superRefine((value, ctx) => {
    if (value.length === 0) return;
    if (!PHONE_SHAPE.test(value)) {
      ctx.addIssue({ code: 'custom', message: AUTH_MESSAGES.phonePattern, input: value });
      return;
    }
    const digits = value.replace(/\D/g, '').length;
    if (digits < PHONE_MIN_DIGITS) ctx.addIssue({ code: 'custom', message: AUTH_MESSAGES.phoneMin, input: value });
    else if (digits > PHONE_MAX_DIGITS) ctx.addIssue({ code: 'custom', message: AUTH_MESSAGES.phoneMax, input: value });
  }),
);

/** Password rule of spec §5: 6–20 characters with upper, lower, digit and one of ! @ # $ & *. */
export const Password = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .check(
    z.minLength(1, AUTH_MESSAGES.passwordRequired),
    z.minLength(PASSWORD_MIN, AUTH_MESSAGES.passwordMin),
    z.maxLength(PASSWORD_MAX, AUTH_MESSAGES.passwordMax),
    z.regex(/(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[!@#$&*])/, AUTH_MESSAGES.passwordPattern),
  );

/** Trimmed and lower-cased; "required" alone when empty, else one "invalid" for any malformed address. */
export const Email = z.pipe(
  requiredText(AUTH_MESSAGES.emailRequired, 254, AUTH_MESSAGES.emailInvalid).check(z.toLowerCase()),
  z.email(AUTH_MESSAGES.emailInvalid),
);

/** A photo address: an absolute http(s) URL, or a path on our own origin (uploads, shipped art). */
export const PhotoUrl = requiredText(AUTH_MESSAGES.photoRequired, 2048, AUTH_MESSAGES.photoInvalid).check(
  z.refine(
    (value: string) => value.length === 0 || /^\/(?!\/)\S*$/.test(value) || /^https?:\/\/\S+$/i.test(value),
    AUTH_MESSAGES.photoInvalid,
  ),
);

export const Name = requiredText(AUTH_MESSAGES.nameRequired, 100, 'Name must be at most 100 characters');

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

/** Login form (spec §5): both fields required, nothing else checked before the server answers. */
export const LoginBody = z.object({
  email: z
    .string({ error: AUTH_MESSAGES.emailRequired })
    .check(z.trim(), z.minLength(1, AUTH_MESSAGES.emailRequired), z.toLowerCase()),
  password: z.string({ error: AUTH_MESSAGES.passwordRequired }).check(z.minLength(1, AUTH_MESSAGES.passwordRequired)),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** POST /api/auth/change-password: the new password follows the sign-up rule of spec §5. */
export const ChangePasswordBody = z.object({
  currentPassword: z
    .string({ error: AUTH_MESSAGES.currentPasswordRequired })
    .check(z.minLength(1, AUTH_MESSAGES.currentPasswordRequired)),
  newPassword: Password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** Price as a decimal number (spec §5 converts it so); the server stores cents. */
export const Price = z.coerce.number({ error: CLASS_MESSAGES.priceRequired }).check(
  z.refine((n: number) => Number.isFinite(n), CLASS_MESSAGES.priceRequired),
  z.refine(
    (n: number) => n * 100 >= PRICE_MIN_CENTS - 1e-6 && n * 100 <= PRICE_MAX_CENTS + 1e-6,
    CLASS_MESSAGES.priceRange,
  ),
  z.refine((n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, CLASS_MESSAGES.priceCents),
);

/** The display_url of one of our uploads. */
export const ImageUrl = requiredText(CLASS_MESSAGES.imageRequired, 2048);

/** POST /api/classes: name, e-mail and status come from the server (DESIGN §1.1). */
export const CreateClassBody = z.object({
  title: requiredText(CLASS_MESSAGES.titleRequired, 120),
  price: Price,
  description: requiredText(CLASS_MESSAGES.descriptionRequired, 5000, 'Description must be at most 5000 characters'),
  image: ImageUrl,
  category: z.enum(CATEGORIES, { error: CLASS_MESSAGES.categoryRequired }),
});
export type CreateClassBody = z.infer<typeof CreateClassBody>;

/** PATCH /api/classes/:id: any subset of the editable fields (spec §7). */
export const UpdateClassBody = z.partial(CreateClassBody);
export type UpdateClassBody = z.infer<typeof UpdateClassBody>;

/**
 * POST /api/teachers/teacher-requests. Name, e-mail and image come from the account and status is
 * always pending (DESIGN §1.1), so the body carries only what the applicant chooses.
 */
export const CreateTeacherRequestBody = z.object({
  experience: z.enum(EXPERIENCE_LEVELS, { error: TEACH_MESSAGES.experienceRequired }),
  title: requiredText(TEACH_MESSAGES.titleRequired, 120, 'Title must be at most 120 characters'),
  category: z.enum(CATEGORIES, { error: TEACH_MESSAGES.categoryRequired }),
});
export type CreateTeacherRequestBody = z.infer<typeof CreateTeacherRequestBody>;

/**
 * Callback paths the web app hands to the identity endpoints: a path on our own origin (one
 * leading slash, no scheme, no `//`), so a mail link can never send someone elsewhere.
 */
export const LocalCallbackPath = z
  .string()
  .check(z.maxLength(200), z.regex(/^\/(?![/\\])[A-Za-z0-9/_?=&.-]*$/, 'The callback must be a path on this site'));

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

/** POST /api/auth/change-email: the new address gets a link; the change happens when it is followed. */
export const ChangeEmailBody = z.object({ newEmail: Email, callbackURL: z.optional(LocalCallbackPath) });
export type ChangeEmailBody = z.infer<typeof ChangeEmailBody>;

/** A paid class's review form: a 1–5 rating and optional details. */
export const ReviewFormBody = z.object({
  rating: z.pipe(
    z.coerce.number({ error: REVIEW_MESSAGES.ratingRequired }),
    z
      .int({ error: REVIEW_MESSAGES.ratingWhole })
      .check(z.gte(1, REVIEW_MESSAGES.ratingRange), z.lte(5, REVIEW_MESSAGES.ratingRange)),
  ),
  details: z._default(z.string().check(z.trim(), z.maxLength(REVIEW_DETAILS_MAX, REVIEW_MESSAGES.detailsTooLong)), ''),
});
export type ReviewFormBody = z.infer<typeof ReviewFormBody>;

/** POST /api/reviews: the review form's fields for one class. */
export const CreateReviewBody = z.object({
  classId: z.string().check(z.minLength(1), z.maxLength(64)),
  ...ReviewFormBody.shape,
});
export type CreateReviewBody = z.infer<typeof CreateReviewBody>;

/**
 * The optional reason an admin gives when rejecting an application, a class or a class's changes;
 * the applicant or teacher reads it. The reject dialogs' form and the three reject calls' body.
 */
export const RejectReasonBody = z.object({
  reason: z.optional(z.string().check(z.trim(), z.maxLength(REASON_MAX, REASON_MESSAGES.tooLong))),
});
export type RejectReasonBody = z.infer<typeof RejectReasonBody>;

/**
 * DELETE /api/users/me: delete your own account. An account with a password confirms it; one
 * that signs in only through Google/OIDC leaves it empty and must have signed in within the last
 * 15 minutes.
 */
export const DeleteOwnAccountBody = z.object({ password: z.optional(z.string().check(z.maxLength(128))) });
export type DeleteOwnAccountBody = z.infer<typeof DeleteOwnAccountBody>;
