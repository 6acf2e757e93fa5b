import type { Role } from '@skillhive/shared/constants';

/**
 * Role precedence admin > teacher > student (spec §4, DESIGN §1.5) — the rule of `roleOf` in
 * @skillhive/shared. That module also defines the users' Zod schemas, and importing it would put
 * Zod (~25 KB gzip) into the landing page's bundle, so the shell uses this copy;
 * display-role.test.ts pins the two to the same answers.
 */
export function displayRole(flags: { isAdmin: boolean; isTeacher: boolean }): Role {
  if (flags.isAdmin) return 'admin';
  if (flags.isTeacher) return 'teacher';
  return 'student';
}
