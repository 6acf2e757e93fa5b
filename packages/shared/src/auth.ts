import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from './constants.ts';

/** The messages of spec §5, written once for the server and the web forms. */
export const AUTH_MESSAGES = {
  nameRequired: 'Name is required',
  photoRequired: 'Photo URL is required',
  photoInvalid: 'Enter a valid photo URL (http:// or https://)',
  phoneRequired: 'Phone number is required',
  phoneMin: 'Must be at least 11 digits',
  phoneMax: 'Must be at most 20 digits',
  phonePattern: 'Must be between 11 and 20 digits',
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be 6 characters',
  passwordMax: 'Password must be at most 20 characters',
  passwordPattern: 'Password must have one Upper case one lower case, one number and one special characters',
  invalidCredentials: 'Invalid email or password',
} as const;

/**
 * Phone (DESIGN §1.9): 11 to 20 digits, an optional leading "+", digits may be grouped by "-" or
 * spaces. The spec's three messages are kept: too few, too many, and anything else malformed.
 */
const PHONE_SHAPE = /^\+?\d+(?:[ -]\d+)*$/;
export const Phone = z
  .string({ error: AUTH_MESSAGES.phoneRequired })
  .trim()
  .min(1, AUTH_MESSAGES.phoneRequired)
  .superRefine((value, ctx) => {
    if (!PHONE_SHAPE.test(value)) {
      ctx.addIssue({ code: 'custom', message: AUTH_MESSAGES.phonePattern });
      return;
    }
    const digits = value.replace(/\D/g, '').length;
    if (digits < PHONE_MIN_DIGITS) ctx.addIssue({ code: 'custom', message: AUTH_MESSAGES.phoneMin });
    else if (digits > PHONE_MAX_DIGITS) ctx.addIssue({ code: 'custom', message: AUTH_MESSAGES.phoneMax });
  });

/** Password rule of spec §5: 6–20 characters with upper, lower, digit and one of ! @ # $ & *. */
export const Password = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .min(PASSWORD_MIN, AUTH_MESSAGES.passwordMin)
  .max(PASSWORD_MAX, AUTH_MESSAGES.passwordMax)
  .regex(/(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[!@#$&*])/, AUTH_MESSAGES.passwordPattern);

export const Email = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(254, AUTH_MESSAGES.emailInvalid)
  .pipe(z.email(AUTH_MESSAGES.emailInvalid))
  .transform((email) => email.toLowerCase());

/** A photo address: an absolute http(s) URL, or a path on our own origin (uploads, shipped art). */
export const PhotoUrl = z
  .string({ error: AUTH_MESSAGES.photoRequired })
  .trim()
  .min(1, AUTH_MESSAGES.photoRequired)
  .max(2048, AUTH_MESSAGES.photoInvalid)
  .refine((value) => /^\/(?!\/)\S*$/.test(value) || /^https?:\/\/\S+$/i.test(value), AUTH_MESSAGES.photoInvalid);

export const Name = z
  .string({ error: AUTH_MESSAGES.nameRequired })
  .trim()
  .min(1, AUTH_MESSAGES.nameRequired)
  .max(100, 'Name must be at most 100 characters');

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
  name: Name.optional(),
  image: PhotoUrl.optional(),
  phone: Phone.optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** Login form (spec §5): both fields required, nothing else checked before the server answers. */
export const LoginBody = z.object({
  email: z
    .string({ error: AUTH_MESSAGES.emailRequired })
    .trim()
    .min(1, AUTH_MESSAGES.emailRequired)
    .transform((email) => email.toLowerCase()),
  password: z.string({ error: AUTH_MESSAGES.passwordRequired }).min(1, AUTH_MESSAGES.passwordRequired),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** POST /api/jwt (spec §7). */
export const JwtBody = z.object({ email: Email });
export const JwtResponse = z.object({ token: z.string() });

/** Which third-party sign-in buttons the web app should show. */
export const AuthProvidersResponse = z.object({
  google: z.boolean(),
  oidc: z.object({ name: z.string() }).nullable(),
});
export type AuthProvidersResponse = z.infer<typeof AuthProvidersResponse>;
