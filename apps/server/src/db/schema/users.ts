// Owned by modules/users (decision 015): only that module's repository code imports this file.
import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * better-auth's user table, under our plural name. Property names are better-auth's field names; `phone`, `isAdmin` and `isTeacher` are our
 * additional user fields. Admin and teacher are independent flags (DESIGN §1.5).
 */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    phone: text('phone'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isTeacher: boolean('is_teacher').notNull().default(false),
    // E-mails a person may turn off; the rest always go out.
    notifyTeacherApplication: boolean('notify_teacher_application').notNull().default(true),
    notifyClassReviews: boolean('notify_class_reviews').notNull().default(true),
    notifyNewMessages: boolean('notify_new_messages').notNull().default(true),
    notifySessionReminders: boolean('notify_session_reminders').notNull().default(true),
    /**
     * The person's IANA time zone as their browser last reported it (decision 053): reminder mails
     * show session times in it. Null until a browser has told us; mails then use the section's.
     */
    timeZone: text('time_zone'),
    /**
     * Set while an admin has suspended the account (decision 043): no session, token or sign-in
     * works, and the person's classes and reviews are off the public lists.
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('users_created_at_idx').on(t.createdAt), index('users_name_idx').on(t.name)],
);
