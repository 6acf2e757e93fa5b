import { createBrowserRouter, type RouteObject } from 'react-router';
import { MainLayout } from '../components/layout/main-layout.tsx';
import { TopProgressBar } from '../components/ui/top-progress-bar.tsx';
import { dashboardRoute } from './routes/dashboard/routes.tsx';
import { RouterProviders } from './providers.tsx';
import { HomePage } from './routes/home.tsx';
import { NotFoundPage } from './routes/not-found.tsx';
import { RootErrorPage, RouteErrorPage } from './routes/route-error.tsx';

function InitialLoad() {
  return <TopProgressBar active />;
}

/**
 * Home is bundled with the shell (it is the landing page); every other route is a route-level
 * lazy import, so / loads no form, catalogue or dashboard code.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
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
              { index: true, Component: HomePage },
              { path: 'signup', lazy: () => import('./routes/signup.tsx') },
              { path: 'login', lazy: () => import('./routes/login.tsx') },
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
  return createBrowserRouter(routes);
}
