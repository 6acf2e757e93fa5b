import { z } from 'zod';
import { CLASS_STATUSES } from '../rules/constants.ts';

/**
 * Earnings and revenue computed on the server: GET /api/teachers/me/stats and
 * GET /api/admin/stats. Money comes twice: `…Cents` integers, exact, to add up and reconcile; and
 * the decimal amount the rest of the API speaks (spec §3 `price`, ClassStats `revenue`), to show.
 * Every money figure is read from the earnings ledger (decision 039): a teacher's is their shares
 * less what was clawed back (after the platform's fee, net of refunds and lost disputes), the
 * platform's is what students paid for the lines they kept. Counts are of paid lines (decision
 * 003): a line in a cart is nobody's enrollment yet, and a refunded one is no longer one.
 */

/**
 * One calendar month (UTC) of sales, by the date they were paid; months without any are zeros.
 * `revenue…` is the teacher's earnings in a teacher's stats, what students paid in the admin's.
 */
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
  /** Paid lines, refunded ones not counted. */
  paidEnrollments: z.number().int(),
  /** What the teacher earned from the class: its lines' shares less claw-backs (the ledger). */
  revenueCents: z.number().int(),
  revenue: z.number(),
});
export type ClassEarnings = z.infer<typeof ClassEarnings>;

/**
 * Where the teacher's earnings are now (the ledger's buckets, decision 039): held until the refund
 * window closes or the session is held, available for the next payout (below 0: a debt a refund
 * after payout left), frozen by an open dispute, and paid out.
 */
export const TeacherBalances = z.object({
  pendingCents: z.number().int(),
  availableCents: z.number().int(),
  frozenCents: z.number().int(),
  paidCents: z.number().int(),
});
export type TeacherBalances = z.infer<typeof TeacherBalances>;

/** GET /api/teachers/me/stats: the caller's own classes. */
export const TeacherStats = z.object({
  /** What the teacher earned, all time: shares less claw-backs, = the sum of `balances`. */
  totalCents: z.number().int(),
  total: z.number(),
  balances: TeacherBalances,
  paidEnrollments: z.number().int(),
  /** Distinct accounts with a paid enrollment; a deleted account's lines still earn but are nobody's. */
  students: z.number().int(),
  /** Newest class first. */
  classes: z.array(ClassEarnings),
  /** Oldest month first, STATS_MONTHS (`rules/constants.ts`) of them: the teacher's earnings. */
  byMonth: z.array(MonthRevenue),
});
export type TeacherStats = z.infer<typeof TeacherStats>;

/** One month of the platform's sales: what students paid (`revenue…`) and the platform's fee of it. */
export const PlatformMonth = MonthRevenue.extend({
  feeCents: z.number().int(),
  fee: z.number(),
});
export type PlatformMonth = z.infer<typeof PlatformMonth>;

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
  /** Revenue, all time: what students paid for the lines they kept (refunds and lost disputes given back). */
  totalCents: z.number().int(),
  total: z.number(),
  /** The platform's fee of that revenue; the rest (`totalCents − feeCents`) is the teachers' shares. */
  feeCents: z.number().int(),
  fee: z.number(),
  paidEnrollments: z.number().int(),
  /** Oldest month first, STATS_MONTHS (`rules/constants.ts`) of them. */
  byMonth: z.array(PlatformMonth),
});
export type AdminStats = z.infer<typeof AdminStats>;
