import { useQuery } from '@tanstack/react-query';
import { MainLayout } from '../components/layout/main-layout.tsx';
import { useAuth } from '../features/auth/auth-context.ts';
import { cartQueryOptions } from '../features/enrollments/api/enrollments.ts';

/** The layout of every page, given the session by the app (components import no feature). */
export function AppLayout() {
  const { user, loading, role, roleLoading, logOut } = useAuth();
  // The cart is visible on every page (Pay Now charges all of it, spec §4): the navbar counts it.
  const cart = useQuery(cartQueryOptions(user));
  const cartCount = user && cart.data ? cart.data.length : null;
  return <MainLayout session={{ user, loading, role, roleLoading, logOut, cartCount }} />;
}
