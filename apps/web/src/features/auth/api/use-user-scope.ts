import { useContext } from 'react';
import type { UserScope } from '../../../lib/query-client.ts';
import { AuthContext } from '../auth-context.ts';

/**
 * The signed-in person whose queries a hook reads or refreshes (lib/query-client.ts `USER_ROOT`),
 * or null when nobody is (or outside an `AuthProvider`): mutations invalidate their own user's keys.
 */
export function useUserScope(): UserScope | null {
  return useContext(AuthContext)?.user ?? null;
}
