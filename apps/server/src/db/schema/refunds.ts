// Owned by modules/refunds (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { REFUND_REQUEST_STATUSES, REFUND_STATUSES } from '@skillhive/shared/rules/constants';
import { payments } from './checkout.ts';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * Money given back on a recorded payment, one row per refund at the gateway. An
 * admin's refund names one enrollment line (a refund of the whole payment is one row per line), and
 * a line is refunded at most once (unique enrollment_id). `pending` is written before the gateway
 * is asked, its id being the idempotency key, so a retry or a concurrent click never refunds twice.
 * A refund made in Stripe's dashboard arrives by `charge.refunded` and is recorded with no author.
 * No foreign key to the enrollment: money records outlive classes and accounts (DESIGN §4).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    /** The enrollment line given back; null for a gateway refund that matches no single line. */
    enrollmentId: uuid('enrollment_id'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason').notNull(),
    /** The admin who refunded (user id, kept after the account goes); null when made at the gateway. */
    refundedBy: text('refunded_by'),
    /** The student's request this refund approves, when there is one. */
    requestId: uuid('request_id'),
    gatewayRefundId: text('gateway_refund_id').unique(),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('pending'),
    /**
     * The student was already told of this refund (a cancelled section's mail names it, decision
     * 052): settling it sends no second mail or notification.
     */
    studentTold: boolean('student_told').notNull().default(false),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * When the reconciler may take over a pending refund whose call was cut short (decision 031):
     * a short grace after it was written, then later after each failed attempt.
     */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull().defaultNow(),
    /** The reconciler's claim, so several instances never ask the gateway for one refund at once. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refunds_enrollment_idx')
      .on(t.enrollmentId)
      .where(sql`${t.status} <> 'failed'`),
    index('refunds_payment_idx').on(t.paymentId),
    index('refunds_due_idx')
      .on(t.nextCheckAt)
      .where(sql`${t.status} = 'pending'`),
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
    check('refunds_status', sql`${t.status} in (${inList(REFUND_STATUSES)})`),
  ],
);

/**
 * A student's request for the refund of one paid line within REFUND_WINDOW_DAYS:
 * once per line; an admin approves it (→ a refund) or declines it with a reason.
 */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    enrollmentId: uuid('enrollment_id').notNull().unique(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    /** Null once the student's account is deleted. */
    studentId: text('student_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    status: text('status', { enum: REFUND_REQUEST_STATUSES }).notNull().default('pending'),
    decidedBy: text('decided_by'),
    decisionReason: text('decision_reason'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    refundId: uuid('refund_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('refund_requests_status_idx').on(t.status, t.createdAt),
    index('refund_requests_student_idx').on(t.studentId),
    check('refund_requests_status', sql`${t.status} in (${inList(REFUND_REQUEST_STATUSES)})`),
  ],
);
