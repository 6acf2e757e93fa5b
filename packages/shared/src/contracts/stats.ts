import { z } from 'zod';
import { CLASS_STATUSES } from '../rules/constants.ts';

/**
 * Earnings and revenue computed on the server: GET /api/teachers/me/stats and
 * GET /api/admin/stats. Money comes twice: `…Cents` integers, exact, to add up and reconcile; and
 * the decimal amount the rest of the API speaks (spec §3 `price`, ClassStats `revenue`), to show.
 * Only paid lines count, archived classes and deleted students' lines included; a refunded line
 * is not paid, so every figure is net of refunds.
 */

/** One calendar month (UTC) of paid lines, by the date they were paid; months without any are zeros. */
export const MonthRevenue = z.object({
  /** 'YYYY-MM' */
  month: z.string(),
  revenueCents: z.number().int(),
  revenue: z.number(),
  paidEnrollments: z.number().int(),
});
export type MonthRevenue = z.infer<typeof MonthRevenue>;

/** One of the teacher's classes, whatever its status (archived ones keep their paid students). */
export const ClassEarnings = z.object({
  classId: z.string(),
  title: z.string(),
  status: z.enum(CLASS_STATUSES),
  /** Every enrollment of the class: paid, and pending ones still in a cart. */
  enrollments: z.number().int(),
  paidEnrollments: z.number().int(),
  revenueCents: z.number().int(),
  revenue: z.number(),
});
export type ClassEarnings = z.infer<typeof ClassEarnings>;

/** GET /api/teachers/me/stats: the caller's own classes. */
export const TeacherStats = z.object({
  totalCents: z.number().int(),
  total: z.number(),
  paidEnrollments: z.number().int(),
  /** Every enrollment in the teacher's classes, pending ones included. */
  enrollments: z.number().int(),
  /** Distinct accounts with a paid enrollment; a deleted account's lines still earn but are nobody's. */
  students: z.number().int(),
  /** Newest class first. */
  classes: z.array(ClassEarnings),
  /** Oldest month first, STATS_MONTHS (`rules/constants.ts`) of them. */
  byMonth: z.array(MonthRevenue),
});
export type TeacherStats = z.infer<typeof TeacherStats>;

/** GET /api/admin/stats: the whole platform. */
export const AdminStats = z.object({
  /** Accounts by displayed role (admin > teacher > student, DESIGN §1.5): the three add up to `total`. */
  users: z.object({
    total: z.number().int(),
    admins: z.number().int(),
    teachers: z.number().int(),
    students: z.number().int(),
  }),
  classes: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    accepted: z.number().int(),
    rejected: z.number().int(),
    archived: z.number().int(),
    /** Taken down by an admin, or a suspended teacher's (decision 043). */
    hidden: z.number().int(),
  }),
  totalCents: z.number().int(),
  total: z.number(),
  paidEnrollments: z.number().int(),
  /** Oldest month first, STATS_MONTHS (`rules/constants.ts`) of them. */
  byMonth: z.array(MonthRevenue),
});
export type AdminStats = z.infer<typeof AdminStats>;
