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
import { payments } from './checkout.ts';
import { sections } from './sections.ts';
import { users } from './users.ts';

export const enrollmentStatusEnum = pgEnum('enrollment_status', ENROLLMENT_STATUSES);

/** Enrollment records (spec §3): a snapshot of the class when the student chose it. */
export const enrollments = pgTable(
  'enrollments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    /**
     * The section (run) of a live class the student chose (decision 041); null for a self-paced
     * class, which has none.
     */
    sectionId: uuid('section_id').references(() => sections.id, { onDelete: 'set null' }),
    /** Null once the student's account is deleted: a paid line is a financial record and stays. */
    studentId: text('student_id').references(() => users.id, { onDelete: 'set null' }),
    studentEmail: text('student_email').notNull(),
    teacherName: text('teacher_name').notNull(),
    title: text('title').notNull(),
    imageKey: text('image_key').notNull(),
    description: text('description').notNull(),
    priceCents: integer('price_cents').notNull(),
    /**
     * What the student actually paid for this line, in cents (decision 019): the class price less
     * its share of a coupon, from `priceCart`. Set when the line turns paid; null while pending.
     * Refunds give back at most this; payment history, receipts and earnings read it.
     */
    paidCents: integer('paid_cents'),
    status: enrollmentStatusEnum('status').notNull().default('pending'),
    paymentId: uuid('payment_id').references((): AnyPgColumn => payments.id, { onDelete: 'set null' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** When the line was refunded (status `refunded`); it then gives no access and frees the class. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /**
     * The one payment intent this pending line is reserved for (decision 010): a line is charged
     * through one intent at a time, and a new overlapping intent takes it only after the old one
     * was cancelled at the gateway.
     */
    reservedBy: text('reserved_by'),
    /**
     * Until when this pending line holds a seat of its section (decision 042): set when it is
     * carted and when its payment intent is created, for SEAT_HOLD_MINUTES; null once paid, or
     * after a declined card. Counted only while in the future: an expired hold is a free seat.
     */
    seatHeldUntil: timestamp('seat_held_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // One live enrollment per student per class (DESIGN §1.4); a refunded line stays as a record
    // and the class can be bought again. The predicate and checks avoid the enum literal
    // 'refunded': a value added to an enum cannot be used in the migration transaction adding it,
    // and an index predicate cannot cast an enum to text (not immutable).
    uniqueIndex('enrollments_student_class_idx')
      .on(t.studentId, t.classId)
      .where(sql`${t.refundedAt} is null`),
    index('enrollments_student_created_idx').on(t.studentId, t.createdAt.desc()),
    index('enrollments_class_idx').on(t.classId, t.status),
    index('enrollments_section_idx')
      .on(t.sectionId, t.status)
      .where(sql`${t.sectionId} is not null`),
    // Each fulfilment releases an intent's lines (`reserved_by`) and reads a payment's lines
    // (`payment_id`); without these, both were sequential scans of the whole table (BENCHMARKS.md,
    // "Purchase flow with a coupon": 75–86 ms each at 1 000 000 enrollments). Partial: most lines
    // are reserved by nothing, and a pending line has no payment.
    index('enrollments_reserved_by_idx')
      .on(t.reservedBy)
      .where(sql`${t.reservedBy} is not null`),
    index('enrollments_payment_idx')
      .on(t.paymentId)
      .where(sql`${t.paymentId} is not null`),
    check('enrollments_price_positive', sql`${t.priceCents} > 0`),
    check(
      'enrollments_paid_has_payment',
      sql`(${t.status}::text in ('paid', 'refunded')) = (${t.paymentId} is not null)`,
    ),
    check(
      'enrollments_paid_cents',
      sql`(${t.status}::text in ('paid', 'refunded')) = (${t.paidCents} is not null) and (${t.paidCents} is null or ${t.paidCents} between 0 and ${t.priceCents})`,
    ),
    // Only a pending line holds a seat: a paid one has its seat, a refunded one none (decision 042).
    check('enrollments_seat_hold_pending', sql`${t.seatHeldUntil} is null or ${t.status}::text = 'pending'`),
    check('enrollments_refunded_at', sql`(${t.status}::text = 'refunded') = (${t.refundedAt} is not null)`),
  ],
);
