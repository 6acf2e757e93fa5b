import { and, count, desc, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { ClassStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { schema } from '../../db/client.ts';

const { classes, enrollments, users } = schema;

/**
 * The reporting module reads the tables of others on purpose (decision 015): its figures are
 * aggregates across users, classes and enrollments, computed by the database in one place instead
 * of by each module or by the browser. It only reads.
 */

/**
 * The one rule for a line that earns money: its status is `paid`. That is "paid lines net of
 * refunds": a charge that cannot be fulfilled is refunded whole before any of its lines turns
 * paid (decision 010), and a paid line that is refunded leaves `paid` for `refunded` (DESIGN §4),
 * so it drops out of every sum here without a join to payment_intents. Revenue is what was paid for each line (`paid_cents`, after coupons).
 * Nothing else filters: lines of archived classes count, and so do the paid lines
 * of deleted accounts (student_id null, e-mail pseudonymised; DESIGN §4).
 */
const IS_EARNING: SQL = sql`${enrollments.status} = 'paid'`;

const paidCount = () => sql<number>`count(*) filter (where ${IS_EARNING})`.mapWith(Number);
const paidCents = () =>
  sql<number>`coalesce(sum(${enrollments.paidCents}) filter (where ${IS_EARNING}), 0)`.mapWith(Number);

/** Whose lines: one teacher's classes, or (no teacher) the whole platform. */
export interface EarningScope {
  teacherId?: string | undefined;
}

const inScope = (scope: EarningScope): SQL | undefined =>
  scope.teacherId === undefined ? undefined : eq(classes.teacherId, scope.teacherId);

export interface EarningTotals {
  enrollments: number;
  paidEnrollments: number;
  revenueCents: number;
  /** Distinct accounts with a paid line (a deleted account's lines have no account). */
  students: number;
}

/** Totals over every line in scope, classes of every status. */
export async function earningTotals(db: Db, scope: EarningScope): Promise<EarningTotals> {
  const [row] = await db
    .select({
      enrollments: count(),
      paidEnrollments: paidCount(),
      revenueCents: paidCents(),
      students: sql<number>`count(distinct ${enrollments.studentId}) filter (where ${IS_EARNING})`.mapWith(Number),
    })
    .from(enrollments)
    .innerJoin(classes, eq(classes.id, enrollments.classId))
    .where(inScope(scope));
  return row ?? { enrollments: 0, paidEnrollments: 0, revenueCents: 0, students: 0 };
}

export interface ClassEarningsRow {
  classId: string;
  title: string;
  status: ClassStatus;
  enrollments: number;
  paidEnrollments: number;
  revenueCents: number;
}

/** Every class of the teacher, archived included, newest first, with its lines' figures (zeros without). */
export async function earningsByClass(db: Db, teacherId: string): Promise<ClassEarningsRow[]> {
  return db
    .select({
      classId: classes.id,
      title: classes.title,
      status: classes.status,
      enrollments: count(enrollments.id),
      paidEnrollments: sql<number>`count(${enrollments.id}) filter (where ${IS_EARNING})`.mapWith(Number),
      revenueCents: paidCents(),
    })
    .from(classes)
    .leftJoin(enrollments, eq(enrollments.classId, classes.id))
    .where(eq(classes.teacherId, teacherId))
    .groupBy(classes.id)
    .orderBy(desc(classes.createdAt), desc(classes.id));
}

/** Paid lines per calendar month (UTC) of their payment since `since`, as { month: 'YYYY-MM', … }; empty months are absent. */
export async function earningsByMonth(
  db: Db,
  since: Date,
  scope: EarningScope,
): Promise<{ month: string; revenueCents: number; paidEnrollments: number }[]> {
  const month = sql<string>`to_char(date_trunc('month', ${enrollments.paidAt} at time zone 'UTC'), 'YYYY-MM')`;
  return db
    .select({
      month,
      revenueCents: sql<number>`coalesce(sum(${enrollments.paidCents}), 0)`.mapWith(Number),
      paidEnrollments: count(),
    })
    .from(enrollments)
    .innerJoin(classes, eq(classes.id, enrollments.classId))
    .where(and(IS_EARNING, gte(enrollments.paidAt, since), inScope(scope)))
    .groupBy(month);
}

/** Accounts by displayed role (admin > teacher > student, DESIGN §1.5), so the three add up to the total. */
export async function countUsersByRole(
  db: Db,
): Promise<{ total: number; admins: number; teachers: number; students: number }> {
  const [row] = await db
    .select({
      total: count(),
      admins: sql<number>`count(*) filter (where ${users.isAdmin})`.mapWith(Number),
      teachers: sql<number>`count(*) filter (where not ${users.isAdmin} and ${users.isTeacher})`.mapWith(Number),
      students: sql<number>`count(*) filter (where not ${users.isAdmin} and not ${users.isTeacher})`.mapWith(Number),
    })
    .from(users);
  return row ?? { total: 0, admins: 0, teachers: 0, students: 0 };
}

/** How many classes are in each status (statuses without any are absent). */
export async function countClassesByStatus(db: Db): Promise<{ status: ClassStatus; n: number }[]> {
  return db.select({ status: classes.status, n: count() }).from(classes).groupBy(classes.status);
}
