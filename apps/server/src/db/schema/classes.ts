// Owned by modules/classes (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { CATEGORIES, CLASS_STATUSES, CLASS_REVISION_STATUSES } from '@skillhive/shared/rules/constants';
import { createdAt, updatedAt } from './columns.ts';
import { uploads } from './uploads.ts';
import { users } from './users.ts';

export const categoryEnum = pgEnum('category', CATEGORIES);
export const classStatusEnum = pgEnum('class_status', CLASS_STATUSES);
export const classRevisionStatusEnum = pgEnum('class_revision_status', CLASS_REVISION_STATUSES);

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Classes (spec §3). Money is integer cents; the teacher's name is kept for search and display. */
export const classes = pgTable(
  'classes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teacherName: text('teacher_name').notNull(),
    teacherEmail: text('teacher_email').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    priceCents: integer('price_cents').notNull(),
    imageKey: text('image_key')
      .notNull()
      .references(() => uploads.key),
    category: categoryEnum('category').notNull(),
    status: classStatusEnum('status').notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
    /**
     * While `status` is `hidden` (decision 043): the status to go back to, and why it was hidden —
     * `content` (an admin took the class down) or `suspension` (its teacher is suspended; lifting
     * the suspension brings back only these).
     */
    hiddenFromStatus: classStatusEnum('hidden_from_status'),
    hiddenReason: text('hidden_reason'),
    /** Denormalised counters kept in step by the enrollment and review services. */
    enrollmentCount: integer('enrollment_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    reviewCount: integer('review_count').notNull().default(0),
    /**
     * What search matches and ranks (decision 018): the title weighs most (A), then the teacher's
     * name (B), then the description (C).
     */
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english', coalesce("title", '')), 'A') || setweight(to_tsvector('english', coalesce("teacher_name", '')), 'B') || setweight(to_tsvector('english', coalesce("description", '')), 'C')`,
      ),
    /**
     * The title (A) and the teacher's name (B) alone: a search lists the classes that match here
     * first, and those found only through their description after (decision 018, "Tiers").
     */
    searchPrimary: tsvector('search_primary')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english', coalesce("title", '')), 'A') || setweight(to_tsvector('english', coalesce("teacher_name", '')), 'B')`,
      ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('classes_price_range', sql`${t.priceCents} between 50 and 1000000`),
    check('classes_counts_non_negative', sql`${t.enrollmentCount} >= 0 and ${t.reviewCount} >= 0`),
    // Catalogue: newest first within a status, optionally within a category (keyset on created_at, id).
    index('classes_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('classes_status_category_created_idx').on(t.status, t.category, t.createdAt.desc(), t.id.desc()),
    index('classes_status_price_idx').on(t.status, t.priceCents, t.id),
    index('classes_status_popular_idx').on(t.status, t.enrollmentCount.desc(), t.id.desc()),
    index('classes_teacher_created_idx').on(t.teacherId, t.createdAt.desc()),
    index('classes_search_idx').using('gin', t.search),
    // What the public searches: accepted classes only, so neither the total nor a match needs the status from the row.
    index('classes_accepted_search_idx')
      .using('gin', t.search)
      .where(sql`${t.status} = 'accepted'`),
    index('classes_search_primary_idx').using('gin', t.searchPrimary),
  ],
);

/**
 * The words of every class's title, description and teacher name (decision 018), kept by a trigger
 * on `classes` (migration 0008): search corrects a misspelled word to the nearest of these by
 * trigram similarity (pg_trgm, its GiST index giving the nearest first) before it matches the classes' `search` vector. Words are only
 * added; a word no class uses any more matches nothing.
 */
export const searchTerms = pgTable('search_terms', { term: text('term').primaryKey() }, (t) => [
  index('search_terms_trgm_idx').using('gist', t.term.op('gist_trgm_ops')),
]);

/**
 * Proposed edits of an accepted class (DESIGN §4): the class row stays what is on sale until an
 * admin approves. A null field is one the teacher did not change. At most one pending per class.
 */
export const classRevisions = pgTable(
  'class_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    title: text('title'),
    description: text('description'),
    priceCents: integer('price_cents'),
    imageKey: text('image_key').references(() => uploads.key),
    category: categoryEnum('category'),
    status: classRevisionStatusEnum('status').notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('class_revisions_price_range', sql`${t.priceCents} is null or ${t.priceCents} between 50 and 1000000`),
    // A further edit updates the pending revision instead of adding a second one.
    uniqueIndex('class_revisions_one_pending_idx')
      .on(t.classId)
      .where(sql`${t.status} = 'pending'`),
    index('class_revisions_class_created_idx').on(t.classId, t.createdAt.desc()),
    index('class_revisions_status_created_idx').on(t.status, t.createdAt),
  ],
);
