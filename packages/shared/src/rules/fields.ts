import { z } from 'zod/mini';
import { PASSWORD_MAX, PASSWORD_MIN, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from './constants.ts';
import { AUTH_MESSAGES } from './messages.ts';

/**
 * The field rules several forms share (name, photo, phone, e-mail, password, callback path). Every
 * form schema lives in its own module beside this one (`auth-forms`, `account-forms`, `class-form`,
 * `teach-form`, `review-form`, `reject-reason`, `card-form`, `coupons`), and the server validates the
 * same request bodies with them. They are written with `zod/mini` (decision 005): its functions
 * tree-shake, and because a schema is built by a call the bundler must keep, one module per form
 * keeps a page from shipping the schemas of every other form. Both Zod flavours share the core,
 * so the server's type provider and react-hook-form's resolver take these as they are.
 */

/** A required, trimmed string of at most `max` characters. */
export function requiredText(required: string, max: number, tooLong: string = required) {
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

/**
 * Callback paths the web app hands to the identity endpoints: a path on our own origin (one
 * leading slash, no scheme, no `//`), so a mail link can never send someone elsewhere.
 */
export const LocalCallbackPath = z
  .string()
  .check(z.maxLength(200), z.regex(/^\/(?![/\\])[A-Za-z0-9/_?=&.-]*$/, 'The callback must be a path on this site'));
