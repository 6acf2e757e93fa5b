import { and, asc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { EnrollmentStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { enrollments } from '../../db/schema/enrollments.ts';
import { classJoin } from '../classes/classes.public.ts';

/**
 * What was paid for a line: `paid_cents`, which the database requires on every paid or refunded
 * line (enrollments_paid_cents); the lines of a payment are never pending, so it is never null here.
 */
const paidCentsOf = sql<number>`coalesce(${enrollments.paidCents}, 0)`.mapWith(Number);

/** The class titles of these enrollments (those still there), for a mail about them. */
export async function listTitlesOfEnrollments(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ title: enrollments.title })
    .from(enrollments)
    .where(inArray(enrollments.id, ids))
    .orderBy(asc(enrollments.title));
  return rows.map((r) => r.title);
}

/**
 * Flips exactly these enrollments from pending to paid, each with what was paid for it (one
 * statement: a CASE over the ids); returns the lines flipped, with their classes.
 */
export async function markEnrollmentsPaid(
  db: Db,
  options: { studentId: string; lines: readonly { id: string; paidCents: number }[]; paymentId: string; paidAt: Date },
): Promise<{ id: string; classId: string }[]> {
  if (options.lines.length === 0) return [];
  const paidCents = sql<number>`(case ${sql.join(
    options.lines.map((line) => sql`when ${enrollments.id} = ${line.id}::uuid then ${line.paidCents}::integer`),
    sql` `,
  )} end)`;
  const rows = await db
    .update(enrollments)
    .set({
      status: 'paid',
      paymentId: options.paymentId,
      paidAt: options.paidAt,
      reservedBy: null,
      seatHeldUntil: null,
      paidCents,
    })
    .where(
      and(
        eq(enrollments.studentId, options.studentId),
        inArray(
          enrollments.id,
          options.lines.map((line) => line.id),
        ),
        eq(enrollments.status, 'pending'),
      ),
    )
    .returning({ id: enrollments.id, classId: enrollments.classId });
  return rows;
}

/** The paid lines of some payments (title as enrolled, what was paid for each), for receipts and GET /api/payments/:email. */
export async function listLinesOfPayments(
  db: Db,
  paymentIds: string[],
): Promise<{ paymentId: string; classId: string; title: string; priceCents: number; paidCents: number }[]> {
  if (paymentIds.length === 0) return [];
  const rows = await db
    .select({
      paymentId: enrollments.paymentId,
      classId: enrollments.classId,
      title: enrollments.title,
      priceCents: enrollments.priceCents,
      paidCents: paidCentsOf,
    })
    .from(enrollments)
    .where(inArray(enrollments.paymentId, paymentIds))
    .orderBy(asc(enrollments.title), asc(enrollments.id));
  return rows.flatMap((r) => (r.paymentId ? [{ ...r, paymentId: r.paymentId }] : []));
}

export type PaidLine = {
  id: string;
  classId: string;
  /** The section bought (decision 041); null for a self-paced class. */
  sectionId: string | null;
  studentId: string | null;
  studentEmail: string;
  title: string;
  /** The class price copied at enrollment (before any coupon), in cents. */
  priceCents: number;
  /** What the student paid for this line, in cents (decision 019): what a refund of it gives back. */
  paidCents: number;
  status: EnrollmentStatus;
  paymentId: string | null;
  paidAt: Date | null;
};

const paidLineColumns = {
  id: enrollments.id,
  classId: enrollments.classId,
  sectionId: enrollments.sectionId,
  studentId: enrollments.studentId,
  studentEmail: enrollments.studentEmail,
  title: enrollments.title,
  priceCents: enrollments.priceCents,
  paidCents: paidCentsOf,
  status: enrollments.status,
  paymentId: enrollments.paymentId,
  paidAt: enrollments.paidAt,
};

/** The lines of one payment (paid or refunded), locked FOR UPDATE with `lock` (inside a refund). */
export async function findLinesOfPayment(db: Db, paymentId: string, lock: boolean): Promise<PaidLine[]> {
  const query = db
    .select(paidLineColumns)
    .from(enrollments)
    .where(eq(enrollments.paymentId, paymentId))
    .orderBy(asc(enrollments.id));
  return lock ? query.for('update') : query;
}

/** The lines of several payments, for the admin's search. */
export async function findLinesOfPayments(db: Db, paymentIds: string[]): Promise<PaidLine[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select(paidLineColumns)
    .from(enrollments)
    .where(inArray(enrollments.paymentId, paymentIds))
    .orderBy(asc(enrollments.title), asc(enrollments.id));
}

/**
 * The next payments (by id, after `after`) with at least one paid line: the ledger walks every
 * sale with this when it records those made before it existed (decision 039 §10). The partial
 * index on payment_id serves the ordered walk.
 */
export async function listPaymentsWithPaidLines(
  db: Db,
  options: { after: string | null; limit: number },
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ paymentId: enrollments.paymentId })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.status, 'paid'),
        isNotNull(enrollments.paymentId),
        options.after === null ? undefined : gt(enrollments.paymentId, options.after),
      ),
    )
    .orderBy(asc(enrollments.paymentId))
    .limit(options.limit);
  return rows.flatMap((r) => (r.paymentId ? [r.paymentId] : []));
}

/** A line of a payment as the ledger records it: with its class's teacher (decision 039). */
export type SaleLineRow = PaidLine & { teacherId: string };

/** Every line of these payments (paid or refunded), in the order the fulfilment priced them (by id). */
export async function listSaleLinesOfPayments(db: Db, paymentIds: string[]): Promise<SaleLineRow[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select({ ...paidLineColumns, teacherId: classJoin.teacherId })
    .from(enrollments)
    .innerJoin(classJoin.table, eq(classJoin.id, enrollments.classId))
    .where(inArray(enrollments.paymentId, paymentIds))
    .orderBy(asc(enrollments.id));
}

export async function findLinesByIds(db: Db, ids: string[]): Promise<PaidLine[]> {
  if (ids.length === 0) return [];
  return db.select(paidLineColumns).from(enrollments).where(inArray(enrollments.id, ids));
}

/** paid → refunded for exactly these lines; answers the lines flipped (with their class). */
export async function markEnrollmentsRefunded(
  db: Db,
  options: { ids: string[]; refundedAt: Date },
): Promise<{ id: string; classId: string }[]> {
  if (options.ids.length === 0) return [];
  return db
    .update(enrollments)
    .set({ status: 'refunded', refundedAt: options.refundedAt })
    .where(and(inArray(enrollments.id, options.ids), eq(enrollments.status, 'paid')))
    .returning({ id: enrollments.id, classId: enrollments.classId });
}

/** The paid lines of one section, oldest first (a cancelled section refunds them, decision 052). */
export async function findPaidLinesOfSection(db: Db, sectionId: string): Promise<PaidLine[]> {
  return db
    .select(paidLineColumns)
    .from(enrollments)
    .where(and(eq(enrollments.sectionId, sectionId), eq(enrollments.status, 'paid')))
    .orderBy(asc(enrollments.paidAt), asc(enrollments.id));
}
