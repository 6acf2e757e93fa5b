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
