// Owned by modules/moderation (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/**
 * Reports of a class, a review or a user (decision 043). `owner_id` is the person the target
 * belongs to, kept so a suspension acts on the right account. Reports outlive the people in them.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: text('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    /** What the reporter saw (a class title, a review's text, a name), kept as it was. */
    targetLabel: text('target_label').notNull(),
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    details: text('details').notNull().default(''),
    status: text('status').notNull().default('open'),
    action: text('action'),
    note: text('note'),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // One open report per person and target: reporting again while it waits changes nothing.
    uniqueIndex('reports_one_open_idx')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    // The queue: open ones, oldest first; and the reports of one target when a decision closes them all.
    index('reports_status_created_idx').on(t.status, t.createdAt),
    index('reports_target_idx').on(t.targetType, t.targetId),
    check('reports_details_length', sql`char_length(${t.details}) <= 1000`),
    check('reports_status', sql`${t.status} in ('open', 'dismissed', 'actioned')`),
  ],
);
