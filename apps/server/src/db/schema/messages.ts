// Owned by modules/messages (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { classes } from './classes.ts';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/**
 * A conversation about one class between a person and the class's teacher (decision 045): one per
 * class and person. Each side's read mark is the time they last opened it.
 */
export const messageThreads = pgTable(
  'message_threads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    studentReadAt: timestamp('student_read_at', { withTimezone: true }),
    teacherReadAt: timestamp('teacher_read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('message_threads_class_student_idx').on(t.classId, t.studentId),
    // Each side's inbox, latest conversation first.
    index('message_threads_student_idx').on(t.studentId, t.lastMessageAt.desc()),
    index('message_threads_teacher_idx').on(t.teacherId, t.lastMessageAt.desc()),
  ],
);

/** One message: plain text (decision 045), flagged when it looks like moving payment off the platform. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => messageThreads.id, { onDelete: 'cascade' }),
    senderId: text('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    flagged: boolean('flagged').notNull().default(false),
    /** Set when an admin hid it after a report (decision 043): its text is withheld from both sides. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('messages_thread_created_idx').on(t.threadId, t.createdAt),
    check('messages_body_length', sql`char_length(${t.body}) between 1 and 5000`),
  ],
);
