// Owned by modules/payments (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { PAYMENT_STATUSES, REFUND_REQUEST_STATUSES, REFUND_STATUSES } from '@skillhive/shared/rules/constants';
import { createdAt, updatedAt } from './columns.ts';
import { users } from './users.ts';

export const paymentStatusEnum = pgEnum('payment_status', PAYMENT_STATUSES);

/** Payments (spec §3). `data` is the date of payment, spelled as the spec has it (DESIGN §1.8). */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the student's account is deleted: payments outlive accounts (DESIGN §4). */
    studentId: text('student_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    gateway: text('gateway').notNull(),
    transactionId: text('transaction_id').notNull().unique(),
    cartIds: uuid('cart_ids').array().notNull(),
    menuItemIds: uuid('menu_item_ids').array().notNull(),
    status: paymentStatusEnum('status').notNull().default('pending'),
    data: timestamp('data', { withTimezone: true }).notNull().defaultNow(),
    /** The coupon applied (decision 019), its code as it was, and what it took off; none: null, null, 0. */
    couponId: uuid('coupon_id').references((): AnyPgColumn => coupons.id),
    couponCode: text('coupon_code'),
    discountCents: integer('discount_cents').notNull().default(0),
    /** The card as the gateway reports it (`visa`, `4242`); null when it does not say. */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_student_created_idx').on(t.studentId, t.createdAt.desc()),
    // A coupon never brings a cart to 0 (decision 019), so every payment is a charge.
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
    check('payments_discount', sql`${t.discountCents} >= 0 and (${t.couponId} is null) = (${t.couponCode} is null)`),
  ],
);

/**
 * Every payment intent we created at the gateway (decision 010), whatever the gateway: the lines
 * it was made for and what became of it. `open` until it is fulfilled, cancelled or refunded; the
 * reconciler re-reads open and refund_pending ones from the gateway (`next_check_at`), claiming a
 * batch with a short lease so several instances never work on the same intent at once.
 */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: text('id').primaryKey(),
    gateway: text('gateway').notNull(),
    /** Our user id; no foreign key: money records outlive accounts (DESIGN §4). */
    studentId: text('student_id').notNull(),
    clientSecret: text('client_secret').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    cartIds: uuid('cart_ids').array().notNull(),
    /** The coupon the amount was priced with (also in the gateway's metadata); fulfilment prices with it again. */
    couponId: uuid('coupon_id'),
    status: text('status').notNull().default('open'),
    paymentId: uuid('payment_id'),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'payment_intents_status',
      sql`${t.status} in ('open', 'succeeded', 'canceled', 'refund_pending', 'refunded')`,
    ),
    index('payment_intents_student_idx').on(t.studentId, t.status),
    index('payment_intents_due_idx')
      .on(t.nextCheckAt)
      .where(sql`${t.status} in ('open', 'refund_pending')`),
  ],
);

/** Gateway events already handled (webhook de-duplication). */
export const gatewayEvents = pgTable('gateway_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Payment intents of the built-in test gateway: it keeps state like Stripe's test mode does. */
export const testGatewayIntents = pgTable('test_gateway_intents', {
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull().unique(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  customerRef: text('customer_ref').notNull(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  status: text('status').notNull(),
  lastError: text('last_error'),
  /** The card that was charged, as Stripe reports it on the charge (brand, last four digits). */
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  /** Set once when the charge is refunded (Stripe keeps the intent succeeded and refunds its charge). */
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * Money given back on a recorded payment, one row per refund at the gateway. An
 * admin's refund names one enrolment line (a refund of the whole payment is one row per line), and
 * a line is refunded at most once (unique enrollment_id). `pending` is written before the gateway
 * is asked, its id being the idempotency key, so a retry or a concurrent click never refunds twice.
 * A refund made in Stripe's dashboard arrives by `charge.refunded` and is recorded with no author.
 * No foreign key to the enrolment: money records outlive classes and accounts (DESIGN §4).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    /** The enrolment line given back; null for a gateway refund that matches no single line. */
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
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refunds_enrollment_idx')
      .on(t.enrollmentId)
      .where(sql`${t.status} <> 'failed'`),
    index('refunds_payment_idx').on(t.paymentId),
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

/** Refunds of the built-in test gateway (partial refunds by amount, like Stripe's Refunds API). */
export const testGatewayRefunds = pgTable('test_gateway_refunds', {
  id: text('id').primaryKey(),
  intentId: text('intent_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  createdAt: createdAt(),
});

/**
 * Discount codes (decision 019): an admin's are valid site-wide (`teacher_id` null), a teacher's
 * only for that teacher's classes. `code` is stored as the student types it after
 * `normaliseCouponCode` (trimmed, upper-case), so the unique index is case-insensitive. `value` is
 * a whole percentage (1–100) or an amount in integer cents. `uses` is the counter that guards
 * `max_uses`, kept for coupons with a limit only: raised by the conditional update that follows
 * the redemption, it equals the redemption rows and never passes the limit. A coupon without a
 * limit does not keep it (it stays as it was, 0 for a coupon created since): its uses are its
 * redemption rows, and no checkout waits on its row (decision 019 §4; `couponUses` in
 * coupons.repository.ts gives the uses shown for both).
 * No foreign keys to users: coupons and their redemptions are money records (DESIGN §4).
 */
export const coupons = pgTable(
  'coupons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull().unique(),
    kind: text('kind', { enum: ['percent', 'fixed'] }).notNull(),
    value: integer('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    maxUses: integer('max_uses'),
    uses: integer('uses').notNull().default(0),
    /** The teacher whose classes it is for; null: an admin's, site-wide. */
    teacherId: text('teacher_id'),
    /** The admin or teacher who created it. */
    createdBy: text('created_by').notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('coupons_code_normalised', sql`${t.code} = upper(btrim(${t.code})) and length(${t.code}) between 1 and 40`),
    check(
      'coupons_value',
      sql`(${t.kind} = 'percent' and ${t.value} between 1 and 100) or (${t.kind} = 'fixed' and ${t.value} > 0)`,
    ),
    check('coupons_max_uses_positive', sql`${t.maxUses} is null or ${t.maxUses} > 0`),
    check('coupons_uses', sql`${t.uses} >= 0 and (${t.maxUses} is null or ${t.uses} <= ${t.maxUses})`),
    index('coupons_teacher_idx').on(t.teacherId, t.createdAt.desc()),
  ],
);

/**
 * One row per coupon use, written with the payment it discounted: a student uses a coupon once
 * (primary key). These rows are the coupon's uses; for a coupon with a limit `coupons.uses`
 * equals their number.
 */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    couponId: uuid('coupon_id')
      .notNull()
      .references(() => coupons.id),
    studentId: text('student_id').notNull(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    /** What the coupon took off that payment, in integer cents. */
    discountCents: integer('discount_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.couponId, t.studentId] }),
    index('coupon_redemptions_payment_idx').on(t.paymentId),
    check('coupon_redemptions_discount', sql`${t.discountCents} >= 0`),
  ],
);
