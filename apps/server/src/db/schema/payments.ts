// Owned by modules/payments (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { PAYMENT_STATUSES } from '@skillhive/shared/rules/constants';
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
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_student_created_idx').on(t.studentId, t.createdAt.desc()),
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
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
  /** Set once when the charge is refunded (Stripe keeps the intent succeeded and refunds its charge). */
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
