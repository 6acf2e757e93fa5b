import { and, count, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { enrollments } from '../../db/schema/enrollments.ts';

/** Enrollments counted per section of a live class (decision 041). */

/** Paid students per section of a class. */
export async function paidCountsOfSections(db: Db, classId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ sectionId: enrollments.sectionId, n: count() })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), eq(enrollments.status, 'paid'), isNotNull(enrollments.sectionId)))
    .groupBy(enrollments.sectionId);
  return new Map(rows.map((row) => [row.sectionId!, row.n]));
}

/** Paid students of one section. */
export async function paidCountOfSection(db: Db, sectionId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(enrollments)
    .where(and(eq(enrollments.sectionId, sectionId), eq(enrollments.status, 'paid')));
  return row?.n ?? 0;
}

/** Puts the class's enrollments that have no section into its first one (decision 041). */
export async function attachEnrollmentsToSection(db: Db, classId: string, sectionId: string): Promise<void> {
  await db
    .update(enrollments)
    .set({ sectionId })
    .where(and(eq(enrollments.classId, classId), isNull(enrollments.sectionId)));
}

/**
 * The seats of a section taken at `now` (decision 042): paid lines, and pending lines whose hold
 * has not expired; `exceptId` leaves one line out (the one asking for a seat).
 */
export async function seatsTakenOfSection(
  db: Db,
  sectionId: string,
  now: Date,
  exceptId?: string,
): Promise<{ paid: number; held: number }> {
  const [row] = await db
    .select({
      paid: sql<number>`count(*) filter (where ${enrollments.status} = 'paid')`.mapWith(Number),
      held: sql<number>`count(*) filter (where ${enrollments.status} = 'pending' and ${enrollments.seatHeldUntil} > ${now})`.mapWith(
        Number,
      ),
    })
    .from(enrollments)
    .where(and(eq(enrollments.sectionId, sectionId), exceptId ? ne(enrollments.id, exceptId) : undefined));
  return { paid: row?.paid ?? 0, held: row?.held ?? 0 };
}

/** Seats taken at `now` per section of a class: paid lines and live holds (the public schedule). */
export async function seatsTakenOfSections(db: Db, classId: string, now: Date): Promise<Map<string, number>> {
  const rows = await db
    .select({
      sectionId: enrollments.sectionId,
      n: sql<number>`count(*) filter (where ${enrollments.status} = 'paid' or (${enrollments.status} = 'pending' and ${enrollments.seatHeldUntil} > ${now}))`.mapWith(
        Number,
      ),
    })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), isNotNull(enrollments.sectionId)))
    .groupBy(enrollments.sectionId);
  return new Map(rows.map((row) => [row.sectionId!, row.n]));
}

/** Sets (or, with null, releases) the seat holds of a student's pending lines among `ids`. */
export async function setSeatHolds(db: Db, studentId: string, ids: string[], until: Date | null): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(enrollments)
    .set({ seatHeldUntil: until })
    .where(and(eq(enrollments.studentId, studentId), inArray(enrollments.id, ids), eq(enrollments.status, 'pending')));
}

/**
 * Releases the seat holds of a cancelled section's pending lines (decision 052). A line a payment
 * has locked right now is skipped, not waited for: that payment locks the section next, finds it
 * cancelled and is refused (seat-holds.ts), so waiting here could only deadlock with it.
 */
export async function releaseSeatHoldsOfSection(db: Db, sectionId: string): Promise<void> {
  const held = db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.sectionId, sectionId),
        eq(enrollments.status, 'pending'),
        isNotNull(enrollments.seatHeldUntil),
      ),
    )
    .for('update', { skipLocked: true });
  await db.update(enrollments).set({ seatHeldUntil: null }).where(inArray(enrollments.id, held));
}
