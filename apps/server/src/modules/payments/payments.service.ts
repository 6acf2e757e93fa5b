import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CURRENCY, PRICE_MIN_CENTS } from '@skillhive/shared/rules/constants';
import { COUPON_MESSAGES } from '@skillhive/shared/rules/coupons';
import { centsToDecimal } from '@skillhive/shared/rules/money';
import type {
  ConfirmCardBody,
  ConfirmCardResponse,
  CreatePaymentIntentBody,
  Payment,
  PaymentIntentResponse,
} from '@skillhive/shared/contracts/payments';
import { PAYMENT_MESSAGES, isCardExpired } from '@skillhive/shared/rules/cards';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { paymentReceiptMail, queueMail } from '../mail/mail.service.ts';
import { contactEmailOf, findUserIdByEmail } from '../users/contact.public.ts';
import { HANDLED_EVENT_TYPES, type GatewayEvent, type GatewayIntent, type PaymentGateway } from './gateway.ts';
import { redeemCoupon } from './coupons.repository.ts';
import {
  couponForCart,
  couponOfCharge,
  couponOfIntentStillUsable,
  couponRefusal,
  type CartCoupon,
} from './coupons.service.ts';
import * as repo from './payments.repository.ts';
import { NO_ADJUSTMENTS, priceCart, type PricedCart, type PriceableLine } from './pricing.ts';
import { queueRefundMail, recordGatewayRefunds } from './refunds.service.ts';
import type { ConfirmOutcome, TestGateway, TestIntent } from './test-gateway.ts';

export interface PaymentsDeps {
  db: Db;
  gateway: PaymentGateway;
  now: () => Date;
  log: FastifyBaseLogger;
  /** For the links in the receipt e-mail. */
  publicUrl: string;
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

/** How many times a create retries after losing a reservation race before asking the client to. */
const CREATE_ATTEMPTS = 3;

class ReservationLost extends Error {
  override name = 'ReservationLost';
}

/** The intent's metadata key that binds it to the coupon it was priced with (decision 019). */
export const COUPON_METADATA_KEY = 'coupon_id';

/** The coupon id an intent was created with, '' when none; null when the metadata holds something else. */
function couponIdOf(metadata: Record<string, string>): string | null {
  const id = metadata[COUPON_METADATA_KEY];
  if (id === undefined || id === '') return '';
  return enrollments.isUuid(id) ? id : null;
}

function intentAnswer(
  deps: PaymentsDeps,
  row: repo.IntentRow,
  priced: PricedCart<PriceableLine & { id: string }>,
  coupon: CartCoupon | null,
): PaymentIntentResponse {
  const subtotalCents = priced.lines.reduce((sum, line) => sum + line.listCents, 0);
  return {
    clientSecret: row.clientSecret,
    amount: row.amountCents,
    currency: row.currency,
    gateway: deps.gateway.name,
    publishableKey: deps.gateway.publishableKey,
    cartIds: [...row.cartIds].sort(),
    subtotalCents,
    discountCents: subtotalCents - priced.totalCents,
    coupon: coupon ? { code: coupon.code, kind: coupon.kind, value: coupon.value } : null,
    lines: priced.lines.map((line) => ({
      _id: line.id,
      classId: line.classId,
      listCents: line.listCents,
      discountCents: line.discountCents,
      paidCents: line.paidCents,
    })),
  };
}

/**
 * POST /api/create-payment-intent (spec §4 "payment intent requested for the total"). The total
 * is the caller's own payable pending enrolments in integer cents — lines of a class that is no
 * longer accepted are left out (decision 010) — and a price in the body is never read (DESIGN
 * §1.3). One charge per cart, ever (decision 010):
 *
 * - an open intent of the caller for exactly this cart is answered again (a double click, a
 *   second tab with the same cart);
 * - every other open intent of the caller is cancelled at the gateway first, so it can never be
 *   charged; one that was charged meanwhile is settled (fulfilled, or refunded) and the cart is
 *   read again;
 * - the new intent is recorded and reserves its lines in one transaction; a concurrent create that
 *   reserved one of them first wins, and this one cancels its own intent and starts over.
 */
export async function createPaymentIntent(
  deps: PaymentsDeps,
  viewer: Viewer,
  body?: CreatePaymentIntentBody,
): Promise<PaymentIntentResponse> {
  const couponCode = body?.couponCode?.trim() || null;
  for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
    const pending = await enrollments.getPendingCart(deps.db, viewer.id);
    const cart = pending.filter(enrollments.isPayable);
    if (cart.length === 0)
      throw conflict(pending.length > 0 ? PAYMENT_MESSAGES.nothingPayable : PAYMENT_MESSAGES.emptyCart);
    if (cart.length > MAX_CART_LINES) throw conflict(PAYMENT_MESSAGES.cartTooLarge);
    const ids = cart.map((line) => line.id).sort();
    // A refused code is answered before any open intent is touched: the student keeps paying without it.
    const coupon = couponCode
      ? await couponForCart(deps.db, { code: couponCode, studentId: viewer.id, cart, now: deps.now() })
      : null;
    // The one pricing function (pricing.ts): the fulfilment and the last check reprice the same way.
    const priced = priceCart(cart, coupon ? [coupon.adjustment] : NO_ADJUSTMENTS);
    const amountCents = priced.totalCents;
    // Every payment is a charge of at least the smallest amount (decision 019): Stripe refuses less.
    if (coupon && amountCents < PRICE_MIN_CENTS) throw couponRefusal(COUPON_MESSAGES.belowMinimum);
    const couponId = coupon?.id ?? null;

    const open = await repo.listOpenIntentsOfStudent(deps.db, viewer.id);
    const same = open.find(
      (row) => row.amountCents === amountCents && row.couponId === couponId && sameSet(row.cartIds, ids),
    );
    let charged = false;
    for (const other of open) {
      if (other !== same && (await closeOpenIntent(deps, other)) === 'charged') charged = true;
    }
    if (charged) continue; // a line may be paid now: read the cart again
    if (same) return intentAnswer(deps, same, priced, coupon);

    // Outside any transaction: PGlite is one connection, and a network call must not hold it (DESIGN §2).
    const intent = await deps.gateway.createIntent({
      amountCents,
      currency: CURRENCY,
      customerRef: viewer.id,
      metadata: { ...encodeCart(ids), ...(couponId ? { [COUPON_METADATA_KEY]: couponId } : {}) },
      idempotencyKey: `skillhive-intent-${randomUUID()}`,
    });
    const row: repo.IntentRow = {
      id: intent.id,
      gateway: deps.gateway.name,
      studentId: viewer.id,
      clientSecret: intent.clientSecret,
      amountCents,
      currency: CURRENCY,
      cartIds: ids,
      couponId,
      status: 'open',
      paymentId: null,
      nextCheckAt: deps.now(),
      leaseUntil: null,
      createdAt: deps.now(),
      updatedAt: deps.now(),
    };
    try {
      await deps.db.transaction(async (tx) => {
        await repo.insertIntent(tx, row);
        const held = await enrollments.reserveLines(tx, { studentId: viewer.id, ids, intentId: intent.id });
        if (held !== ids.length) throw new ReservationLost();
      });
      return intentAnswer(deps, row, priced, coupon);
    } catch (error) {
      if (!(error instanceof ReservationLost)) throw error;
      // Another create reserved a line first: this intent was never shown to anyone; cancel it.
      await deps.gateway.cancelIntent(intent.id);
    }
  }
  throw conflict(PAYMENT_MESSAGES.reservedElsewhere);
}

/**
 * Takes an open intent out of play: cancelled at the gateway, then closed here and its lines
 * freed. When the gateway says it was charged after all, the charge is settled instead.
 */
async function closeOpenIntent(deps: PaymentsDeps, row: repo.IntentRow): Promise<'canceled' | 'charged'> {
  const after = await deps.gateway.cancelIntent(row.id);
  if (after?.status === 'succeeded') {
    await settleCharge(deps, after);
    return 'charged';
  }
  if (after && after.status !== 'canceled') throw conflict(PAYMENT_MESSAGES.paymentInProgress);
  await markCanceled(deps, row.id);
  return 'canceled';
}

async function markCanceled(deps: PaymentsDeps, intentId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (await repo.setIntentStatus(tx, intentId, ['open'], 'canceled', { now: deps.now() })) {
      await enrollments.releaseLines(tx, intentId);
    }
  });
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
  // The coupon is bound to the charge at creation, in metadata only we write (decision 019).
  const couponId = couponIdOf(intent.metadata);
  if (couponId === null) throw conflict(PAYMENT_MESSAGES.cartMismatch);

  try {
    return await db.transaction(async (tx) => {
      // Our record of the intent first (lock order: intent, classes, enrolments): a refund of
      // this intent holds it too, so a charge is either fulfilled or refunded, never both.
      const ours = await repo.findIntent(tx, intent.id, { lock: true });
      const recorded = await repo.findPaymentByTransactionId(tx, intent.id);
      if (recorded) return answerExisting(recorded, input.studentId, input.cartIds);
      if (ours && (ours.status === 'refund_pending' || ours.status === 'refunded')) {
        throw conflict(PAYMENT_MESSAGES.refunded);
      }
      if (ours && (ours.couponId ?? '') !== couponId) throw conflict(PAYMENT_MESSAGES.cartMismatch);
      const lines = await enrollments.getCartLines(tx, input.studentId, ids, { lock: true });
      if (lines.length !== ids.length || lines.some((line) => line.status !== 'pending')) {
        throw conflict(PAYMENT_MESSAGES.cartChanged);
      }
      // Money only for live classes (decision 010): a class archived, rejected or back in review.
      if (!lines.every(enrollments.isPayable)) throw conflict(PAYMENT_MESSAGES.notPayable);
      const coupon = couponId ? await couponOfCharge(tx, couponId, lines) : null;
      if (couponId && !coupon) throw conflict(PAYMENT_MESSAGES.amountMismatch);
      const priced = priceCart(lines, coupon ? [coupon.adjustment] : NO_ADJUSTMENTS);
      if (priced.totalCents !== intent.amountCents) throw conflict(PAYMENT_MESSAGES.amountMismatch);
      const discountCents = priced.lines.reduce((sum, line) => sum + line.discountCents, 0);
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
        couponId: coupon?.id ?? null,
        couponCode: coupon?.code ?? null,
        discountCents,
        cardBrand: intent.card?.brand ?? null,
        cardLast4: intent.card?.last4 ?? null,
      });
      if (!paymentId) {
        const winner = await repo.findPaymentByTransactionId(tx, intent.id);
        if (!winner) throw conflict('Please try again');
        return answerExisting(winner, input.studentId, input.cartIds);
      }
      const flipped = await enrollments.markPaid(tx, {
        studentId: input.studentId,
        lines: priced.lines.map((line) => ({ id: line.id, paidCents: line.paidCents })),
        paymentId,
        paidAt,
      });
      // Rolls the payment back too: never a payment without all of its enrolments paid.
      if (flipped !== ids.length) throw conflict(PAYMENT_MESSAGES.cartChanged);
      if (ours) {
        await repo.setIntentStatus(tx, intent.id, ['open', 'canceled'], 'succeeded', { paymentId, now: paidAt });
        await enrollments.releaseLines(tx, intent.id);
      }
      // The receipt commits with the payment, so every payment gets one.
      const paidLines = await enrollments.listLinesOfPayments(tx, [paymentId]);
      await queueMail(
        tx,
        input.email,
        paymentReceiptMail({
          publicUrl: deps.publicUrl,
          lines: paidLines.map((line) => ({ title: line.title, priceCents: line.paidCents })),
          totalCents: intent.amountCents,
          currency: intent.currency,
          transactionId: intent.id,
          paidAt,
        }),
      );
      // The use is counted with the payment, exactly once (coupons.repository redeemCoupon); a use
      // lost to a concurrent checkout (the last one taken, expired, disabled) rolls all of it back
      // and the charge is refunded by settleCharge. Last in the transaction: a coupon with a limit
      // keeps its row locked until the commit, so checkouts with the same code queue here as briefly
      // as can be (one without a limit locks nothing: they do not queue at all).
      if (coupon) {
        const redeemed = await redeemCoupon(tx, {
          couponId: coupon.id,
          studentId: input.studentId,
          paymentId,
          discountCents,
          now: paidAt,
        });
        if (redeemed !== 'redeemed') throw conflict(PAYMENT_MESSAGES.couponUnavailable);
      }
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

// ---- Settling a charge: fulfil it, or give the money back (decision 010) ---------------------

/** Refusals that come from the state of the cart, not from the request: retrying cannot fix them. */
const UNFULFILLABLE = new Set<string>([
  PAYMENT_MESSAGES.cartChanged,
  PAYMENT_MESSAGES.cartMismatch,
  PAYMENT_MESSAGES.amountMismatch,
  PAYMENT_MESSAGES.notPayable,
  PAYMENT_MESSAGES.refunded,
  PAYMENT_MESSAGES.couponUnavailable,
]);

/** What the student is told when a charge was refunded because it could not be recorded. */
function refundedMessage(reason: string): string {
  return reason === PAYMENT_MESSAGES.couponUnavailable ? PAYMENT_MESSAGES.couponRefunded : PAYMENT_MESSAGES.refunded;
}

export function isUnfulfillable(error: unknown): error is AppError {
  return error instanceof AppError && error.code === ErrorCode.CONFLICT && UNFULFILLABLE.has(error.message);
}

export type Settlement =
  | { outcome: 'paid'; paymentId: string }
  | { outcome: 'refunded'; reason: string }
  /** Not an intent we created (nothing refunded on a guess), or not charged. */
  | { outcome: 'ignored'; reason: string };

/**
 * A charge that succeeded at the gateway ends in exactly one of two ways: a payment recorded for
 * its lines, or a full refund. Shared by the test gateway's confirmation, Stripe's webhook, the
 * client's POST /api/payments and the reconciler; safe to run any number of times, concurrently.
 * Only intents in our own record are ever refunded.
 */
export async function settleCharge(deps: PaymentsDeps, intent: GatewayIntent): Promise<Settlement> {
  if (intent.status !== 'succeeded') return { outcome: 'ignored', reason: `intent is ${intent.status}` };
  const contact = await contactEmailOf(deps.db, intent.customerRef);
  const student = contact ? { id: intent.customerRef, email: contact.email } : null;
  try {
    if (!student) throw conflict(PAYMENT_MESSAGES.cartChanged);
    const result = await fulfilPayment(deps, {
      studentId: student.id,
      email: student.email,
      transactionId: intent.id,
      intent,
    });
    return { outcome: 'paid', paymentId: result.insertedId };
  } catch (error) {
    if (!isUnfulfillable(error)) throw error;
    return refundCharge(deps, intent.id, error.message);
  }
}

/**
 * Refunds a charge that cannot be fulfilled. Our intent row is locked while it is marked
 * refund_pending, so a concurrent fulfilment either recorded the payment first (then nothing is
 * refunded) or finds it refund_pending and refuses. The gateway call comes after the commit; if it
 * fails, the row stays refund_pending and the reconciler tries again.
 */
export async function refundCharge(deps: PaymentsDeps, intentId: string, reason: string): Promise<Settlement> {
  const decision = await deps.db.transaction(async (tx) => {
    const row = await repo.findIntent(tx, intentId, { lock: true });
    if (!row) return 'not-ours' as const;
    const payment = await repo.findPaymentByTransactionId(tx, intentId);
    if (payment) return { paymentId: payment.id };
    if (row.status === 'refunded') return 'done' as const;
    await repo.setIntentStatus(tx, intentId, ['open', 'succeeded', 'canceled'], 'refund_pending', { now: deps.now() });
    const titles = await enrollments.listTitlesOfEnrollments(tx, row.cartIds);
    await enrollments.releaseLines(tx, intentId);
    // The student hears of the refund with the decision to make it;
    // the gateway call follows the commit and the reconciler retries it until it is done.
    await queueRefundMail(tx, deps.publicUrl, {
      studentId: row.studentId,
      titles,
      amountCents: row.amountCents,
      currency: row.currency,
      transactionId: intentId,
    });
    return 'refund' as const;
  });
  if (decision === 'not-ours') {
    deps.log.warn({ transactionId: intentId, reason }, 'charge not fulfillable and not created by us: not refunded');
    return { outcome: 'ignored', reason };
  }
  if (typeof decision === 'object') return { outcome: 'paid', paymentId: decision.paymentId };
  if (decision === 'refund') {
    await deps.gateway.refund(intentId);
    await repo.setIntentStatus(deps.db, intentId, ['refund_pending'], 'refunded', { now: deps.now() });
    deps.log.warn({ transactionId: intentId, reason }, 'charge refunded: it could not be fulfilled');
  }
  return { outcome: 'refunded', reason };
}

/**
 * POST /api/payments: the browser records the charge it just confirmed. A refusal that comes from
 * the cart's state (not from the request) settles the charge, which refunds it.
 */
export async function recordPaymentOfViewer(
  deps: PaymentsDeps,
  viewer: Viewer,
  body: { transactionId: string; cartIds: readonly string[] },
): Promise<{ insertedId: string; created: boolean }> {
  try {
    return await fulfilPayment(deps, {
      studentId: viewer.id,
      email: viewer.email,
      transactionId: body.transactionId,
      cartIds: body.cartIds,
    });
  } catch (error) {
    if (!isUnfulfillable(error) || error.message === PAYMENT_MESSAGES.cartMismatch) throw error;
    const intent = await deps.gateway.retrieveIntent(body.transactionId);
    if (intent?.customerRef !== viewer.id) throw error;
    const settled = await settleCharge(deps, intent);
    if (settled.outcome === 'refunded') throw conflict(refundedMessage(settled.reason));
    throw error;
  }
}

/** GET /api/payments/:email: newest first, each with the classes it paid for. */
export async function listPaymentsOf(
  db: Db,
  email: string,
  query: { page: number; limit: number },
): Promise<{ items: Payment[]; total: number }> {
  const studentId = await findUserIdByEmail(db, email);
  if (!studentId) throw notFound('User');
  const { rows, total } = await repo.listPaymentsOfStudent(db, {
    studentId,
    ...limitOffsetOf(query),
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
      .map((line) => ({ _id: line.classId, title: line.title, price: centsToDecimal(line.paidCents) })),
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

/**
 * Refuses to charge for a cart that can no longer be recorded: the intent must be open in our
 * record, and every line pending, of a live class, reserved for this very intent (decision 010),
 * and totalling the amount. A create that cancels this intent meanwhile is caught by the gateway
 * itself: its cancel and this charge are one conditional update each, and only one of them wins.
 */
async function assertStillPayable(deps: TestDeps, intent: GatewayIntent): Promise<void> {
  const ours = await repo.findIntent(deps.db, intent.id, { lock: false });
  if (ours && ours.status !== 'open') throw conflict(PAYMENT_MESSAGES.intentCanceled);
  const ids = decodeCart(intent.metadata);
  if (!ids) throw conflict(PAYMENT_MESSAGES.cartMismatch);
  const lines = await enrollments.getCartLines(deps.db, intent.customerRef, ids, { lock: false });
  // The coupon must still be usable by this student: better refused now than charged and refunded.
  const couponId = couponIdOf(intent.metadata);
  if (couponId === null) throw conflict(PAYMENT_MESSAGES.cartMismatch);
  const coupon =
    couponId && lines.length > 0
      ? await couponOfIntentStillUsable(deps.db, {
          couponId,
          studentId: intent.customerRef,
          cart: lines,
          now: deps.now(),
        })
      : null;
  const { totalCents } = priceCart(lines, coupon ? [coupon.adjustment] : NO_ADJUSTMENTS);
  if (
    lines.length !== ids.length ||
    lines.some((line) => line.status !== 'pending') ||
    totalCents !== intent.amountCents
  ) {
    throw conflict(PAYMENT_MESSAGES.cartChanged);
  }
  if (!lines.every(enrollments.isPayable)) throw conflict(PAYMENT_MESSAGES.notPayable);
  if (lines.some((line) => line.reservedBy !== intent.id)) throw conflict(PAYMENT_MESSAGES.reservedElsewhere);
}

/**
 * A charge the test gateway just made is settled at once, as Stripe's webhook settles one, so a
 * closed browser still ends paid; the client's POST /api/payments then answers the same id. A
 * charge that cannot be fulfilled is refunded and the caller told so (409). Any other failure is
 * logged, not thrown: the card was charged, and the reconciler finishes the job.
 */
async function recordCharge(deps: TestDeps, intent: TestIntent): Promise<ConfirmCardResponse> {
  let settled: Settlement | null = null;
  try {
    const charged = await deps.gateway.retrieveIntent(intent.id);
    if (charged) settled = await settleCharge(deps, charged);
  } catch (error) {
    deps.log.warn({ err: error, transactionId: intent.id }, 'test gateway charge could not be recorded');
  }
  if (settled?.outcome === 'refunded') throw conflict(refundedMessage(settled.reason));
  return { status: 'succeeded', transactionId: intent.id };
}

function answerOutcome(outcome: ConfirmOutcome): ConfirmCardResponse | 'succeeded' {
  if (outcome.status === 'canceled') throw conflict(PAYMENT_MESSAGES.intentCanceled);
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
  if (intent.status === 'succeeded') return recordCharge(deps, intent);
  if (intent.refunded) throw conflict(PAYMENT_MESSAGES.refunded);
  if (isCardExpired(body.expMonth, body.expYear, deps.now())) {
    throw new AppError(ErrorCode.VALIDATION, PAYMENT_MESSAGES.expired, {
      fields: { expYear: PAYMENT_MESSAGES.expired },
    });
  }
  await assertStillPayable(deps, intent);
  const answer = answerOutcome(await deps.gateway.confirmCard(intent.id, body.cardNumber));
  return answer === 'succeeded' ? recordCharge(deps, intent) : answer;
}

/** POST /api/test-gateway/authenticate: the 3-D Secure step; declining it fails the payment. */
export async function authenticateTestCard(
  deps: TestDeps,
  viewer: Viewer,
  body: { clientSecret: string; approve: boolean },
): Promise<ConfirmCardResponse> {
  const intent = await ownIntent(deps, viewer, body.clientSecret);
  if (intent.status === 'succeeded') return recordCharge(deps, intent);
  if (intent.status !== 'requires_action') throw conflict(PAYMENT_MESSAGES.noActionRequired);
  if (body.approve) await assertStillPayable(deps, intent);
  const answer = answerOutcome(await deps.gateway.authenticate(intent.id, body.approve));
  return answer === 'succeeded' ? recordCharge(deps, intent) : answer;
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
    if (intent?.status === 'succeeded') {
      try {
        const settled = await settleCharge(deps, intent);
        deps.log.info({ eventId: event.id, transactionId: intent.id, ...settled }, 'payment settled by webhook');
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
  } else if (event.type === 'charge.refunded' && event.intentId) {
    // A refund made in Stripe's dashboard, or ours echoed back: recorded once.
    await recordGatewayRefunds(deps, event.intentId);
  } else {
    deps.log.info({ eventId: event.id, type: event.type, intentId: event.intentId }, 'payment failed at the gateway');
  }

  const fresh = await repo.recordEvent(deps.db, { id: event.id, type: event.type });
  return fresh ? { received: true } : { received: true, duplicate: true };
}

/**
 * Before an account is deleted (DESIGN §4): its payments are financial records and stay,
 * with the e-mail replaced by `pseudonym`; the foreign key cuts student_id when the user row goes.
 */
export function pseudonymisePaymentsOf(db: Db, studentId: string, pseudonym: string): Promise<void> {
  return repo.pseudonymisePaymentsOf(db, studentId, pseudonym);
}
