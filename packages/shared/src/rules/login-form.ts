import { z } from 'zod/mini';
import { AUTH_MESSAGES } from './messages.ts';

/** Login form (spec §5): both fields required, nothing else checked before the server answers. */
export const LoginBody = z.object({
  email: z
    .string({ error: AUTH_MESSAGES.emailRequired })
    .check(z.trim(), z.minLength(1, AUTH_MESSAGES.emailRequired), z.toLowerCase()),
  password: z.string({ error: AUTH_MESSAGES.passwordRequired }).check(z.minLength(1, AUTH_MESSAGES.passwordRequired)),
});
export type LoginBody = z.infer<typeof LoginBody>;
