import { Outlet } from 'react-router';
import { RequireRole } from '../../../features/auth/components/require-auth.tsx';

/** Admin-only children (spec §6): a signed-in user without the role goes to /. */
function AdminOnly() {
  return (
    <RequireRole role="admin">
      <Outlet />
    </RequireRole>
  );
}

export { AdminOnly as Component };
