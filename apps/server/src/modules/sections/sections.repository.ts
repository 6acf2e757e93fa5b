import {
  and,
  asc,
  count,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  min,
  ne,
  sql,
  type AnyColumn,
  type SQL,
} from 'drizzle-orm';
import type { ClassStatus } from '@skillhive/shared/rules/constants';
import type { RescheduleAnswer, SectionCancelReason } from '@skillhive/shared/rules/sections';
import type { Db } from '../../db/client.ts';
import { rescheduleOffers, sections } from '../../db/schema/sections.ts';
import type { ScheduleMatch } from './schedule-match.ts';

/** Quarter hours in a week: the length of a schedule filter's slot mask (decision 053). */
const WEEK_QUARTERS = 672;

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

/**
 * A running section whose enrollment has not closed and which has a published session still to
 * start, by its schedule summary (decision 053): the sections a catalogue card dates and the
 * schedule filter looks at.
 */
function upcomingSection(now: Date): SQL {
  return sql`${sections.status} = 'active' and ${sections.nextStartsAt} > ${now}
    and (${sections.enrollClosesAt} is null or ${sections.enrollClosesAt} > ${now})`;
}

/**
 * The catalogue's condition "one of the class's sections fits the schedule filter" (decision 053),
 * for a class id column of the caller's query: each class's sections are probed by class id (a
 * walk of the classes' order, when many fit). The summary decides alone while the visitor's zone
 * keeps its offset; a section with a start past its next change also has each of its sessions
 * checked on the visitor's clock (only those sections: the summary has already ruled out every
 * section with a start that fits at no offset).
 */
export function scheduleCondition(classId: SQL | AnyColumn, match: ScheduleMatch, now: Date): SQL {
  // The probe does not name the first slot, so that index stays out of it, and `offset 0` keeps it
  // a per-class subplan (PostgreSQL turns no EXISTS with an OFFSET into a join): else the planner
  // may materialise every section a start date lets through and compare each class with all of
  // them (a 7 ms page took 0.8–1.2 s so at 100 000 classes).
  return sql`exists (select 1 from ${sections} where ${sections.classId} = ${classId}
    and ${and(...fitParts(match, now, false))} offset 0)`;
}

/**
 * The fitting sections' class ids as a subquery (`class_id`), to drive a join from (decision 053):
 * read through `sections_first_slot_idx` — the class's status (copied onto its sections), then one
 * descent per wanted first slot — in the index's order, so that a cursor or a LIMIT stops the read
 * after the rows it needs.
 */
export function fittingSections(match: ScheduleMatch, now: Date, classStatus: ClassStatus | null): SQL {
  const listed = classStatus ? eq(sections.classStatus, classStatus) : ne(sections.classStatus, 'archived');
  return sql`(select ${sections.classId} as class_id from ${sections}
    where ${and(listed, ...fitParts(match, now, true))})`;
}

/** What makes one section fit the schedule filter. */
function fitParts(match: ScheduleMatch, now: Date, firstSlotIndex: boolean): SQL[] {
  const parts: SQL[] = [upcomingSection(now)];
  if (match.startsFrom) parts.push(sql`${sections.nextStartsAt} >= ${match.startsFrom}`);
  if (match.wantedUtcSlots && match.localSlots) {
    const wanted = sql`${`{${match.wantedUtcSlots.join(',')}}`}::smallint[]`;
    // Every start slot wanted. Read through `sections_first_slot_idx`, the first one is its key and
    // a one-slot section needs no more; a probe by class id compares them all.
    parts.push(
      firstSlotIndex
        ? sql`(${sections.startSlots})[1] = any(${wanted})
            and (cardinality(${sections.startSlots}) = 1 or ${sections.startSlots} <@ ${wanted})`
        : sql`${sections.startSlots} <@ ${wanted}`,
    );
    if (match.exactBefore) {
      // On the visitor's clock: the quarter of the week each start falls in, looked up in the wanted slots.
      const local = sql`(cs.starts_at at time zone ${match.timeZone})`;
      parts.push(sql`(${sections.lastStartsAt} < ${match.exactBefore} or not exists (
        select 1 from class_sessions cs
        where cs.section_id = ${sections.id} and cs.published_at is not null and cs.starts_at > ${now}
          and get_bit(${match.localSlots}::bit(${sql.raw(String(WEEK_QUARTERS))}),
            (extract(isodow from ${local})::int - 1) * 96 + extract(hour from ${local})::int * 4
              + floor(extract(minute from ${local}) / 15)::int) = 0
        offset 0
      ))`);
    }
  }
  return parts;
}

/** The next start of each class's upcoming sections (decision 053), for a page of catalogue cards. */
export async function nextStartsOfClasses(db: Db, classIds: string[], now: Date): Promise<Map<string, Date>> {
  if (classIds.length === 0) return new Map();
  const rows = await db
    .select({ classId: sections.classId, next: min(sections.nextStartsAt) })
    .from(sections)
    .where(and(inArray(sections.classId, classIds), upcomingSection(now)))
    .groupBy(sections.classId);
  return new Map(rows.flatMap((row) => (row.next ? [[row.classId, new Date(row.next)] as const] : [])));
}

/**
 * Recomputes the schedule summary of the sections whose next start is at or before `now` (the
 * triggers keep it on writes; time passing is this job's, decision 053). Answers how many changed.
 */
export async function refreshPassedSchedules(db: Db, now: Date): Promise<number> {
  const result = (await db.execute(sql`
    select refresh_section_schedules(array(
      select ${sections.id} from ${sections} where ${sections.nextStartsAt} <= ${now}
    ), ${now}) as changed
  `)) as unknown as { rows: { changed: number }[] };
  return Number(result.rows[0]?.changed ?? 0);
}
