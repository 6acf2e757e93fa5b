import type { Role } from '@skillhive/shared/rules/roles';
import { paths } from '../../../config/paths.ts';

export interface MenuItem {
  to: string;
  label: string;
  /** Shown only when the deployment offers it (GET /api/config). */
  requires?: 'mailbox';
}

/** spec §2 side menus (plus the audit log for admins, issue 7); admin first, else teacher, else student. */
export const DASHBOARD_MENUS: Record<Role, MenuItem[]> = {
  admin: [
    { to: paths.dashboard.adminHome, label: 'Admin Home' },
    { to: paths.dashboard.teacherRequest, label: 'Teacher Requests' },
    { to: paths.dashboard.users, label: 'Users' },
    { to: paths.dashboard.allClasses, label: 'All Classes' },
    { to: paths.dashboard.refunds, label: 'Refunds' },
    { to: paths.dashboard.coupons, label: 'Coupons' },
    { to: paths.dashboard.audit, label: 'Audit Log' },
    { to: paths.dashboard.mailbox, label: 'Mailbox', requires: 'mailbox' },
    { to: paths.dashboard.profile, label: 'Profile' },
  ],
  teacher: [
    { to: paths.dashboard.teacherHome, label: 'Teacher Home' },
    { to: paths.dashboard.addClasses, label: 'Add a Class' },
    { to: paths.dashboard.myClass, label: 'My Classes' },
    { to: paths.dashboard.myCoupons, label: 'My Coupons' },
    { to: paths.dashboard.profile, label: 'Profile' },
  ],
  student: [
    { to: paths.dashboard.studentHome, label: 'Student Home' },
    { to: paths.dashboard.myEnrollClass, label: 'My Enrolled Classes' },
    { to: paths.dashboard.paymentHistory, label: 'Payment History' },
    { to: paths.dashboard.profile, label: 'Profile' },
  ],
};

/** spec §2: the menu "also links to home and to menu and contact entries". */
export const SHARED_MENU: MenuItem[] = [
  { to: paths.home, label: 'Home' },
  { to: paths.allClasses, label: 'Classes Menu' },
  { to: paths.dashboard.contact, label: 'Contact' },
];
