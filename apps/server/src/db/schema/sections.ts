// Owned by modules/sections (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgEnum, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { RESCHEDULE_ANSWERS, SECTION_CANCEL_REASONS, SECTION_STATUSES } from '@skillhive/shared/rules/sections';
import { classes, classStatusEnum } from './classes.ts';
import { createdAt, updatedAt } from './columns.ts';

export const sectionStatusEnum = pgEnum('section_status', SECTION_STATUSES);

/**
 * A run of a live class (decision 041): its own sessions, time zone, seats and enrolment window.
 * Reviews, revisions and moderation stay on the class. `capacity` null is "no limit": only a
 * section made from a class that sold seats before sections existed has none, until its teacher
 * sets one (the API asks for a number).
 */
export const sections = pgTable(
  'sections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    timeZone: text('time_zone').notNull(),
    capacity: integer('capacity'),
    minimum: integer('minimum'),
    enrollOpensAt: timestamp('enroll_opens_at', { withTimezone: true }),
    enrollClosesAt: timestamp('enroll_closes_at', { withTimezone: true }),
    status: sectionStatusEnum('status').notNull().default('active'),
    /** When it was cancelled and why (decision 052): by its teacher, or under its minimum at its deadline. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason', { enum: SECTION_CANCEL_REASONS }),
    /** The teacher's words to the students, quoted in their mail. */
    cancelMessage: text('cancel_message'),
    /**
     * When the cancellation job found it at or above its minimum after its deadline (decision 052):
     * it runs from then on, whatever refunds come later, and the job looks at it no more.
     */
    minimumMetAt: timestamp('minimum_met_at', { withTimezone: true }),
    /** When its teacher last moved its sessions (decision 052). */
    rescheduledAt: timestamp('rescheduled_at', { withTimezone: true }),
    /**
     * The schedule summary (decision 053), kept by the `class_sessions` triggers of migration
     * catalogue_schedule from the section's published sessions still to start: the first and last
     * of their starts, and the UTC quarter hours of the week they start in, ascending (q = Monday
     * 00:00 UTC + 15 q minutes, 0–671). The catalogue's date and schedule filters read these, never
     * the sessions.
     */
    nextStartsAt: timestamp('next_starts_at', { withTimezone: true }),
    lastStartsAt: timestamp('last_starts_at', { withTimezone: true }),
    startSlots: smallint('start_slots')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    /**
     * The class's moderation status, copied by the triggers of migration schedule_first_slot (on
     * a section's insert and on every change of its class's status), so that the schedule filter
     * reads the listed classes' sections from one index (decision 053). Written by no code of ours.
     */
    classStatus: classStatusEnum('class_status').notNull().default('pending'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('sections_class_idx').on(t.classId, t.createdAt),
    // The cancellation job's question (decision 052): running sections with a minimum not yet met.
    index('sections_minimum_due_idx')
      .on(t.enrollClosesAt)
      .where(sql`${t.status} = 'active' and ${t.minimum} is not null and ${t.minimumMetAt} is null`),
    // The catalogue's schedule filters (decision 053): a class's running sections with a start to
    // come, with all a filter reads of them, so a walk of the classes probes the index alone.
    index('sections_class_next_start_idx')
      .on(t.classId, t.nextStartsAt, t.enrollClosesAt, t.lastStartsAt, t.startSlots, t.id)
      .where(sql`${t.status} = 'active' and ${t.nextStartsAt} is not null`),
    // The schedule filter's read of the fitting sections: by their class's status, their first
    // start slot (one of the wanted ones), then their next start (a start date), streamed in that
    // order so a cursor stops it.
    index('sections_first_slot_idx')
      .on(t.classStatus, sql`(${t.startSlots}[1])`, t.nextStartsAt)
      .where(sql`${t.status} = 'active' and ${t.nextStartsAt} is not null`),
    // The reminder job's refresh of the summaries whose next start has passed.
    index('sections_next_start_idx')
      .on(t.nextStartsAt)
      .where(sql`${t.nextStartsAt} is not null`),
    check('sections_capacity', sql`${t.capacity} is null or ${t.capacity} between 1 and 10000`),
    check(
      'sections_minimum',
      sql`${t.minimum} is null or (${t.minimum} >= 1 and ${t.minimum} <= coalesce(${t.capacity}, 10000))`,
    ),
    check(
      'sections_cancelled',
      sql`(${t.status} = 'cancelled') = (${t.cancelledAt} is not null and ${t.cancelReason} is not null)`,
    ),
    check(
      'sections_window',
      sql`${t.enrollOpensAt} is null or ${t.enrollClosesAt} is null or ${t.enrollOpensAt} < ${t.enrollClosesAt}`,
    ),
  ],
);

/**
 * A paid student's choice after their section was rescheduled (decision 052): keep the seat or
 * be refunded in full without an admin, until `open_until` (the new first session). One row per
 * paid line; a second reschedule opens it again.
 */
export const rescheduleOffers = pgTable(
  'reschedule_offers',
  {
    enrollmentId: uuid('enrollment_id').primaryKey(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => sections.id, { onDelete: 'cascade' }),
    studentId: text('student_id').notNull(),
    offeredAt: timestamp('offered_at', { withTimezone: true }).notNull(),
    openUntil: timestamp('open_until', { withTimezone: true }).notNull(),
    answer: text('answer', { enum: RESCHEDULE_ANSWERS }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    index('reschedule_offers_student_idx').on(t.studentId, t.openUntil),
    index('reschedule_offers_section_idx').on(t.sectionId),
  ],
);
