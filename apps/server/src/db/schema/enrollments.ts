// Owned by modules/enrollments (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ENROLLMENT_STATUSES } from '@skillhive/shared/rules/constants';
import { classes } from './classes.ts';
import { createdAt } from './columns.ts';
import { payments } from './payments.ts';
import { users } from './users.ts';

export const enrollmentStatusEnum = pgEnum('enrollment_status', ENROLLMENT_STATUSES);

/** Enrolment records (spec §3): a snapshot of the class when the student chose it. */
export const enrollments = pgTable(
  'enrollments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    /** Null once the student's account is deleted: a paid line is a financial record and stays. */
    studentId: text('student_id').references(() => users.id, { onDelete: 'set null' }),
    studentEmail: text('student_email').notNull(),
    teacherName: text('teacher_name').notNull(),
    title: text('title').notNull(),
    imageKey: text('image_key').notNull(),
    description: text('description').notNull(),
    priceCents: integer('price_cents').notNull(),
    status: enrollmentStatusEnum('status').notNull().default('pending'),
    paymentId: uuid('payment_id').references((): AnyPgColumn => payments.id, { onDelete: 'set null' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /**
     * The one payment intent this pending line is reserved for (decision 010): a line is charged
     * through one intent at a time, and a new overlapping intent takes it only after the old one
     * was cancelled at the gateway.
     */
    reservedBy: text('reserved_by'),
    createdAt: createdAt(),
  },
  (t) => [
    // One enrolment per student per class (DESIGN §1.4).
    uniqueIndex('enrollments_student_class_idx').on(t.studentId, t.classId),
    index('enrollments_student_created_idx').on(t.studentId, t.createdAt.desc()),
    index('enrollments_class_idx').on(t.classId, t.status),
    check('enrollments_price_positive', sql`${t.priceCents} > 0`),
    check('enrollments_paid_has_payment', sql`(${t.status} = 'paid') = (${t.paymentId} is not null)`),
  ],
);
