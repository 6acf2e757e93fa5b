import { createAuthClient } from 'better-auth/client';
import { inferAdditionalFields } from 'better-auth/client/plugins';

/**
 * better-auth on our own origin under /api/auth (DESIGN §2). The base URL is given in full so
 * nothing is inferred from build-time environment variables. Import it through
 * `loadAuthClient()`: pages load it when someone starts to sign in, not on first paint.
 */
export const authClient = createAuthClient({
  baseURL: `${window.location.origin}/api/auth`,
  plugins: [
    inferAdditionalFields({
      user: { phone: { type: 'string', required: false } },
    }),
  ],
});

export type AuthClient = typeof authClient;
