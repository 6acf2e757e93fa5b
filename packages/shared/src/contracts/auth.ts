import { z } from 'zod';
import { Email } from '../rules/fields.ts';

/** POST /api/jwt (spec §7). */
export const JwtBody = z.object({ email: Email });
export const JwtResponse = z.object({ token: z.string() });

/** Which third-party sign-in buttons the web app should show. */
export const AuthProvidersResponse = z.object({
  google: z.boolean(),
  oidc: z.object({ name: z.string() }).nullable(),
});
export type AuthProvidersResponse = z.infer<typeof AuthProvidersResponse>;
