import { isTimeZone } from '../rules/time-zones.ts';
import { z } from 'zod';
import { Name, Phone, PhotoUrl } from '../rules/fields.ts';
import { ROLES } from '../rules/roles.ts';
import { PageQuery } from './common.ts';

export const RoleSchema = z.enum(ROLES);

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

/**
 * GET/PUT /api/users/me/notifications: the e-mails a person may turn off (what shows in the
 * notification centre is GET/PUT /api/notifications/preferences, decision 047).
 * Verification, password reset, e-mail change, receipts and refunds always go out.
 */
export const NotificationPreferences = z.object({
  /** Your application to teach was approved or rejected. */
  teacherApplication: z.boolean(),
  /** Your class, or your changes to it, were approved or rejected. */
  classReviews: z.boolean(),
  /** Someone wrote to you: a short preview and a link to the conversation (decision 045). */
  newMessages: z.boolean(),
  /** A session of a class you paid for starts soon (decision 021); also in the notification centre (decision 047). */
  sessionReminders: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/**
 * PUT /api/users/me/time-zone (decision 053): the zone the person's browser reports
 * (`Intl.DateTimeFormat().resolvedOptions().timeZone`), sent by the web app after signing in and
 * on saving the profile; reminder mails show session times in it.
 */
export const OwnTimeZone = z.object({
  timeZone: z
    .string()
    .trim()
    .refine((value) => isTimeZone(value), 'timeZone must be an IANA time zone such as Europe/Berlin'),
});
export type OwnTimeZone = z.infer<typeof OwnTimeZone>;

/** A signed-in device, as the profile's session list shows it (tokens never leave the server). */
export const SessionListItem = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
export type SessionListItem = z.infer<typeof SessionListItem>;
