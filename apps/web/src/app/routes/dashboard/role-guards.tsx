import { Outlet } from 'react-router';
import { RequireRole } from '../../../features/auth/components/require-auth.tsx';

/** Admin-only children (spec §6): a signed-in user without the role goes to /. */
export function AdminOnly() {
  return (
    <RequireRole role="admin">
      <Outlet />
    </RequireRole>
  );
}

/** Teacher-only children (spec §6). */
export function TeacherOnly() {
  return (
    <RequireRole role="teacher">
      <Outlet />
    </RequireRole>
  );
}
