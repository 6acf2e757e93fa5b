import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import type { EnrollmentStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import { enrollments } from '../../db/schema/enrollments.ts';
import { userJoin } from '../users/contact.public.ts';

/**
 * Paid enrollments of a class, deleted students' pseudonymised lines included: the class's enrolled
 * figure, which a student deleting their account does not change (financial records are kept).
 */
export async function countPaidEnrollments(db: Db, classId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), eq(enrollments.status, 'paid')));
  return row?.n ?? 0;
}

export type RosterRow = {
  id: string;
  /** The account's current name; null once the account is deleted. */
  studentName: string | null;
  studentEmail: string;
  status: EnrollmentStatus;
  priceCents: number;
  createdAt: Date;
  paidAt: Date | null;
};

/**
 * One page of a class's enrollments, every status, newest first, with each student's current name
 * (enrollments_class_idx finds the class's lines).
 */
export async function listRosterOfClass(
  db: Db,
  options: { classId: string; limit: number; offset: number },
): Promise<{ rows: RosterRow[]; total: number }> {
  const where = eq(enrollments.classId, options.classId);
  return withTotal(
    db
      .select({
        id: enrollments.id,
        studentName: userJoin.name,
        studentEmail: enrollments.studentEmail,
        status: enrollments.status,
        priceCents: enrollments.priceCents,
        createdAt: enrollments.createdAt,
        paidAt: enrollments.paidAt,
      })
      .from(enrollments)
      .leftJoin(userJoin.table, eq(userJoin.id, enrollments.studentId))
      .where(where)
      .orderBy(desc(enrollments.createdAt), desc(enrollments.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: enrollments, where },
  );
}

/**
 * A class's paid lines and what was paid for them. Only paid lines count (decision 003): a line
 * in a cart is nobody's enrollment yet, and a refunded one is not one any more.
 */
export async function enrollmentTotals(db: Db, classId: string): Promise<{ paid: number; revenueCents: number }> {
  const [row] = await db
    .select({
      paid: count(),
      revenueCents: sql<number>`coalesce(sum(${enrollments.paidCents}), 0)`.mapWith(Number),
    })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), eq(enrollments.status, 'paid')));
  return row ?? { paid: 0, revenueCents: 0 };
}

/** Paid lines per ISO week (Monday start, UTC) of their payment since `since`, as { week: 'YYYY-MM-DD', n }. */
export async function enrollmentsPerWeek(db: Db, classId: string, since: Date): Promise<{ week: string; n: number }[]> {
  const week = sql<string>`to_char(date_trunc('week', ${enrollments.paidAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  return db
    .select({ week, n: count() })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), eq(enrollments.status, 'paid'), gte(enrollments.paidAt, since)))
    .groupBy(week);
}
