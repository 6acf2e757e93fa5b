import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { AuthProvider } from '../features/auth/components/auth-provider.tsx';
import { RequireAuth } from '../features/auth/components/require-auth.tsx';

/**
 * Renders a dashboard page as the app does: inside the real `AuthProvider` (session, token, role
 * flags) behind `RequireAuth`, in a memory router that also knows `otherRoutes` (where the page
 * may navigate). With `browserOnRealServer` (browser.ts) the provider reads the session of
 * whoever signed in in the test's browser from the real server.
 */
export function renderSignedInPage(
  queryClient: QueryClient,
  page: { path: string; element: ReactNode },
  otherRoutes: { path: string; element: ReactNode }[] = [],
) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <AuthProvider>
            <Outlet />
          </AuthProvider>
        ),
        children: [{ path: page.path, element: <RequireAuth>{page.element}</RequireAuth> }, ...otherRoutes],
      },
    ],
    { initialEntries: [page.path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}
