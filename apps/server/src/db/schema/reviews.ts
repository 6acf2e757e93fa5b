// Owned by modules/reviews (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { check, index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { classes } from './classes.ts';
import { createdAt, updatedAt } from './columns.ts';
import { users } from './users.ts';

/** Reviews (spec §3): one per student per class; a second post edits it. */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    details: text('details').notNull().default(''),
    /**
     * Set while the review is off the public lists (decision 043), with why: `content` (an admin
     * hid it) or `suspension` (its author is suspended). A hidden review counts in no rating.
     */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reviews_student_class_idx').on(t.studentId, t.classId),
    index('reviews_created_idx').on(t.createdAt.desc()),
    // A class's reviews, newest first, and its rating breakdown (the public class page).
    index('reviews_class_created_idx').on(t.classId, t.createdAt.desc()),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('reviews_details_length', sql`char_length(${t.details}) <= 1000`),
  ],
);

/**
 * A teacher's reply to a review of their class (decision 046): at most one per review, edited in
 * place. It goes with its review; `teacher_id` is the class's teacher when it was written.
 */
export const reviewReplies = pgTable(
  'review_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reviewId: uuid('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    /** Set when an admin hid the reply after a report (decision 046): it is then shown nowhere. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('review_replies_review_idx').on(t.reviewId),
    check('review_replies_text_length', sql`char_length(${t.text}) between 1 and 2000`),
  ],
);
