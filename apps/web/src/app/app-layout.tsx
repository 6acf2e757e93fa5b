import { MainLayout } from '../components/layout/main-layout.tsx';
import { useAuth } from '../features/auth/auth-context.ts';

/** The layout of every page, given the session by the app (components import no feature). */
export function AppLayout() {
  const { user, loading, role, roleLoading, logOut } = useAuth();
  return <MainLayout session={{ user, loading, role, roleLoading, logOut }} />;
}
