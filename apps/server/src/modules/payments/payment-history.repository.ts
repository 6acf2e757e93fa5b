import { and, asc, count, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { payments, refunds } from '../../db/schema/payments.ts';

/**
 * Reads of a student's own payments and the refunds on them (issue 18 §5): the history list and
 * the receipt. Only the payments module's own tables; the lines come from the enrolments module.
 */

export type HistoryPaymentRow = typeof payments.$inferSelect;
export type HistoryRefundRow = typeof refunds.$inferSelect;

/** One page of a student's payments, newest first (payments_student_created_idx), and their count. */
export async function listPaymentsOfStudent(
  db: Db,
  options: { studentId: string; limit: number; offset: number },
): Promise<{ rows: HistoryPaymentRow[]; total: number }> {
  const where = eq(payments.studentId, options.studentId);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(payments).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** The payment if it is this student's; null for another's or none (the caller answers 404 alike). */
export async function findPaymentOfStudent(
  db: Db,
  options: { studentId: string; id: string },
): Promise<HistoryPaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, options.id), eq(payments.studentId, options.studentId)));
  return row ?? null;
}

/** The refunds of these payments that were not refused by the gateway, oldest first. */
export async function listLiveRefundsOfPayments(db: Db, paymentIds: string[]): Promise<HistoryRefundRow[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select()
    .from(refunds)
    .where(and(inArray(refunds.paymentId, paymentIds), ne(refunds.status, 'failed')))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
}
