import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, RouterProvider, Routes, createMemoryRouter } from 'react-router';
import { AuthProvider } from '../features/auth/components/auth-provider.tsx';
import { RequireAuth } from '../features/auth/components/require-auth.tsx';
import { createLocationProbe } from './location-probe.tsx';

/**
 * Renders a dashboard page as the app does: inside the real `AuthProvider` (session, token, role
 * flags) behind `RequireAuth`, in a memory router that also knows `otherRoutes` (where the page
 * may navigate). With `browserOnRealServer` (browser.ts) the provider reads the session of
 * whoever signed in in the test's browser from the real server. `page.path` may carry a query
 * (`/dashboard/profile?error=…`, as a link lands), which the route's pattern leaves out. Returns
 * where the router is.
 */
export function renderSignedInPage(
  queryClient: QueryClient,
  page: { path: string; element: ReactNode },
  otherRoutes: { path: string; element: ReactNode }[] = [],
) {
  const { LocationProbe, location } = createLocationProbe();
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[page.path]}>
        <AuthProvider>
          <Routes>
            <Route path={page.path.split('?')[0]} element={<RequireAuth>{page.element}</RequireAuth>} />
            {otherRoutes.map((route) => (
              <Route key={route.path} path={route.path} element={route.element} />
            ))}
          </Routes>
          <LocationProbe />
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { location };
}

/**
 * Renders `element` for the signed-in person in a data router (createMemoryRouter), as the app's
 * router is: what blocks a navigation with unsaved edits (`useBlocker`) needs one.
 */
export function renderSignedInDataRoute(queryClient: QueryClient, element: ReactNode) {
  const router = createMemoryRouter([{ path: '/page', element: <AuthProvider>{element}</AuthProvider> }], {
    initialEntries: ['/page'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}
