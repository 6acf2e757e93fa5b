import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { EnrollmentStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { enrollments } from '../../db/schema/enrollments.ts';
import { type ClassForEnrollment, classJoin } from '../classes/classes.public.ts';

export type CartLine = {
  id: string;
  classId: string;
  priceCents: number;
  status: EnrollmentStatus;
  /** The class's current status (a pending line is payable only while it is accepted). */
  classStatus: ClassForEnrollment['status'];
  /** The open payment intent this line is reserved for, if any. */
  reservedBy: string | null;
  /** Who teaches the class (a teacher's coupon applies only to their classes). */
  teacherId: string;
  /** The class's approved price now; a pending line is priced at it when its intent is created. */
  currentPriceCents: number;
  /** The section of a live class the line is for (decision 041); null for a self-paced class. */
  sectionId: string | null;
  /** The class's title as the line recorded it (the receipt's and the ledger's). */
  title: string;
  /** Until when the line holds a seat of its section (decision 042). */
  seatHeldUntil: Date | null;
};

const cartColumns = {
  id: enrollments.id,
  classId: enrollments.classId,
  priceCents: enrollments.priceCents,
  status: enrollments.status,
  classStatus: classJoin.status,
  reservedBy: enrollments.reservedBy,
  teacherId: classJoin.teacherId,
  currentPriceCents: classJoin.priceCents,
  sectionId: enrollments.sectionId,
  title: enrollments.title,
  seatHeldUntil: enrollments.seatHeldUntil,
};

/** The student's cart: pending enrollments, oldest first, with their class's status. */
export async function listPendingOfStudent(db: Db, studentId: string): Promise<CartLine[]> {
  return db
    .select(cartColumns)
    .from(enrollments)
    .innerJoin(classJoin.table, eq(classJoin.id, enrollments.classId))
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.status, 'pending')))
    .orderBy(asc(enrollments.createdAt), asc(enrollments.id));
}

/** The classes of the student's enrollments among `ids` (to lock them before the lines). */
export async function listClassIdsOfLines(db: Db, studentId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectDistinct({ id: enrollments.classId })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), inArray(enrollments.id, ids)));
  return rows.map((r) => r.id);
}

/**
 * The student's enrollments among `ids`, whatever their state, with their class's status. With
 * `lock` (inside a payment's transaction, after the service locked their classes) the lines are
 * locked FOR UPDATE: a concurrent payment of the same lines waits, then sees them paid.
 */
export async function findEnrollmentsOfStudent(
  db: Db,
  studentId: string,
  ids: string[],
  lock: boolean,
): Promise<CartLine[]> {
  if (ids.length === 0) return [];
  const mine = and(eq(enrollments.studentId, studentId), inArray(enrollments.id, ids));
  const query = db
    .select(cartColumns)
    .from(enrollments)
    .innerJoin(classJoin.table, eq(classJoin.id, enrollments.classId))
    .where(mine)
    .orderBy(asc(enrollments.id));
  return lock ? query.for('update', { of: enrollments }) : query;
}

/**
 * Reserves pending lines for one payment intent (decision 010): only lines that are free or
 * already its own; returns how many it holds now. Fewer than asked means another intent holds one.
 */
export async function reserveLines(
  db: Db,
  options: { studentId: string; ids: string[]; intentId: string },
): Promise<number> {
  const rows = await db
    .update(enrollments)
    .set({ reservedBy: options.intentId })
    .where(
      and(
        eq(enrollments.studentId, options.studentId),
        inArray(enrollments.id, options.ids),
        eq(enrollments.status, 'pending'),
        or(isNull(enrollments.reservedBy), eq(enrollments.reservedBy, options.intentId)),
      ),
    )
    .returning({ id: enrollments.id });
  return rows.length;
}

/**
 * Writes the price an intent was created at into the lines it just reserved (their class's price
 * changed since they were carted), so its fulfilment prices them the same way. Answers how many.
 */
export async function setReservedPrices(
  db: Db,
  options: { intentId: string; lines: { id: string; priceCents: number }[] },
): Promise<number> {
  let updated = 0;
  for (const line of options.lines) {
    const rows = await db
      .update(enrollments)
      .set({ priceCents: line.priceCents })
      .where(
        and(
          eq(enrollments.id, line.id),
          eq(enrollments.status, 'pending'),
          eq(enrollments.reservedBy, options.intentId),
        ),
      )
      .returning({ id: enrollments.id });
    updated += rows.length;
  }
  return updated;
}

/** Frees every line an intent held (it was cancelled or refunded). */
export async function releaseLines(db: Db, intentId: string): Promise<void> {
  await db.update(enrollments).set({ reservedBy: null }).where(eq(enrollments.reservedBy, intentId));
}
