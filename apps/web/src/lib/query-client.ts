import { focusManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** Client errors (4xx) are answers, not glitches: retrying them only delays the message. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        retry: shouldRetry,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * "Focus" for the queries that refetch on it (the role flags, so a new role reaches an open tab): the tab becoming
 * visible, as TanStack Query's default, and also the window gaining focus — switching back from
 * another window leaves the tab visible all along, and is when an approved teacher returns.
 */
export function listenForFocus(onFocus: () => void): () => void {
  const listener = () => onFocus();
  window.addEventListener('visibilitychange', listener, false);
  window.addEventListener('focus', listener, false);
  return () => {
    window.removeEventListener('visibilitychange', listener);
    window.removeEventListener('focus', listener);
  };
}
if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
  focusManager.setEventListener((handleFocus) => listenForFocus(() => handleFocus()));
}

/** The app's one cache; route loaders prefetch into it (STYLE.md). */
export const queryClient = createQueryClient();

/**
 * The root of every query that belongs to one signed-in person: `['user', userId, …]`. Each
 * feature's key factory builds its private keys on it (enrollments, profile, a teacher's classes,
 * the admin's lists…); public data (catalogue, public class details, latest reviews, config, the
 * session itself) lives outside it. A query started for one person can therefore never answer
 * another's, and one call forgets everything of a person (`removeUserData`).
 */
export const USER_ROOT = 'user';

/** Who a user-scoped query belongs to; the auth feature's `AuthUser` is one. */
export interface UserScope {
  id: string;
  email: string;
}

export function userScopeKey(userId: string) {
  return [USER_ROOT, userId] as const;
}

/**
 * `keepPreviousData` for a user-scoped list: while the next page loads, the previous page stays on
 * screen, but only if it was this same person's; another person's page is never a placeholder.
 */
export function keepPreviousDataOf(userId: string) {
  return <T>(
    previousData: T | undefined,
    previousQuery: { queryKey: readonly unknown[] } | undefined,
  ): T | undefined =>
    previousQuery?.queryKey[0] === USER_ROOT && previousQuery.queryKey[1] === userId && userId !== ''
      ? previousData
      : undefined;
}

/** Whether a query key belongs to a person (any person) rather than to every visitor. */
export function isUserScopedKey(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === USER_ROOT;
}

/**
 * Forgets every user-scoped query, in flight ones included (their answers are dropped), except the
 * ones of `keepUserId`, and every mutation's state (its variables may hold a password or a card).
 * Called at sign-out and whenever the signed-in user changes: nothing of one person is shown to
 * the next.
 */
export function removeUserData(client: QueryClient, keepUserId: string | null = null): void {
  client.removeQueries({
    predicate: (query) => isUserScopedKey(query.queryKey) && query.queryKey[1] !== keepUserId,
  });
  client.getMutationCache().clear();
}
