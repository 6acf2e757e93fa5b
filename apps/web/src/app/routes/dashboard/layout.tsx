import { RequireAuth } from '../../../features/auth/components/require-auth.tsx';
import { DashboardLayout } from '../../../features/dashboard/components/dashboard-layout.tsx';

/** /dashboard requires login (spec §2, §6): a visitor goes to /login, the page remembered. */
function DashboardRoute() {
  return (
    <RequireAuth>
      <DashboardLayout />
    </RequireAuth>
  );
}

export { DashboardRoute as Component };
