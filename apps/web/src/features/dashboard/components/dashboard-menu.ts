import type { Role } from '@skillhive/shared/rules/roles';
import { paths } from '../../../config/paths.ts';

export interface MenuItem {
  to: string;
  label: string;
  /** Shown only when the deployment offers it (GET /api/config). */
  requires?: 'mailbox';
}

/**
 * spec §2 side menus (plus the audit log for admins). A person sees the section of every role
 * they hold, admin first, then teacher, then student, so an admin who teaches, or a teacher who
 * studies, reaches every page of theirs; the spec's precedence picks only the default home. Every
 * account can enroll and pay, so every account has the student section. Messages and Profile close the role sections once.
 */
export const DASHBOARD_MENUS: Record<Role, MenuItem[]> = {
  admin: [
    { to: paths.dashboard.adminHome, label: 'Admin Home' },
    { to: paths.dashboard.teacherRequest, label: 'Teacher Requests' },
    { to: paths.dashboard.users, label: 'Users' },
    { to: paths.dashboard.allClasses, label: 'All Classes' },
    { to: paths.dashboard.refunds, label: 'Refunds' },
    { to: paths.dashboard.payouts, label: 'Payouts' },
    { to: paths.dashboard.coupons, label: 'Coupons' },
    { to: paths.dashboard.reports, label: 'Reports' },
    { to: paths.dashboard.audit, label: 'Audit Log' },
    { to: paths.dashboard.mailbox, label: 'Mailbox', requires: 'mailbox' },
  ],
  teacher: [
    { to: paths.dashboard.teacherHome, label: 'Teacher Home' },
    { to: paths.dashboard.addClasses, label: 'Add a Class' },
    { to: paths.dashboard.myClass, label: 'My Classes' },
    { to: paths.dashboard.myCoupons, label: 'My Coupons' },
    { to: paths.dashboard.earnings, label: 'Earnings' },
  ],
  student: [
    { to: paths.dashboard.studentHome, label: 'Student Home' },
    { to: paths.dashboard.myEnrollClass, label: 'My Enrolled Classes' },
    { to: paths.dashboard.paymentHistory, label: 'Payment History' },
  ],
};

export const SECTION_TITLES: Record<Role, string> = { admin: 'Admin', teacher: 'Teaching', student: 'Learning' };

export const PROFILE_ITEM: MenuItem = { to: paths.dashboard.profile, label: 'Profile' };

/** Every account asks teachers and every teacher answers in one inbox (decision 045). */
export const MESSAGES_ITEM: MenuItem = { to: paths.dashboard.messages, label: 'Messages' };

/** What happened to a person, newest first (decision 047); the navbar's bell opens the latest. */
export const NOTIFICATIONS_ITEM: MenuItem = { to: paths.dashboard.notifications, label: 'Notifications' };

/** The roles whose sections a person sees, in the menu's order. */
export function menuRoles({ isAdmin, isTeacher }: { isAdmin: boolean; isTeacher: boolean }): Role[] {
  return [...(isAdmin ? (['admin'] as const) : []), ...(isTeacher ? (['teacher'] as const) : []), 'student'];
}

/** spec §2: the menu "also links to home and to menu and contact entries". */
export const SHARED_MENU: MenuItem[] = [
  { to: paths.home, label: 'Home' },
  { to: paths.allClasses, label: 'Classes Menu' },
  { to: paths.dashboard.contact, label: 'Contact' },
];
