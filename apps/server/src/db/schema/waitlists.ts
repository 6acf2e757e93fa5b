// Owned by modules/waitlists (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { WAITLIST_STATUSES } from '@skillhive/shared/rules/waitlists';
import { createdAt, updatedAt } from './columns.ts';
import { sections } from './sections.ts';
import { users } from './users.ts';

export const waitlistStatusEnum = pgEnum('waitlist_status', WAITLIST_STATUSES);

/**
 * A person waiting for a seat of a full section (decision 051), in the order they joined: `seq`
 * grows with each entry, so people who join in the same instant still have an order. An offer
 * holds a seat for the person until `offer_expires_at`; a live offer counts as a taken seat.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order of joining: the queue is served by it. */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    sectionId: uuid('section_id')
      .notNull()
      .references(() => sections.id, { onDelete: 'cascade' }),
    /** A deleted account leaves every queue with its entries. */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: waitlistStatusEnum('status').notNull().default('waiting'),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    /** Until when the seat offered is held for the person; set while `offered` and kept after. */
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One live entry per person per section; a person whose offer expired, or who left, may join again.
    uniqueIndex('waitlist_entries_live_idx')
      .on(t.sectionId, t.userId)
      .where(sql`${t.status} in ('waiting', 'offered')`),
    // The queue of a section in joining order (the offer job, positions, the teacher's list).
    index('waitlist_entries_section_idx').on(t.sectionId, t.status, t.seq),
    index('waitlist_entries_user_idx').on(t.userId, t.seq),
    check('waitlist_entries_offer', sql`${t.status} <> 'offered' or ${t.offerExpiresAt} is not null`),
  ],
);
