import { z } from 'zod';
import { ROLES, type Role } from './constants.ts';
import { PageQuery } from './common.ts';
import { Name, Phone, PhotoUrl } from './forms.ts';

export const RoleSchema = z.enum(ROLES);

/** Role precedence admin > teacher > student (spec §4, DESIGN §1.5). */
export function roleOf(flags: { isAdmin: boolean; isTeacher: boolean }): Role {
  if (flags.isAdmin) return 'admin';
  if (flags.isTeacher) return 'teacher';
  return 'student';
}

/** GET /api/users/profile/:email (spec §7). */
export const UserProfile = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  image: z.string().nullable(),
  phone: z.string().nullable(),
  role: RoleSchema,
  admin: z.boolean(),
  teacher: z.boolean(),
});
export type UserProfile = z.infer<typeof UserProfile>;

/** A row of the admin users table (spec §2 users). */
export const UserListItem = UserProfile.extend({ createdAt: z.string() });
export type UserListItem = z.infer<typeof UserListItem>;

export const UserListQuery = PageQuery.extend({ q: z.string().trim().max(100).optional() });
export type UserListQuery = z.infer<typeof UserListQuery>;

/**
 * POST /api/users: the signed-in user's own profile. Role and e-mail in the body are ignored
 * (DESIGN §1.1); only these fields are read, and only when the profile is first stored.
 */
export const SaveUserBody = z.object({
  name: z.optional(Name),
  image: z.optional(PhotoUrl),
  phone: z.optional(Phone),
});

export const AdminFlagResponse = z.object({ admin: z.boolean() });
export const TeacherFlagResponse = z.object({ teacher: z.boolean() });

/** GET /api/audit */
export const AuditEntry = z.object({
  _id: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  targetLabel: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
