import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { Role } from '@skillhive/shared/rules/roles';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../auth-context.ts';
import { PageSpinner } from '../../../components/ui/page-spinner.tsx';
import { REDIRECT_REASONS } from '../safe-return-path.ts';

/** spec §2: a visitor not logged in goes to /login with the originating location remembered. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <PageSpinner label="Checking your session" />;
  if (!user)
    return (
      <Navigate to={paths.login} replace state={{ from: location, reason: REDIRECT_REASONS.signInForDashboard }} />
    );
  return children;
}

/** spec §2: a logged-in user lacking the needed role goes to /. */
export function RequireRole({ role, children }: { role: Exclude<Role, 'student'>; children: ReactNode }) {
  const { user, loading, roleLoading, isAdmin, isTeacher } = useAuth();
  const location = useLocation();
  if (loading || roleLoading) return <PageSpinner label="Checking your access" />;
  if (!user)
    return (
      <Navigate to={paths.login} replace state={{ from: location, reason: REDIRECT_REASONS.signInForDashboard }} />
    );
  const allowed = role === 'admin' ? isAdmin : isTeacher;
  if (!allowed)
    return (
      <Navigate
        to={paths.home}
        replace
        state={{ reason: role === 'admin' ? REDIRECT_REASONS.adminsOnly : REDIRECT_REASONS.teachersOnly }}
      />
    );
  return children;
}
