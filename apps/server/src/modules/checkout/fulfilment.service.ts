import type { FastifyBaseLogger } from 'fastify';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, forbidden } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { couponOfCharge, redeemCoupon } from '../coupons/coupons.service.ts';
import { type LedgerSettings, recordSale } from '../earnings/earnings.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import type { GatewayIntent, PaymentGateway } from '../gateways/gateway.public.ts';
import { paymentReceiptMail, queueMail } from '../mail/mail.service.ts';
import { tellStudentOfRefund } from '../refunds/refunds.service.ts';
import type { NotificationPublisher } from '../notifications/notifications.public.ts';
import { contactEmailOf } from '../users/contact.public.ts';
import * as repo from './checkout.repository.ts';
import { couponIdOf, decodeCart, sameSet } from './intent-metadata.ts';
import { NO_ADJUSTMENTS, priceCart } from './pricing.public.ts';

export interface PaymentsDeps {
  db: Db;
  gateway: PaymentGateway;
  now: () => Date;
  log: FastifyBaseLogger;
  /** For the links in the receipt e-mail. */
  publicUrl: string;
  /** Where the student hears of a purchase refunded because it could not be completed (decision 047). */
  notifications: NotificationPublisher;
  /** The platform's fee and the refund window the earnings ledger splits and holds each paid line by (decision 039). */
  ledger: LedgerSettings;
}

/** An existing payment answers a repeat only for the same student and the same enrollments. */
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
 * 3. one transaction locks those enrollments, checks they are all still pending and that their
 *    total equals the amount charged, stores the payment and flips exactly them to paid. A
 *    concurrent run for the same transaction waits on the locks, then finds them paid: its
 *    conflict turns into the winner's id, so both callers get the same insertedId.
 */
export async function fulfilPayment(
  deps: PaymentsDeps,
  input: {
    studentId: string;
    email: string;
    /** The student's name, for the ledger's initials (decision 039). */
    name: string | null;
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
      // Our record of the intent first (lock order: intent, classes, enrollments): a refund of
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
      // A seat for each line of a section with seats (decision 042): its live hold, or a seat
      // nobody paid for or holds; else the charge is refunded (settleCharge), never oversold.
      await enrollments.claimSeats(tx, lines, deps.now());
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
      // Rolls the payment back too: never a payment without all of its enrollments paid.
      if (flipped !== ids.length) throw conflict(PAYMENT_MESSAGES.cartChanged);
      // Every paid line's fee and share, with the payment (decision 039).
      await recordSale(tx, deps.ledger, {
        paymentId,
        transactionId: intent.id,
        studentName: input.name,
        currency: intent.currency,
        paidAt,
        coupon: coupon ? { teacherId: coupon.teacherId } : null,
        lines: priced.lines.map((line) => ({
          id: line.id,
          classId: line.classId,
          teacherId: line.teacherId,
          listCents: line.listCents,
          discountCents: line.discountCents,
          paidCents: line.paidCents,
          title: line.title,
          sectionId: line.sectionId,
        })),
      });
      if (ours) {
        await repo.setIntentStatus(tx, intent.id, ['open', 'canceled'], 'succeeded', { paymentId, now: paidAt });
        await enrollments.releaseLines(tx, intent.id);
      }
      // The receipt commits with the payment, so every payment gets one: its lines by title, as
      // the payment history lists them.
      const receiptLines = priced.lines
        .map((line) => ({ id: line.id, title: line.title, priceCents: line.paidCents }))
        .sort((a, b) => (a.title === b.title ? (a.id < b.id ? -1 : 1) : a.title < b.title ? -1 : 1));
      await queueMail(
        tx,
        input.email,
        paymentReceiptMail({
          publicUrl: deps.publicUrl,
          lines: receiptLines.map(({ title, priceCents }) => ({ title, priceCents })),
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
  PAYMENT_MESSAGES.sectionFull,
]);

/** What the student is told when a charge was refunded because it could not be recorded. */
export function refundedMessage(reason: string): string {
  if (reason === PAYMENT_MESSAGES.couponUnavailable) return PAYMENT_MESSAGES.couponRefunded;
  if (reason === PAYMENT_MESSAGES.sectionFull) return PAYMENT_MESSAGES.seatRefunded;
  return PAYMENT_MESSAGES.refunded;
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
  const student = contact ? { id: intent.customerRef, email: contact.email, name: contact.name } : null;
  try {
    if (!student) throw conflict(PAYMENT_MESSAGES.cartChanged);
    const result = await fulfilPayment(deps, {
      studentId: student.id,
      email: student.email,
      name: student.name,
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
    await tellStudentOfRefund(tx, deps, {
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
      name: viewer.name,
      transactionId: body.transactionId,
      cartIds: body.cartIds,
    });
  } catch (error) {
    if (!isUnfulfillable(error) || error.message === PAYMENT_MESSAGES.cartMismatch) throw error;
    const intent = await deps.gateway.retrieveIntent(body.transactionId);
    if (intent?.customerRef !== viewer.id) throw error;
    const settled = await settleCharge(deps, intent);
    if (settled.outcome === 'refunded') throw conflict(refundedMessage(settled.reason));
    // Paid after all: a seat freed between the two attempts (decision 042 §5), or a concurrent
    // settlement (the reconciler, the card form) recorded it first. The charge is this student's
    // payment, as a repeated call answers it; a 409 would tell them it failed.
    if (settled.outcome === 'paid') return { insertedId: settled.paymentId, created: false };
    throw error;
  }
}
