import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { payments } from '../../db/schema/checkout.ts';
import { pageOfPayments } from './checkout.repository.ts';

/**
 * Reads of a student's own payments and the refunds on them: the history list and
 * the receipt. Only the checkout module's own tables; the lines come from the enrollments module.
 */

export type HistoryPaymentRow = typeof payments.$inferSelect;

/** One page of a student's payments, newest first (payments_student_created_idx), and their count. */
export async function listPaymentsOfStudent(
  db: Db,
  options: { studentId: string; limit: number; offset: number },
): Promise<{ rows: HistoryPaymentRow[]; total: number }> {
  return pageOfPayments(
    db,
    eq(payments.studentId, options.studentId),
    [desc(payments.createdAt), desc(payments.id)],
    options,
  );
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
