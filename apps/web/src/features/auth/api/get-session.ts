import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

/** GET /api/auth/get-session (better-auth): the signed-in user and session, or null. */
export interface SessionData {
  session: { id: string };
  user: {
    id: string;
    email: string;
    name: string;
    image?: string | null | undefined;
    /** Whether the user followed the link sent to their address (decision 014). */
    emailVerified?: boolean | undefined;
  };
}

export const SESSION_QUERY_KEY = ['session'] as const;

/** The request every page's first load makes (the web build preloads it in index.html). */
export const sessionRequest = { path: '/auth/get-session' } as const;

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: async ({ signal }) => (await apiClient.get(sessionRequest.path, { signal })) ?? null,
    // Changes only when this tab signs in or out (and then it is refetched), or when a secured
    // call is refused (and then the interceptor ends it).
    staleTime: Infinity,
  });
