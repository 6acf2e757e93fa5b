import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isLocalPath } from '@skillhive/shared/rules/local-callback';
import { roleOf } from '@skillhive/shared/rules/roles';
import type { SignUpBody } from '@skillhive/shared/rules/auth-forms';
import { loadAuthClient } from '../../../lib/load-auth-client.ts';
import { ApiError, apiClient, setUnauthorizedHandler, tokenStorage } from '../../../lib/api-client.ts';
import { removeUserData } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { AuthContext, type AuthContextValue, type AuthUser } from '../auth-context.ts';
import { requestToken } from '../api/request-token.ts';
import { reportTimeZone } from '../../users/api/me.ts';
import { REDIRECT_REASONS } from '../safe-return-path.ts';
import { adminFlagQueryOptions, teacherFlagQueryOptions } from '../api/get-roles.ts';
import { SESSION_QUERY_KEY, sessionQueryOptions, sessionRequest } from '../api/get-session.ts';

interface BetterAuthError {
  message?: string | undefined;
  status: number;
  statusText?: string;
  code?: string | undefined;
}

/**
 * better-auth's client returns the error body spread with the status. Our server adds the
 * standard {error:{code,message,fields}} beside better-auth's own code/message (DESIGN §3), so
 * per-field messages (e.g. an e-mail already registered) reach the form.
 */
function toAuthError(error: BetterAuthError, fallback: string): ApiError {
  const standard = (error as { error?: { code?: unknown; fields?: unknown } }).error;
  const fields =
    standard && typeof standard.fields === 'object' && standard.fields !== null
      ? (standard.fields as Record<string, string>)
      : undefined;
  return new ApiError({
    status: error.status,
    code: typeof standard?.code === 'string' ? standard.code : (error.code ?? 'auth_error'),
    message: error.message || fallback,
    ...(fields ? { fields } : {}),
  });
}

/** Where a third-party provider sends the browser back to: our own origin only. */
function absoluteReturnUrl(returnTo: string | undefined): string {
  const path = returnTo && isLocalPath(returnTo) ? returnTo : paths.home;
  return `${window.location.origin}${path}`;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const session = useQuery(sessionQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const locationRef = useRef(location);
  useEffect(() => {
    locationRef.current = location;
  }, [location]);

  const sessionUser = session.data?.user ?? null;
  const userId = sessionUser?.id ?? null;
  const email = sessionUser?.email ?? null;
  const displayName = sessionUser?.name ?? '';
  const photoURL = sessionUser?.image ?? null;
  const emailVerified = sessionUser?.emailVerified === true;
  const user = useMemo<AuthUser | null>(
    () => (userId && email ? { id: userId, email, displayName, photoURL, emailVerified } : null),
    [userId, email, displayName, photoURL, emailVerified],
  );
  /** Tokens belong to a session: a new sign-in (even by the same person) gets a new one. */
  const sessionId = user ? (session.data?.session.id ?? null) : null;
  const sessionPending = session.isPending;

  // Whenever the signed-in person changes (signed out here or elsewhere, the session expired,
  // another account signed in), everything cached for the previous one goes: their keys hold
  // their id (lib/query-client.ts), so the next person's queries never read them meanwhile.
  const previousUserId = useRef<string | null>(null);
  useEffect(() => {
    if (sessionPending) return;
    if (previousUserId.current !== null && previousUserId.current !== userId) removeUserData(queryClient, userId);
    previousUserId.current = userId;
  }, [queryClient, sessionPending, userId]);

  /** Sign-in, sign-up and third-party sign-in in progress (spec §4). */
  const [busy, setBusy] = useState(false);
  /**
   * The session being ended. Until the session is gone the provider stays "loading", so nothing
   * in between (a role check, a new token) runs for a user who is leaving.
   */
  const [endingSession, setEndingSession] = useState<string | null>(null);
  const signingOut = sessionId !== null && endingSession === sessionId;
  /** The session whose token request has finished (stored or refused). */
  const [tokenFor, setTokenFor] = useState<string | null>(null);

  // spec §4: a reported user gets a token from POST /jwt, stored under access-token; no user, no token.
  useEffect(() => {
    if (sessionPending || signingOut) return;
    if (!sessionId || !email) {
      tokenStorage.clear();
      return;
    }
    if (tokenFor === sessionId) return;
    let cancelled = false;
    requestToken(email)
      .then((token) => {
        if (cancelled) return;
        tokenStorage.set(token);
        // After signing in (or up): the zone reminder mails use (decision 053).
        reportTimeZone(sessionId);
      })
      .catch(() => {
        // Without a token, secured calls are refused and the interceptor signs the user out.
        if (!cancelled) tokenStorage.clear();
      })
      .finally(() => {
        if (!cancelled) setTokenFor(sessionId);
      });
    return () => {
      cancelled = true;
    };
  }, [sessionPending, signingOut, sessionId, email, tokenFor]);

  const loading = sessionPending || busy || signingOut || (sessionId !== null && tokenFor !== sessionId);

  // Role checks wait until loading is false (spec §4).
  const rolesEnabled = email !== null && !loading;
  const adminQuery = useQuery({ ...adminFlagQueryOptions(user), enabled: rolesEnabled });
  const teacherQuery = useQuery({ ...teacherFlagQueryOptions(user), enabled: rolesEnabled });
  const isAdmin = rolesEnabled && adminQuery.data === true;
  const isTeacher = rolesEnabled && teacherQuery.data === true;
  const roleLoading = loading || (rolesEnabled && (adminQuery.isPending || teacherQuery.isPending));

  const refetchSession = session.refetch;

  const runBusy = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    setBusy(true);
    try {
      return await action();
    } finally {
      setBusy(false);
    }
  }, []);

  const signIn = useCallback<AuthContextValue['signIn']>(
    (emailInput, password) =>
      runBusy(async () => {
        const authClient = await loadAuthClient();
        const { error } = await authClient.signIn.email({ email: emailInput, password });
        if (error) throw toAuthError(error, 'Sign-in failed.');
        await refetchSession();
      }),
    [refetchSession, runBusy],
  );

  const createUser = useCallback<AuthContextValue['createUser']>(
    (input: SignUpBody) =>
      runBusy(async () => {
        const authClient = await loadAuthClient();
        const { data, error } = await authClient.signUp.email({
          name: input.name,
          email: input.email,
          password: input.password,
          image: input.image,
          phone: input.phone,
        });
        if (error) throw toAuthError(error, 'Sign-up failed.');
        // A server without auto sign-in returns no session token: sign in explicitly.
        if (!data?.token) {
          const signedIn = await authClient.signIn.email({ email: input.email, password: input.password });
          if (signedIn.error) throw toAuthError(signedIn.error, 'Your account was created, but signing in failed.');
        }
        await refetchSession();
      }),
    [refetchSession, runBusy],
  );

  const socialSignIn = useCallback(async (provider: 'google' | 'oidc', returnTo?: string) => {
    setBusy(true);
    const authClient = await loadAuthClient().catch((error: unknown) => {
      setBusy(false);
      throw error;
    });
    const { error } = await authClient.signIn.social({
      provider,
      callbackURL: absoluteReturnUrl(returnTo),
      errorCallbackURL: `${window.location.origin}${paths.login}`,
    });
    // On success the browser is already leaving for the provider; stay "loading".
    if (error) {
      setBusy(false);
      throw toAuthError(error, 'Sign-in with that provider failed.');
    }
  }, []);
  const googleSignIn = useCallback((returnTo?: string) => socialSignIn('google', returnTo), [socialSignIn]);
  const oidcSignIn = useCallback((returnTo?: string) => socialSignIn('oidc', returnTo), [socialSignIn]);

  /**
   * Ends the session: token first, then the server session, then every user-scoped query. When
   * the server has ended it already (`alreadyEnded`), the sign-out only clears the cookie, and
   * its failure does not keep the user here.
   */
  const endSession = useCallback(
    async ({ alreadyEnded = false }: { alreadyEnded?: boolean } = {}) => {
      setEndingSession(sessionId);
      const token = tokenStorage.get();
      tokenStorage.clear();
      const { error } = await loadAuthClient()
        .then((authClient) => authClient.signOut())
        .catch(() => ({ error: { status: 0, message: undefined } }));
      if (error && !alreadyEnded) {
        // The session goes on (offline, or the server refused): keep this tab's state as it was,
        // token included, so what is shown stays what the server holds (decision 020).
        if (token) tokenStorage.set(token);
        setEndingSession(null);
        const offline = error.status === 0 || (typeof navigator !== 'undefined' && navigator.onLine === false);
        throw toAuthError(
          error,
          offline
            ? 'You are offline, so you are still signed in. Log out again when you are back online.'
            : 'Logging out failed. Please try again.',
        );
      }
      const after = await refetchSession().catch(() => null);
      // Nothing of the previous user may be shown to the next one; public data stays cached.
      removeUserData(queryClient, after?.data?.user?.id ?? null);
      if (after?.data?.user) setEndingSession(null);
    },
    [queryClient, refetchSession, sessionId],
  );

  const logOut = useCallback<AuthContextValue['logOut']>(() => endSession(), [endSession]);
  const forgetSession = useCallback<AuthContextValue['forgetSession']>(
    () => endSession({ alreadyEnded: true }),
    [endSession],
  );

  const adoptRenewedSession = useCallback<AuthContextValue['adoptRenewedSession']>(async () => {
    // The new cookie is already set: ask for the new session and its token first, then switch to
    // both in one render, so guards never see a session without its token.
    const next = (await apiClient.get(sessionRequest.path).catch(() => null)) ?? null;
    if (!next?.user) {
      await refetchSession();
      return;
    }
    try {
      tokenStorage.set(await requestToken(next.user.email));
    } catch {
      tokenStorage.clear();
    }
    setTokenFor(next.session.id);
    queryClient.setQueryData(SESSION_QUERY_KEY, next);
  }, [queryClient, refetchSession]);

  const updateUserProfile = useCallback<AuthContextValue['updateUserProfile']>(
    async ({ displayName, photoURL }) => {
      const authClient = await loadAuthClient();
      const { error } = await authClient.updateUser({
        ...(displayName !== undefined ? { name: displayName } : {}),
        ...(photoURL !== undefined ? { image: photoURL } : {}),
      });
      if (error) throw toAuthError(error, 'Updating your profile failed.');
      await refetchSession();
    },
    [refetchSession],
  );

  // The interceptor of spec §6/§8: sign out and go to /login, remembering where the user was.
  useEffect(
    () =>
      setUnauthorizedHandler(async () => {
        await endSession().catch(() => undefined);
        const from = locationRef.current;
        // Already on /login (a late refusal): keep the page it remembers.
        if (from.pathname === paths.login) return;
        navigate(paths.login, { replace: true, state: { from, reason: REDIRECT_REASONS.sessionExpired } });
      }),
    [endSession, navigate],
  );

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      loading,
      createUser,
      signIn,
      googleSignIn,
      oidcSignIn,
      logOut,
      forgetSession,
      adoptRenewedSession,
      updateUserProfile,
      isAdmin,
      isTeacher,
      role: roleOf({ isAdmin, isTeacher }),
      roleLoading,
    }),
    [
      user,
      loading,
      createUser,
      signIn,
      googleSignIn,
      oidcSignIn,
      logOut,
      forgetSession,
      adoptRenewedSession,
      updateUserProfile,
      isAdmin,
      isTeacher,
      roleLoading,
    ],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}
