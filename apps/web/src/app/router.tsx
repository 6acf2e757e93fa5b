import { createBrowserRouter, type RouteObject } from 'react-router';
import { queryClient } from '../lib/query-client.ts';
import { sessionQueryOptions } from '../features/auth/api/get-session.ts';
import { endFirstPageLoad, loadRouteData } from './route-data.ts';
import { MainLayout } from '../components/layout/main-layout.tsx';
import { TopProgressBar } from '../components/ui/top-progress-bar.tsx';
import { dashboardRoute } from './routes/dashboard/routes.tsx';
import { RouterProviders } from './providers.tsx';
import { NotFoundPage } from './routes/not-found.tsx';
import { RootErrorPage, RouteErrorPage } from './routes/route-error.tsx';

function InitialLoad() {
  return <TopProgressBar active />;
}

/**
 * Every route is a route-level lazy import, home included: the shell is what all pages share,
 * so / loads no form, catalogue or dashboard code and the other pages no carousel.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    // The navbar and every guard read the session: the first page renders with it.
    loader: () => loadRouteData(queryClient.prefetchQuery(sessionQueryOptions())),
    Component: RouterProviders,
    errorElement: <RootErrorPage />,
    HydrateFallback: InitialLoad,
    children: [
      {
        Component: MainLayout,
        children: [
          {
            // Errors render inside the layout, so the navbar stays usable.
            errorElement: <RouteErrorPage />,
            children: [
              { index: true, lazy: () => import('./routes/home.tsx') },
              { path: 'signup', lazy: () => import('./routes/signup.tsx') },
              { path: 'login', lazy: () => import('./routes/login.tsx') },
              { path: 'forgot-password', lazy: () => import('./routes/forgot-password.tsx') },
              { path: 'reset-password', lazy: () => import('./routes/reset-password.tsx') },
              { path: 'email-verified', lazy: () => import('./routes/email-verified.tsx') },
              { path: 'teach', lazy: () => import('./routes/teach.tsx') },
              { path: 'allClassAllowed', lazy: () => import('./routes/all-classes.tsx') },
              dashboardRoute,
              { path: '*', Component: NotFoundPage },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    endFirstPageLoad();
    unsubscribe();
  });
  return router;
}
