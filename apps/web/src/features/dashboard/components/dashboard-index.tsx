import { Navigate } from 'react-router';
import { dashboardHomePath } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { LoadingState } from '../../../components/ui/query-state.tsx';

/** /dashboard → the role's home (spec §2 "Dashboard target"), once the role is known. */
export function DashboardIndex() {
  const { role, roleLoading } = useAuth();
  if (roleLoading) return <LoadingState />;
  return <Navigate to={dashboardHomePath(role)} replace />;
}
