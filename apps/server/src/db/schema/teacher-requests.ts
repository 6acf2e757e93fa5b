// Owned by modules/teacher-requests (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { EXPERIENCE_LEVELS, TEACHER_REQUEST_STATUSES } from '@skillhive/shared/rules/constants';
import { categoryEnum } from './classes.ts';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

export const experienceEnum = pgEnum('experience_level', EXPERIENCE_LEVELS);
export const teacherRequestStatusEnum = pgEnum('teacher_request_status', TEACHER_REQUEST_STATUSES);

/** Teacher applications (spec §3). Name, e-mail and image are the account's at the time of applying. */
export const teacherRequests = pgTable(
  'teacher_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    image: text('image'),
    experience: experienceEnum('experience').notNull(),
    title: text('title').notNull(),
    category: categoryEnum('category').notNull(),
    status: teacherRequestStatusEnum('status').notNull().default('pending'),
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // One pending request per user, so admins decide each once; a rejected applicant may apply again (DESIGN §1.6).
    uniqueIndex('teacher_requests_one_pending_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    index('teacher_requests_status_created_idx').on(t.status, t.createdAt),
    index('teacher_requests_user_created_idx').on(t.userId, t.createdAt),
  ],
);
