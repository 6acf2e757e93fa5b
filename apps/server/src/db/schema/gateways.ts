// Owned by modules/gateways (decision 015): the built-in test gateway's own state, which Stripe keeps
// on its side; only the test gateway imports this file.
import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';

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

/** Refunds of the built-in test gateway (partial refunds by amount, like Stripe's Refunds API). */
export const testGatewayRefunds = pgTable('test_gateway_refunds', {
  id: text('id').primaryKey(),
  intentId: text('intent_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  createdAt: createdAt(),
});

/** Connected accounts of the built-in test gateway (Stripe Connect Express, simulated offline). */
export const testGatewayAccounts = pgTable('test_gateway_accounts', {
  id: text('id').primaryKey(),
  /** Our reference of the account holder (the teacher's user id), as Stripe's metadata would keep it. */
  ownerRef: text('owner_ref').notNull().unique(),
  /** Set when the simulated onboarding page is completed. */
  payoutsEnabled: text('payouts_enabled').notNull().default('false'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Transfers of the built-in test gateway; one per idempotency key, as Stripe answers a repeated key. */
export const testGatewayTransfers = pgTable('test_gateway_transfers', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  transferGroup: text('transfer_group').notNull(),
  sourceTransaction: text('source_transaction').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  reversedCents: integer('reversed_cents').notNull().default(0),
  createdAt: createdAt(),
});

/** Disputes (chargebacks) the built-in test gateway raised on a charge, for tests and demos. */
export const testGatewayDisputes = pgTable('test_gateway_disputes', {
  id: text('id').primaryKey(),
  intentId: text('intent_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  reason: text('reason').notNull(),
  status: text('status').notNull(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});
