import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { PAYMENT_MESSAGES, cardBrandOf, normalizeCardNumber } from '@skillhive/shared/rules/cards';
import type { Db } from '../../db/client.ts';
import { testGatewayIntents as intents, testGatewayRefunds } from '../../db/schema/gateways.ts';
import type {
  CreateIntentInput,
  GatewayIntent,
  GatewayRefund,
  IntentStatus,
  PaymentGateway,
  RefundAmountInput,
} from './gateway.public.ts';
import { type TestConnect, createTestConnect } from './test-gateway-connect.ts';

/**
 * Stripe's documented test cards (https://docs.stripe.com/testing) and what they do. Any other
 * number that passes the Luhn check is declined, as Stripe's test mode declines real cards.
 */
const SUCCEEDING_CARDS = new Set([
  '4242424242424242', // Visa
  '4000056655665556', // Visa (debit)
  '5555555555554444', // Mastercard
  '2223003122003222', // Mastercard (2-series)
  '5200828282828210', // Mastercard (debit)
  '378282246310005', // American Express
  '6011111111111117', // Discover
]);
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  requiresAuthentication: '4000002500003155',
} as const;

export type ConfirmOutcome =
  | { status: 'succeeded' }
  | { status: 'requires_action' }
  /** Cancelled before this charge could be made (a newer intent took its lines; decision 010). */
  | { status: 'canceled' }
  | { status: 'declined'; code: 'card_declined' | 'insufficient_funds'; message: string };

export type TestIntent = GatewayIntent & { clientSecret: string; lastError: string | null; refunded: boolean };

export interface TestGateway extends PaymentGateway, TestConnect {
  readonly name: 'test';
  findIntentByClientSecret(clientSecret: string): Promise<TestIntent | null>;
  /**
   * Charges a (validated) card to a requires_payment_method or requires_action intent. A decline
   * leaves the intent requires_payment_method with last_error set, as Stripe does. When another
   * call changed the intent meanwhile, the intent's current state is answered instead.
   */
  confirmCard(intentId: string, cardNumber: string): Promise<ConfirmOutcome>;
  /** Completes (approve) or fails (!approve) the authentication a requires_action intent waits for. */
  authenticate(intentId: string, approve: boolean): Promise<ConfirmOutcome>;
}

function outcomeFor(cardNumber: string): { status: IntentStatus; outcome: ConfirmOutcome; lastError: string | null } {
  if (SUCCEEDING_CARDS.has(cardNumber))
    return { status: 'succeeded', outcome: { status: 'succeeded' }, lastError: null };
  if (cardNumber === TEST_CARDS.requiresAuthentication) {
    return { status: 'requires_action', outcome: { status: 'requires_action' }, lastError: null };
  }
  if (cardNumber === TEST_CARDS.insufficientFunds) {
    const outcome = {
      status: 'declined',
      code: 'insufficient_funds',
      message: PAYMENT_MESSAGES.insufficientFunds,
    } as const;
    return { status: 'requires_payment_method', outcome, lastError: outcome.code };
  }
  const message = cardNumber === TEST_CARDS.declined ? PAYMENT_MESSAGES.declined : PAYMENT_MESSAGES.notATestCard;
  return {
    status: 'requires_payment_method',
    outcome: { status: 'declined', code: 'card_declined', message },
    lastError: 'card_declined',
  };
}

function toIntent(row: typeof intents.$inferSelect): TestIntent {
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    status: row.status as IntentStatus,
    amountCents: row.amountCents,
    currency: row.currency,
    customerRef: row.customerRef,
    metadata: row.metadata,
    card: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
    lastError: row.lastError,
    refunded: row.refundedAt !== null,
  };
}

function toRefund(row: typeof testGatewayRefunds.$inferSelect): GatewayRefund {
  return {
    id: row.id,
    intentId: row.intentId,
    amountCents: row.amountCents,
    status: 'succeeded',
    metadata: row.metadata,
  };
}

/** The built-in gateway: keeps its intents in test_gateway_intents, like Stripe's test mode keeps them. */
export function createTestGateway(db: Db, now: () => Date = () => new Date()): TestGateway {
  async function byId(id: string): Promise<TestIntent | null> {
    const [row] = await db.select().from(intents).where(eq(intents.id, id));
    return row ? toIntent(row) : null;
  }

  /** The answer for an intent another call moved on from the state this call expected. */
  function currentOutcome(intent: TestIntent | null): ConfirmOutcome {
    if (intent?.status === 'succeeded') return { status: 'succeeded' };
    if (intent?.status === 'requires_action') return { status: 'requires_action' };
    if (intent?.status === 'canceled') return { status: 'canceled' };
    return { status: 'declined', code: 'card_declined', message: PAYMENT_MESSAGES.declined };
  }

  return {
    name: 'test',
    publishableKey: null,
    ...createTestConnect(db, now),

    async createIntent(input: CreateIntentInput) {
      // Like a Stripe idempotency key: the same key gives back the same intent.
      const id = `pi_test_${createHash('sha256').update(input.idempotencyKey).digest('base64url').slice(0, 24)}`;
      await db
        .insert(intents)
        .values({
          id,
          clientSecret: `${id}_secret_${randomBytes(18).toString('base64url')}`,
          amountCents: input.amountCents,
          currency: input.currency,
          customerRef: input.customerRef,
          metadata: input.metadata,
          status: 'requires_payment_method',
        })
        .onConflictDoNothing({ target: intents.id });
      const intent = await byId(id);
      if (!intent) throw new Error(`test gateway lost intent ${id}`);
      if (intent.amountCents !== input.amountCents || intent.customerRef !== input.customerRef) {
        throw new Error('test gateway: idempotency key reused with different parameters');
      }
      return { id: intent.id, clientSecret: intent.clientSecret };
    },

    retrieveIntent: byId,

    async cancelIntent(id) {
      // One conditional statement: a concurrent confirmCard either charged first (then this
      // changes nothing and the answer is succeeded) or finds the intent canceled.
      await db
        .update(intents)
        .set({ status: 'canceled', updatedAt: now() })
        .where(and(eq(intents.id, id), inArray(intents.status, ['requires_payment_method', 'requires_action'])));
      return byId(id);
    },

    async refund(intentId) {
      const [row] = await db
        .update(intents)
        .set({ refundedAt: now(), updatedAt: now() })
        .where(and(eq(intents.id, intentId), eq(intents.status, 'succeeded'), isNull(intents.refundedAt)))
        .returning({ id: intents.id });
      if (row) return;
      const intent = await byId(intentId);
      if (!intent || intent.status !== 'succeeded')
        throw new Error(`test gateway: intent ${intentId} has no charge to refund`);
    },

    async refundAmount(input: RefundAmountInput): Promise<GatewayRefund> {
      // As Stripe does: the same idempotency key answers the first refund; never more than was charged.
      return db.transaction(async (tx) => {
        // The charge's lock first, then the key: two calls with one key at once (a double click)
        // queue here, and the second finds the first's refund instead of refunding again.
        const [intent] = await tx.select().from(intents).where(eq(intents.id, input.intentId)).for('update');
        const [known] = await tx
          .select()
          .from(testGatewayRefunds)
          .where(eq(testGatewayRefunds.idempotencyKey, input.idempotencyKey));
        if (known) return toRefund(known);
        if (!intent || intent.status !== 'succeeded') {
          throw new Error(`test gateway: intent ${input.intentId} has no charge to refund`);
        }
        const before = await tx
          .select({ amountCents: testGatewayRefunds.amountCents })
          .from(testGatewayRefunds)
          .where(eq(testGatewayRefunds.intentId, input.intentId));
        const refunded = before.reduce((sum, r) => sum + r.amountCents, 0);
        if (intent.refundedAt || refunded + input.amountCents > intent.amountCents) {
          throw new Error(`test gateway: refund of ${input.amountCents} exceeds what is left of ${input.intentId}`);
        }
        const [row] = await tx
          .insert(testGatewayRefunds)
          .values({
            id: `re_test_${randomBytes(12).toString('base64url')}`,
            intentId: input.intentId,
            amountCents: input.amountCents,
            idempotencyKey: input.idempotencyKey,
            metadata: input.metadata,
          })
          .returning();
        if (refunded + input.amountCents === intent.amountCents) {
          await tx.update(intents).set({ refundedAt: now(), updatedAt: now() }).where(eq(intents.id, input.intentId));
        }
        return toRefund(row!);
      });
    },

    async listRefunds(intentId) {
      const rows = await db
        .select()
        .from(testGatewayRefunds)
        .where(eq(testGatewayRefunds.intentId, intentId))
        .orderBy(testGatewayRefunds.createdAt);
      return rows.map(toRefund);
    },

    async findIntentByClientSecret(clientSecret) {
      const [row] = await db.select().from(intents).where(eq(intents.clientSecret, clientSecret));
      return row ? toIntent(row) : null;
    },

    async confirmCard(intentId, cardNumber) {
      const next = outcomeFor(cardNumber);
      const updated = await db
        .update(intents)
        .set({
          status: next.status,
          lastError: next.lastError,
          // The card tried last, as Stripe's charge reports it (the payment records the one that succeeded).
          cardBrand: cardBrandOf(cardNumber),
          cardLast4: normalizeCardNumber(cardNumber).slice(-4),
          updatedAt: now(),
        })
        .where(and(eq(intents.id, intentId), inArray(intents.status, ['requires_payment_method', 'requires_action'])))
        .returning({ id: intents.id });
      return updated.length > 0 ? next.outcome : currentOutcome(await byId(intentId));
    },

    async authenticate(intentId, approve) {
      const updated = await db
        .update(intents)
        .set(
          approve
            ? { status: 'succeeded', lastError: null, updatedAt: now() }
            : { status: 'requires_payment_method', lastError: 'authentication_failed', updatedAt: now() },
        )
        .where(and(eq(intents.id, intentId), eq(intents.status, 'requires_action')))
        .returning({ id: intents.id });
      if (updated.length === 0) return currentOutcome(await byId(intentId));
      return approve
        ? { status: 'succeeded' }
        : { status: 'declined', code: 'card_declined', message: PAYMENT_MESSAGES.authenticationFailed };
    },
  };
}

export function isTestGateway(gateway: PaymentGateway): gateway is TestGateway {
  return gateway.name === 'test' && 'confirmCard' in gateway;
}
