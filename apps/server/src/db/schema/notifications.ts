// Owned by modules/notifications (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/**
 * One item of a person's notification centre (decision 047). The id is a growing number: it is the
 * Server-Sent Events id a reconnecting browser resumes after, so items are replayed in order.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One of NOTIFICATION_KINDS (packages/shared rules/notifications.ts). */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** A path inside the app. */
    link: text('link').notNull(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    // The list (newest first) and the stream's replay (after an id) of one person.
    index('notifications_recipient_idx').on(t.recipientId, t.id.desc()),
    // The bell's unread count.
    index('notifications_unread_idx')
      .on(t.recipientId)
      .where(sql`${t.readAt} is null`),
    check('notifications_link_inside', sql`${t.link} like '/%' and ${t.link} not like '//%'`),
  ],
);

/** A kind a person turned off in the notification centre (decision 047): no row, shown. */
export const notificationMutes = pgTable(
  'notification_mutes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
