// Owned by modules/checkout (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { PAYMENT_STATUSES } from '@skillhive/shared/rules/constants';
import { createdAt, updatedAt } from './columns.ts';
// The tables reference each other (payments.coupon_id, coupon_redemptions.payment_id): Drizzle
// resolves references lazily, after both files have loaded, so this one cycle is safe.
// eslint-disable-next-line import-x/no-cycle -- see above
import { coupons } from './coupons.ts';
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
