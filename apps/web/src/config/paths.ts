import type { Role } from '@skillhive/shared/constants';

/** Every path of the web app, in one place (STYLE.md: routes are thin, paths come from here). */
export const paths = {
  home: '/',
  allClasses: '/allClassAllowed',
  teach: '/teach',
  login: '/login',
  signup: '/signup',
  // Where the links of account mails land (the server sends the same paths as callbacks).
  emailVerified: '/email-verified',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  dashboard: {
    root: '/dashboard',
    adminHome: '/dashboard/adminHome',
    teacherHome: '/dashboard/teacherHome',
    studentHome: '/dashboard/studentHome',
    teacherRequest: '/dashboard/teacherRequest',
    users: '/dashboard/users',
    allClasses: '/dashboard/allClasses',
    addClasses: '/dashboard/addClasses',
    myClass: '/dashboard/myClass',
    myEnrollClass: '/dashboard/myEnrollClass',
    payment: '/dashboard/payment',
    profile: '/dashboard/profile',
    audit: '/dashboard/audit',
    mailbox: '/dashboard/mailbox',
    contact: '/dashboard/contact',
    classDetails: (id: string) => `/dashboard/classDetails/${encodeURIComponent(id)}`,
    updateItem: (id: string) => `/dashboard/updateItem/${encodeURIComponent(id)}`,
    seeProgressDetails: (id: string) => `/dashboard/seeProgressDetails/${encodeURIComponent(id)}`,
    myClassDetails: (id: string) => `/dashboard/my-class/${encodeURIComponent(id)}`,
  },
} as const;

/** Dashboard target of spec §2: admin → adminHome, teacher → teacherHome, else studentHome. */
export function dashboardHomePath(role: Role): string {
  if (role === 'admin') return paths.dashboard.adminHome;
  if (role === 'teacher') return paths.dashboard.teacherHome;
  return paths.dashboard.studentHome;
}
