import { createContext, useContext } from 'react';
import type { Role } from '@skillhive/shared/rules/roles';
import type { SignUpBody } from '@skillhive/shared/rules/auth-forms';

/** The signed-in user as spec §3 names it (identity provider fields). */
export interface AuthUser {
  id: string;
  email: string;
  displayName: string;
  photoURL: string | null;
  /** Applying to teach and paying need a verified address (decision 014). */
  emailVerified: boolean;
}

export interface AuthContextValue {
  user: AuthUser | null;
  /**
   * spec §4: true at start, during sign-in, sign-up, third-party sign-in and sign-out, and until
   * the session token for the current user is stored.
   */
  loading: boolean;
  createUser: (input: SignUpBody) => Promise<void>;
  signIn: (email: string, password: string) => Promise<void>;
  /** Redirects to Google; `returnTo` is the in-app path to land on afterwards. */
  googleSignIn: (returnTo?: string) => Promise<void>;
  /** Redirects to the configured OpenID Connect provider (better-auth id "oidc"). */
  oidcSignIn: (returnTo?: string) => Promise<void>;
  logOut: () => Promise<void>;
  /**
   * The server has already ended this session (signed out everywhere, account deleted): forget
   * it here exactly as a sign-out does. Navigate away first if the current page needs a user.
   */
  forgetSession: () => Promise<void>;
  /**
   * A password change replaced this device's session with a new one (decision 009): adopt it and
   * its API token without a signed-out moment in between.
   */
  adoptRenewedSession: () => Promise<void>;
  updateUserProfile: (profile: { displayName?: string; photoURL?: string }) => Promise<void>;
  /** Role flags (spec §3, §6); checked only once `loading` is false. */
  isAdmin: boolean;
  isTeacher: boolean;
  role: Role;
  roleLoading: boolean;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
