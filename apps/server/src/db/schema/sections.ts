// Owned by modules/sections (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgEnum, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { SECTION_STATUSES } from '@skillhive/shared/rules/sections';
import { classes } from './classes.ts';
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('sections_class_idx').on(t.classId, t.createdAt),
    // The catalogue's schedule filters (decision 053): a class's running sections with a start to
    // come, with all a filter reads of them, so a walk of the classes probes the index alone.
    index('sections_class_next_start_idx')
      .on(t.classId, t.nextStartsAt, t.enrollClosesAt, t.lastStartsAt, t.startSlots, t.id)
      .where(sql`${t.status} = 'active' and ${t.nextStartsAt} is not null`),
    // "Has a start in one of these quarter hours" (&&): finds the few sections a narrow filter fits.
    index('sections_start_slots_idx')
      .using('gin', t.startSlots)
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
      'sections_window',
      sql`${t.enrollOpensAt} is null or ${t.enrollClosesAt} is null or ${t.enrollOpensAt} < ${t.enrollClosesAt}`,
    ),
  ],
);
