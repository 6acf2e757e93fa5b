// Owned by modules/sections (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { check, customType, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { SECTION_STATUSES } from '@skillhive/shared/rules/sections';
import { classes } from './classes.ts';
import { createdAt, updatedAt } from './columns.ts';

/** The quarter hours of a week (Monday 00:00 UTC first): the schedule summary's bit positions (decision 053). */
export const WEEK_QUARTERS = 672;

/** A fixed-length bit string (PostgreSQL `bit(n)`), read and written as its '0'/'1' text. */
const bitString = customType<{ data: string; driverData: string; config: { length: number } }>({
  dataType: (config) => `bit(${config?.length ?? 1})`,
});

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
     * of their starts, and the UTC quarter hours of the week they start in (bit q = Monday 00:00 UTC
     * + 15 q minutes). The catalogue's date and schedule filters read these, never the sessions.
     */
    nextStartsAt: timestamp('next_starts_at', { withTimezone: true }),
    lastStartsAt: timestamp('last_starts_at', { withTimezone: true }),
    startSlots: bitString('start_slots', { length: WEEK_QUARTERS })
      .notNull()
      .default(sql.raw(`repeat('0', ${WEEK_QUARTERS})::bit(${WEEK_QUARTERS})`)),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('sections_class_idx').on(t.classId, t.createdAt),
    // The catalogue's schedule filters (decision 053): a class's running sections with a start to come.
    index('sections_class_next_start_idx')
      .on(t.classId, t.nextStartsAt)
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
