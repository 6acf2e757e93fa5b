import { z } from 'zod/mini';
import { PASSWORD_MAX, PASSWORD_MIN, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from './constants.ts';
import { hasControlCharacter, LINE_BREAKS_AND_TABS } from './control-characters.ts';
import { CALLBACK_MAX, isLocalPath } from './local-callback.ts';
import { AUTH_MESSAGES, TEXT_MESSAGES } from './messages.ts';

/**
 * The field rules several forms share (name, photo, phone, e-mail, password, callback path). Every
 * form schema lives in its own module beside this one (`auth-forms`, `account-forms`, `class-form`,
 * `teach-form`, `review-form`, `reject-reason`, `card-form`, `coupons`), and the server validates the
 * same request bodies with them. They are written with `zod/mini` (decision 005): its functions
 * tree-shake, and because a schema is built by a call the bundler must keep, one module per form
 * keeps a page from shipping the schemas of every other form. Both Zod flavours share the core,
 * so the server's type provider and react-hook-form's resolver take these as they are.
 */

/** Whether `value` is one line of printable text (no control character at all, control-characters.ts). */
export function isSingleLine(value: string): boolean {
  return !hasControlCharacter(value);
}

/** The check every single-line field carries (a name, a title, a code, a location, an address). */
export function singleLine() {
  return z.refine<string>((value) => isSingleLine(value), TEXT_MESSAGES.singleLine);
}

/** The check every multi-line field carries (a description, details, a reason): line breaks and tabs only. */
export function multiLine() {
  return z.refine<string>(
    (value) => !hasControlCharacter(value, LINE_BREAKS_AND_TABS),
    TEXT_MESSAGES.controlCharacters,
  );
}

/** A required, trimmed, single-line string of at most `max` characters. */
export function requiredText(required: string, max: number, tooLong: string = required) {
  return z
    .string({ error: required })
    .check(z.trim(), z.minLength(1, required), z.maxLength(max, tooLong), singleLine());
}

/** A required, trimmed string of at most `max` characters that may span several lines. */
export function requiredMultilineText(required: string, max: number, tooLong: string = required) {
  return z
    .string({ error: required })
    .check(z.trim(), z.minLength(1, required), z.maxLength(max, tooLong), multiLine());
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
 * Callback paths the web app hands to the identity endpoints: a path on our own origin, under the
 * one rule for callbacks (`local-callback.ts`), so a mail link can never send someone elsewhere.
 * The server checks the same values against PUBLIC_URL on every identity request (identity gate).
 */
export const LocalCallbackPath = z.string({ error: TEXT_MESSAGES.callback }).check(
  z.maxLength(CALLBACK_MAX, TEXT_MESSAGES.callback),
  z.refine((value: string) => isLocalPath(value), TEXT_MESSAGES.callback),
);
