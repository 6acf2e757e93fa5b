import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CURRENCY } from '@skillhive/shared/constants';
import { centsToDecimal } from '@skillhive/shared/money';
import {
  PAYMENT_MESSAGES,
  isCardExpired,
  type ConfirmCardBody,
  type ConfirmCardResponse,
  type Payment,
  type PaymentIntentResponse,
} from '@skillhive/shared/payments';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { HANDLED_EVENT_TYPES, type GatewayEvent, type GatewayIntent, type PaymentGateway } from './gateway.ts';
import * as repo from './payments.repository.ts';
import type { ConfirmOutcome, TestGateway, TestIntent } from './test-gateway.ts';

export interface PaymentsDeps {
  db: Db;
  gateway: PaymentGateway;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** One payment covers at most this many enrolments (CreatePaymentBody.cartIds allows 200). */
export const MAX_CART_LINES = 200;

// ---- The cart an intent covers, carried in the intent's metadata --------------------------------
// Stripe limits metadata values to 500 characters and 50 keys, so the enrolment ids are stored in
// chunks of 13 (13 × 37 characters < 500): cart_0, cart_1, … and their count in cart_count.
const IDS_PER_KEY = 13;

export function encodeCart(ids: readonly string[]): Record<string, string> {
  const metadata: Record<string, string> = { cart_count: String(ids.length) };
  for (let i = 0; i * IDS_PER_KEY < ids.length; i++) {
    metadata[`cart_${i}`] = ids.slice(i * IDS_PER_KEY, (i + 1) * IDS_PER_KEY).join(',');
  }
  return metadata;
}

/** The enrolment ids an intent was created for, or null when its metadata is not ours. */
export function decodeCart(metadata: Record<string, string>): string[] | null {
  const n = Number(metadata.cart_count);
  if (!Number.isInteger(n) || n < 1 || n > MAX_CART_LINES) return null;
  const ids: string[] = [];
  for (let i = 0; i * IDS_PER_KEY < n; i++) ids.push(...(metadata[`cart_${i}`] ?? '').split(',').filter(Boolean));
  return ids.length === n && ids.every(enrollments.isUuid) ? ids : null;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === a.length && left.size === right.size && [...left].every((id) => right.has(id));
}

/**
 * The same cart (user, exact enrolments, amount) gives the same key, so a retried or doubled
 * "create intent" reuses one intent rather than opening a second charge for the same classes.
 */
export function cartIdempotencyKey(userId: string, sortedIds: readonly string[], amountCents: number): string {
  const digest = createHash('sha256')
    .update(`${userId}|${sortedIds.join(',')}|${amountCents}`)
    .digest('hex');
  return `skillhive-cart-${digest}`;
}

/**
 * POST /api/create-payment-intent (spec §4 "payment intent requested for the total"). The total
 * is the caller's own pending enrolments in integer cents; a price in the body is never read
 * (DESIGN §1.3). The intent's metadata records exactly which enrolments it pays for.
 */
export async function createPaymentIntent(deps: PaymentsDeps, viewer: Viewer): Promise<PaymentIntentResponse> {
  const cart = await enrollments.getPendingCart(deps.db, viewer.id);
  if (cart.length === 0) throw conflict(PAYMENT_MESSAGES.emptyCart);
  if (cart.length > MAX_CART_LINES) throw conflict(PAYMENT_MESSAGES.cartTooLarge);
  const ids = cart.map((line) => line.id).sort();
  const amountCents = cart.reduce((sum, line) => sum + line.priceCents, 0);
  // Outside any transaction: PGlite is one connection, and a network call must not hold it (DESIGN §2).
  const intent = await deps.gateway.createIntent({
    amountCents,
    currency: CURRENCY,
    customerRef: viewer.id,
    metadata: encodeCart(ids),
    idempotencyKey: cartIdempotencyKey(viewer.id, ids, amountCents),
  });
  return {
    clientSecret: intent.clientSecret,
    amount: amountCents,
    currency: CURRENCY,
    gateway: deps.gateway.name,
    publishableKey: deps.gateway.publishableKey,
    cartIds: ids,
  };
}

/** An existing payment answers a repeat only for the same student and the same enrolments. */
function answerExisting(existing: repo.PaymentRow, studentId: string, cartIds: readonly string[] | undefined) {
  if (existing.studentId !== studentId) throw forbidden(PAYMENT_MESSAGES.intentNotYours);
  if (cartIds && !sameSet(cartIds, existing.cartIds)) throw conflict(PAYMENT_MESSAGES.alreadyRecordedElsewhere);
  return { insertedId: existing.id, created: false };
}

/**
 * Records a payment the gateway confirmed (spec §4 "on success the payment is recorded";
 * DESIGN §1.3). Shared by POST /api/payments, the test gateway's confirmation and Stripe's
 * webhook, so it is safe to run any number of times, concurrently too:
 *
 * 1. a payment with this transaction id already exists → its id (nothing stored);
 * 2. the gateway is asked, outside any transaction: the intent must have succeeded, belong to this
 *    student, and cover exactly `cartIds` (the webhook passes none and takes the intent's list);
 * 3. one transaction locks those enrolments, checks they are all still pending and that their
 *    total equals the amount charged, stores the payment and flips exactly them to paid. A
 *    concurrent run for the same transaction waits on the locks, then finds them paid: its
 *    conflict turns into the winner's id, so both callers get the same insertedId.
 */
export async function fulfilPayment(
  deps: PaymentsDeps,
  input: {
    studentId: string;
    email: string;
    transactionId: string;
    cartIds?: readonly string[] | undefined;
    /** The intent as just read from the gateway, when the caller has it (the webhook). */
    intent?: GatewayIntent | undefined;
  },
): Promise<{ insertedId: string; created: boolean }> {
  const { db } = deps;
  const existing = await repo.findPaymentByTransactionId(db, input.transactionId);
  if (existing) return answerExisting(existing, input.studentId, input.cartIds);

  const intent =
    input.intent?.id === input.transactionId ? input.intent : await deps.gateway.retrieveIntent(input.transactionId);
  if (!intent) throw new AppError(ErrorCode.NOT_FOUND, PAYMENT_MESSAGES.intentNotFound);
  if (intent.customerRef !== input.studentId) throw forbidden(PAYMENT_MESSAGES.intentNotYours);
  if (intent.status !== 'succeeded') throw conflict(PAYMENT_MESSAGES.notSucceeded);
  const covered = decodeCart(intent.metadata);
  if (!covered) throw conflict(PAYMENT_MESSAGES.cartMismatch);
  if (input.cartIds && !sameSet(input.cartIds, covered)) throw conflict(PAYMENT_MESSAGES.cartMismatch);
  const ids = [...covered].sort();

  try {
    return await db.transaction(async (tx) => {
      const recorded = await repo.findPaymentByTransactionId(tx, intent.id);
      if (recorded) return answerExisting(recorded, input.studentId, input.cartIds);
      const lines = await enrollments.getCartLines(tx, input.studentId, ids, { lock: true });
      if (lines.length !== ids.length || lines.some((line) => line.status !== 'pending')) {
        throw conflict(PAYMENT_MESSAGES.cartChanged);
      }
      const total = lines.reduce((sum, line) => sum + line.priceCents, 0);
      if (total !== intent.amountCents) throw conflict(PAYMENT_MESSAGES.amountMismatch);
      const paidAt = deps.now();
      const paymentId = await repo.insertPayment(tx, {
        studentId: input.studentId,
        email: input.email,
        amountCents: intent.amountCents,
        currency: intent.currency,
        gateway: deps.gateway.name,
        transactionId: intent.id,
        cartIds: lines.map((line) => line.id),
        menuItemIds: lines.map((line) => line.classId),
        status: 'succeeded',
        data: paidAt,
      });
      if (!paymentId) {
        const winner = await repo.findPaymentByTransactionId(tx, intent.id);
        if (!winner) throw conflict('Please try again');
        return answerExisting(winner, input.studentId, input.cartIds);
      }
      const flipped = await enrollments.markPaid(tx, { studentId: input.studentId, ids, paymentId, paidAt });
      // Rolls the payment back too: never a payment without all of its enrolments paid.
      if (flipped !== ids.length) throw conflict(PAYMENT_MESSAGES.cartChanged);
      return { insertedId: paymentId, created: true };
    });
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.CONFLICT) {
      const winner = await repo.findPaymentByTransactionId(db, intent.id);
      if (winner) return answerExisting(winner, input.studentId, input.cartIds);
    }
    throw error;
  }
}

/** GET /api/payments/:email: newest first, each with the classes it paid for. */
export async function listPaymentsOf(
  db: Db,
  email: string,
  query: { page: number; limit: number },
): Promise<{ items: Payment[]; total: number }> {
  const studentId = await enrollments.findUserIdByEmail(db, email);
  if (!studentId) throw notFound('User');
  const { rows, total } = await repo.listPaymentsOfStudent(db, {
    studentId,
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  });
  const lines = await enrollments.listLinesOfPayments(
    db,
    rows.map((row) => row.id),
  );
  const items = rows.map((row) => ({
    _id: row.id,
    email: row.email,
    price: centsToDecimal(row.amountCents),
    transactionId: row.transactionId,
    data: row.data.toISOString(),
    cartIds: row.cartIds,
    menuItemIds: row.menuItemIds,
    status: row.status,
    classes: lines
      .filter((line) => line.paymentId === row.id)
      .map((line) => ({ _id: line.classId, title: line.title, price: centsToDecimal(line.priceCents) })),
  }));
  return { items, total };
}

// ---- The test gateway's card form --------------------------------------------------------------

type TestDeps = PaymentsDeps & { gateway: TestGateway };

async function ownIntent(deps: TestDeps, viewer: Viewer, clientSecret: string): Promise<TestIntent> {
  const intent = await deps.gateway.findIntentByClientSecret(clientSecret);
  if (!intent) throw new AppError(ErrorCode.NOT_FOUND, PAYMENT_MESSAGES.intentNotFound);
  if (intent.customerRef !== viewer.id) throw forbidden(PAYMENT_MESSAGES.intentNotYours);
  if (intent.status === 'canceled') throw conflict(PAYMENT_MESSAGES.intentCanceled);
  return intent;
}

/** Refuses to charge for a cart that can no longer be recorded (a line removed or paid meanwhile). */
async function assertStillPayable(deps: TestDeps, intent: GatewayIntent): Promise<void> {
  const ids = decodeCart(intent.metadata);
  if (!ids) throw conflict(PAYMENT_MESSAGES.cartMismatch);
  const lines = await enrollments.getCartLines(deps.db, intent.customerRef, ids, { lock: false });
  const total = lines.reduce((sum, line) => sum + line.priceCents, 0);
  if (lines.length !== ids.length || lines.some((line) => line.status !== 'pending') || total !== intent.amountCents) {
    throw conflict(PAYMENT_MESSAGES.cartChanged);
  }
}

/**
 * A charge the test gateway just made is recorded at once, as Stripe's webhook records one, so a
 * closed browser still ends paid; the client's POST /api/payments then answers the same id. A
 * failure here is logged, not thrown: the card was charged, and POST /api/payments reports it.
 */
async function recordCharge(deps: TestDeps, viewer: Viewer, intent: TestIntent): Promise<ConfirmCardResponse> {
  try {
    await fulfilPayment(deps, { studentId: viewer.id, email: viewer.email, transactionId: intent.id });
  } catch (error) {
    deps.log.warn({ err: error, transactionId: intent.id }, 'test gateway charge could not be recorded');
  }
  return { status: 'succeeded', transactionId: intent.id };
}

function answerOutcome(outcome: ConfirmOutcome): ConfirmCardResponse | 'succeeded' {
  if (outcome.status === 'declined') {
    const code = outcome.code === 'insufficient_funds' ? ErrorCode.INSUFFICIENT_FUNDS : ErrorCode.CARD_DECLINED;
    throw new AppError(code, outcome.message);
  }
  return outcome.status === 'requires_action' ? { status: 'requires_action' } : 'succeeded';
}

/** POST /api/test-gateway/confirm: Stripe's test cards, checked as Stripe checks them. */
export async function confirmTestCard(
  deps: TestDeps,
  viewer: Viewer,
  body: ConfirmCardBody,
): Promise<ConfirmCardResponse> {
  const intent = await ownIntent(deps, viewer, body.clientSecret);
  if (intent.status === 'succeeded') return recordCharge(deps, viewer, intent);
  if (isCardExpired(body.expMonth, body.expYear, deps.now())) {
    throw new AppError(ErrorCode.VALIDATION, PAYMENT_MESSAGES.expired, {
      fields: { expYear: PAYMENT_MESSAGES.expired },
    });
  }
  await assertStillPayable(deps, intent);
  const answer = answerOutcome(await deps.gateway.confirmCard(intent.id, body.cardNumber));
  return answer === 'succeeded' ? recordCharge(deps, viewer, intent) : answer;
}

/** POST /api/test-gateway/authenticate: the 3-D Secure step; declining it fails the payment. */
export async function authenticateTestCard(
  deps: TestDeps,
  viewer: Viewer,
  body: { clientSecret: string; approve: boolean },
): Promise<ConfirmCardResponse> {
  const intent = await ownIntent(deps, viewer, body.clientSecret);
  if (intent.status === 'succeeded') return recordCharge(deps, viewer, intent);
  if (intent.status !== 'requires_action') throw conflict(PAYMENT_MESSAGES.noActionRequired);
  const answer = answerOutcome(await deps.gateway.authenticate(intent.id, body.approve));
  return answer === 'succeeded' ? recordCharge(deps, viewer, intent) : answer;
}

// ---- Webhooks ----------------------------------------------------------------------------------

/**
 * A verified gateway event (STYLE.md "Webhooks"): only allow-listed types are acted on; an event
 * id seen before is acknowledged without acting again; the intent is re-read from the gateway
 * rather than trusted from the event body. Business refusals (a cart that changed) are logged and
 * acknowledged — retrying cannot fix them — while unexpected failures throw, so the gateway retries.
 */
export async function handleGatewayEvent(
  deps: PaymentsDeps,
  event: GatewayEvent,
): Promise<{ received: true; duplicate?: boolean }> {
  if (!HANDLED_EVENT_TYPES.has(event.type)) return { received: true };
  if (await repo.isEventRecorded(deps.db, event.id)) return { received: true, duplicate: true };

  if (event.type === 'payment_intent.succeeded' && event.intentId) {
    const intent = await deps.gateway.retrieveIntent(event.intentId);
    const student = intent?.status === 'succeeded' ? await repo.findUserById(deps.db, intent.customerRef) : null;
    if (intent && student) {
      try {
        const result = await fulfilPayment(deps, {
          studentId: student.id,
          email: student.email,
          transactionId: intent.id,
          intent,
        });
        deps.log.info(
          { eventId: event.id, paymentId: result.insertedId, created: result.created },
          'payment fulfilled by webhook',
        );
      } catch (error) {
        if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
        deps.log.warn({ err: error, eventId: event.id, transactionId: intent.id }, 'webhook payment not recorded');
      }
    } else {
      deps.log.warn(
        { eventId: event.id, intentId: event.intentId, status: intent?.status },
        'webhook intent not fulfillable',
      );
    }
  } else {
    deps.log.info({ eventId: event.id, type: event.type, intentId: event.intentId }, 'payment failed at the gateway');
  }

  const fresh = await repo.recordEvent(deps.db, { id: event.id, type: event.type });
  return fresh ? { received: true } : { received: true, duplicate: true };
}

/**
 * Before an account is deleted (security issue §10): its payments are financial records and stay,
 * with the e-mail replaced by `pseudonym`; the foreign key cuts student_id when the user row goes.
 */
export function pseudonymisePaymentsOf(db: Db, studentId: string, pseudonym: string): Promise<void> {
  return repo.pseudonymisePaymentsOf(db, studentId, pseudonym);
}
