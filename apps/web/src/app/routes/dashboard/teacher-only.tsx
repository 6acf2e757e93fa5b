import { Outlet } from 'react-router';
import { RequireRole } from '../../../features/auth/components/require-auth.tsx';

/** Teacher-only children (spec §6): a signed-in user without the role goes to /. */
function TeacherOnly() {
  return (
    <RequireRole role="teacher">
      <Outlet />
    </RequireRole>
  );
}

export { TeacherOnly as Component };
