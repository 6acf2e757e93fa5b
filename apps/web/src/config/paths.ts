import type { Role } from '@skillhive/shared/constants';
import { fillPath, PAGES } from '../app/routes.manifest.ts';

const withId = (pattern: string) => (id: string) => fillPath(pattern, { id });

/**
 * Every path of the web app (STYLE.md: routes are thin, paths come from here), read from the
 * route manifest (src/app/routes.manifest.ts), where each page is declared once.
 */
export const paths = {
  home: PAGES.home.path,
  allClasses: PAGES.allClasses.path,
  teach: PAGES.teach.path,
  login: PAGES.login.path,
  signup: PAGES.signup.path,
  emailVerified: PAGES.emailVerified.path,
  forgotPassword: PAGES.forgotPassword.path,
  resetPassword: PAGES.resetPassword.path,
  dashboard: {
    root: PAGES.dashboard.path,
    adminHome: PAGES.adminHome.path,
    teacherHome: PAGES.teacherHome.path,
    studentHome: PAGES.studentHome.path,
    teacherRequest: PAGES.teacherRequest.path,
    users: PAGES.users.path,
    allClasses: PAGES.dashboardAllClasses.path,
    addClasses: PAGES.addClasses.path,
    myClass: PAGES.myClass.path,
    myEnrollClass: PAGES.myEnrollClass.path,
    payment: PAGES.payment.path,
    profile: PAGES.profile.path,
    audit: PAGES.audit.path,
    mailbox: PAGES.mailbox.path,
    contact: PAGES.contact.path,
    classDetails: withId(PAGES.classDetails.path),
    updateItem: withId(PAGES.updateItem.path),
    seeProgressDetails: withId(PAGES.seeProgressDetails.path),
    myClassDetails: withId(PAGES.myClassDetails.path),
  },
} as const;

/** Dashboard target of spec §2: admin → adminHome, teacher → teacherHome, else studentHome. */
export function dashboardHomePath(role: Role): string {
  if (role === 'admin') return paths.dashboard.adminHome;
  if (role === 'teacher') return paths.dashboard.teacherHome;
  return paths.dashboard.studentHome;
}
