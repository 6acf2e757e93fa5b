import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MainLayout } from '../components/layout/main-layout.tsx';
import { useAuth } from '../features/auth/auth-context.ts';
import { cartQueryOptions } from '../features/enrollments/api/enrollments.ts';
import { useHydrated } from '../lib/use-hydrated.ts';

/**
 * The notification bell (decision 047) is its own chunk, loaded once a signed-in page has
 * rendered: visitors never download it, and no page's first load waits for it (decision 005).
 */
const NotificationBell = lazy(() => import('../features/notifications/components/notification-bell.tsx'));

/** The layout of every page, given the session by the app (components import no feature). */
export function AppLayout() {
  const { user, loading, role, roleLoading, logOut } = useAuth();
  // The cart is visible on every page (Pay Now charges all of it, spec §4): the navbar counts it.
  const cart = useQuery(cartQueryOptions(user));
  const cartCount = user && cart.data ? cart.data.length : null;
  // Not in the server's render (decision 030) nor in the hydrating one, which must match it.
  const isHydrated = useHydrated();
  return (
    <MainLayout
      session={{ user, loading, role, roleLoading, logOut, cartCount }}
      navbarExtra={
        user && isHydrated ? (
          <Suspense fallback={null}>
            <NotificationBell />
          </Suspense>
        ) : null
      }
    />
  );
}
