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
 * The one rule for a line that counts: its status is `paid` (decision 003). A charge that cannot
 * be fulfilled is refunded whole before any of its lines turns paid (decision 010), and a paid
 * line that is refunded leaves `paid` for `refunded` (DESIGN §4), so it drops out of every count
 * here; a line still in a cart is nobody's enrollment yet. Lines of archived classes count, and so
 * do the paid lines of deleted accounts (student_id null, e-mail pseudonymised; DESIGN §4). Money
 * is not read here: the homes' money figures come from the earnings ledger (decision 039).
 */
const IS_PAID: SQL = sql`${enrollments.status} = 'paid'`;

/** Whose lines: one teacher's classes, or (no teacher) the whole platform. */
export interface CountScope {
  teacherId?: string | undefined;
}

const inScope = (scope: CountScope): SQL | undefined =>
  scope.teacherId === undefined ? undefined : eq(classes.teacherId, scope.teacherId);

export interface PaidTotals {
  paidEnrollments: number;
  /** Distinct accounts with a paid line (a deleted account's lines have no account). */
  students: number;
}

/** Paid lines in scope, classes of every status. */
export async function paidTotals(db: Db, scope: CountScope): Promise<PaidTotals> {
  const [row] = await db
    .select({
      paidEnrollments: count(),
      students: sql<number>`count(distinct ${enrollments.studentId})`.mapWith(Number),
    })
    .from(enrollments)
    .innerJoin(classes, eq(classes.id, enrollments.classId))
    .where(and(IS_PAID, inScope(scope)));
  return row ?? { paidEnrollments: 0, students: 0 };
}

export interface ClassPaidRow {
  classId: string;
  title: string;
  status: ClassStatus;
  paidEnrollments: number;
}

/** Every class of the teacher, archived included, newest first, with its paid lines (zero without). */
export async function paidByClass(db: Db, teacherId: string): Promise<ClassPaidRow[]> {
  return db
    .select({
      classId: classes.id,
      title: classes.title,
      status: classes.status,
      paidEnrollments: sql<number>`count(${enrollments.id})`.mapWith(Number),
    })
    .from(classes)
    .leftJoin(enrollments, and(eq(enrollments.classId, classes.id), IS_PAID))
    .where(eq(classes.teacherId, teacherId))
    .groupBy(classes.id)
    .orderBy(desc(classes.createdAt), desc(classes.id));
}

/** Paid lines per calendar month (UTC) of their payment since `since`, as { month: 'YYYY-MM', … }; empty months are absent. */
export async function paidByMonth(
  db: Db,
  since: Date,
  scope: CountScope,
): Promise<{ month: string; paidEnrollments: number }[]> {
  const month = sql<string>`to_char(date_trunc('month', ${enrollments.paidAt} at time zone 'UTC'), 'YYYY-MM')`;
  return db
    .select({ month, paidEnrollments: count() })
    .from(enrollments)
    .innerJoin(classes, eq(classes.id, enrollments.classId))
    .where(and(IS_PAID, gte(enrollments.paidAt, since), inScope(scope)))
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
