// Owned by modules/sections (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('sections_class_idx').on(t.classId, t.createdAt),
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
