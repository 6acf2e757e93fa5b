import type { RouteObject } from 'react-router';
import { RouteErrorPage } from '../route-error.tsx';

/**
 * /dashboard and its children (spec §2). Every module here is a route-level lazy import, so the
 * public pages load no dashboard code, and charts load only with the screens that draw them.
 * Guards: the layout requires login; admin and teacher children sit under role guards (spec §6).
 */
export const dashboardRoute: RouteObject = {
  path: 'dashboard',
  lazy: () => import('./layout.tsx'),
  children: [
    {
      // Errors render inside the dashboard, so its menu stays usable.
      errorElement: <RouteErrorPage />,
      children: [
        { index: true, lazy: () => import('./index.tsx') },
        // Any signed-in user.
        { path: 'studentHome', lazy: () => import('./student-home.tsx') },
        { path: 'classDetails/:id', lazy: () => import('./class-details.tsx') },
        { path: 'payment', lazy: () => import('./payment.tsx') },
        { path: 'myEnrollClass', lazy: () => import('./my-enroll-class.tsx') },
        { path: 'profile', lazy: () => import('./profile.tsx') },
        { path: 'contact', lazy: () => import('./contact.tsx') },
        {
          lazy: async () => ({ Component: (await import('./role-guards.tsx')).TeacherOnly }),
          children: [
            { path: 'teacherHome', lazy: () => import('./teacher-home.tsx') },
            { path: 'addClasses', lazy: () => import('./add-classes.tsx') },
            { path: 'myClass', lazy: () => import('./my-class.tsx') },
            { path: 'updateItem/:id', lazy: () => import('./update-item.tsx') },
            { path: 'my-class/:id', lazy: () => import('./my-class-details.tsx') },
          ],
        },
        {
          lazy: async () => ({ Component: (await import('./role-guards.tsx')).AdminOnly }),
          children: [
            { path: 'adminHome', lazy: () => import('./admin-home.tsx') },
            { path: 'users', lazy: () => import('./users.tsx') },
            { path: 'teacherRequest', lazy: () => import('./teacher-request.tsx') },
            { path: 'allClasses', lazy: () => import('./all-classes.tsx') },
            { path: 'seeProgressDetails/:id', lazy: () => import('./see-progress-details.tsx') },
            { path: 'audit', lazy: () => import('./audit.tsx') },
            { path: 'mailbox', lazy: () => import('./mailbox.tsx') },
          ],
        },
      ],
    },
  ],
};
