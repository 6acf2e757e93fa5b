import type { Role } from '@skillhive/shared/rules/roles';

/**
 * What the layout shows of the signed-in person. The app (src/app/app-layout.tsx) reads it from
 * the auth feature and passes it in, so layout components import no feature.
 */
export interface LayoutSession {
  user: { email: string; displayName: string; photoURL: string | null } | null;
  /** The session is being read or changed (spec §4): the navbar shows a placeholder. */
  loading: boolean;
  role: Role;
  /** The role flags are loading: the Dashboard link waits for them (spec §2). */
  roleLoading: boolean;
  logOut: () => Promise<void>;
  /** Classes in the signed-in person's cart, or null while unknown: the navbar's cart shows it. */
  cartCount?: number | null;
}
