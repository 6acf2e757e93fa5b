/** Displayed role: admin > teacher > student (spec §4, DESIGN §1.5). */
export const ROLES = ['admin', 'teacher', 'student'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The role a person is shown with. Admin and teacher are independent flags (DESIGN §1.5): an
 * admin who also teaches is shown as admin.
 */
export function roleOf(flags: { isAdmin: boolean; isTeacher: boolean }): Role {
  if (flags.isAdmin) return 'admin';
  if (flags.isTeacher) return 'teacher';
  return 'student';
}
