import { and, asc, count, eq, gt, isNotNull, isNull, lte } from 'drizzle-orm';
import type { RescheduleAnswer, SectionCancelReason } from '@skillhive/shared/rules/sections';
import type { Db } from '../../db/client.ts';
import { rescheduleOffers, sections } from '../../db/schema/sections.ts';

/** Sections of a live class (decision 041): Drizzle only. */

export type SectionRow = typeof sections.$inferSelect;
export type RescheduleOfferRow = typeof rescheduleOffers.$inferSelect;
export type SectionValues = Pick<
  typeof sections.$inferInsert,
  'timeZone' | 'capacity' | 'minimum' | 'enrollOpensAt' | 'enrollClosesAt'
>;

export async function insertSection(db: Db, values: SectionValues & { classId: string }): Promise<SectionRow> {
  const [row] = await db.insert(sections).values(values).returning();
  return row!;
}

export async function updateSection(
  db: Db,
  id: string,
  values: Partial<SectionValues> & { updatedAt: Date },
): Promise<SectionRow> {
  const [row] = await db.update(sections).set(values).where(eq(sections.id, id)).returning();
  return row!;
}

export async function findSection(db: Db, id: string, options: { lock?: boolean } = {}): Promise<SectionRow | null> {
  const query = db.select().from(sections).where(eq(sections.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** A class's sections, oldest first (the order its teacher made them). */
export async function listSectionsOfClass(db: Db, classId: string): Promise<SectionRow[]> {
  return db
    .select()
    .from(sections)
    .where(eq(sections.classId, classId))
    .orderBy(asc(sections.createdAt), asc(sections.id));
}

export async function countSectionsOfClass(db: Db, classId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(sections).where(eq(sections.classId, classId));
  return row?.n ?? 0;
}

/** The class's oldest section still running: where a session goes when none is named. */
export async function findFirstActiveSection(db: Db, classId: string): Promise<SectionRow | null> {
  const [row] = await db
    .select()
    .from(sections)
    .where(and(eq(sections.classId, classId), eq(sections.status, 'active')))
    .orderBy(asc(sections.createdAt), asc(sections.id))
    .limit(1);
  return row ?? null;
}

/**
 * The section's row FOR UPDATE, or with `skipLocked` null when another transaction holds it (the
 * cancellation job leaves a section another instance is cancelling to that instance).
 */
export async function lockSectionRow(db: Db, id: string, options: { skipLocked: boolean }): Promise<SectionRow | null> {
  const [row] = await db
    .select()
    .from(sections)
    .where(eq(sections.id, id))
    .for('update', options.skipLocked ? { skipLocked: true } : {});
  return row ?? null;
}

/** active → cancelled, once: null when it was not running (another caller won). */
export async function markCancelled(
  db: Db,
  id: string,
  values: { reason: SectionCancelReason; message: string | null; at: Date },
): Promise<SectionRow | null> {
  const [row] = await db
    .update(sections)
    .set({
      status: 'cancelled',
      cancelledAt: values.at,
      cancelReason: values.reason,
      cancelMessage: values.message,
      updatedAt: values.at,
    })
    .where(and(eq(sections.id, id), eq(sections.status, 'active')))
    .returning();
  return row ?? null;
}

export async function markMinimumMet(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(sections)
    .set({ minimumMetAt: at })
    .where(and(eq(sections.id, id), isNull(sections.minimumMetAt)));
}

export async function markRescheduled(db: Db, id: string, at: Date): Promise<void> {
  await db.update(sections).set({ rescheduledAt: at, updatedAt: at }).where(eq(sections.id, id));
}

/**
 * Running sections with a minimum not yet found met whose enrollment deadline has passed: the
 * cancellation job's candidates (sections_minimum_due_idx), oldest deadline first.
 */
export async function listSectionsPastDeadline(db: Db, now: Date, limit: number): Promise<SectionRow[]> {
  return db
    .select()
    .from(sections)
    .where(
      and(
        eq(sections.status, 'active'),
        isNotNull(sections.minimum),
        isNull(sections.minimumMetAt),
        lte(sections.enrollClosesAt, now),
      ),
    )
    .orderBy(asc(sections.enrollClosesAt), asc(sections.id))
    .limit(limit);
}

/** Opens (or opens again, after another reschedule) each paid line's choice. */
export async function upsertRescheduleOffers(
  db: Db,
  values: { enrollmentId: string; sectionId: string; studentId: string; offeredAt: Date; openUntil: Date }[],
): Promise<void> {
  for (const row of values) {
    await db
      .insert(rescheduleOffers)
      .values(row)
      .onConflictDoUpdate({
        target: rescheduleOffers.enrollmentId,
        set: { offeredAt: row.offeredAt, openUntil: row.openUntil, answer: null, answeredAt: null },
      });
  }
}

/** A student's unanswered offers still open at `now`. */
export async function listOpenOffersOfStudent(db: Db, studentId: string, now: Date): Promise<RescheduleOfferRow[]> {
  return db
    .select()
    .from(rescheduleOffers)
    .where(
      and(
        eq(rescheduleOffers.studentId, studentId),
        isNull(rescheduleOffers.answer),
        gt(rescheduleOffers.openUntil, now),
      ),
    )
    .orderBy(asc(rescheduleOffers.openUntil));
}

export async function findOfferForUpdate(db: Db, enrollmentId: string): Promise<RescheduleOfferRow | null> {
  const [row] = await db
    .select()
    .from(rescheduleOffers)
    .where(eq(rescheduleOffers.enrollmentId, enrollmentId))
    .for('update');
  return row ?? null;
}

export async function answerOffer(db: Db, enrollmentId: string, answer: RescheduleAnswer, at: Date): Promise<void> {
  await db
    .update(rescheduleOffers)
    .set({ answer, answeredAt: at })
    .where(eq(rescheduleOffers.enrollmentId, enrollmentId));
}
