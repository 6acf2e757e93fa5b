import type { FastifyBaseLogger } from 'fastify';
import type { Refund } from '@skillhive/shared/contracts/refunds';
import { REFUND_MESSAGES } from '@skillhive/shared/rules/refunds';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { clawBackLines } from '../earnings/earnings.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import type { NotificationPublisher } from '../notifications/notifications.public.ts';
import { contactEmailOf } from '../users/contact.public.ts';
import * as reviews from '../reviews/reviews.service.ts';
import * as checkout from '../checkout/payments.public.ts';
import type { GatewayRefund, PaymentGateway } from '../gateways/gateway.public.ts';
import type { SeatsFreed } from '../waitlists/waitlists.public.ts';
import { tellStudentOfRefund } from './refund-notice.ts';
import * as repo from './refunds.repository.ts';

// Checkout tells of the refunds it makes through this module's service (decision 015).
export { tellStudentOfRefund };

/**
 * Refunds (DESIGN §4 "paid → refunded"). Race safety follows fulfilPayment (STYLE.md
 * "Race-safe money"): every refund of a payment first locks the payment row, then its lines; a
 * pending refund row is written before the gateway is asked, its id being the idempotency key, so
 * two admins clicking at once, a retry after a crash and Stripe's charge.refunded webhook all end
 * in one refund at the gateway and one record. The gateway is never called inside a transaction.
 */
export interface RefundsDeps {
  db: Db;
  gateway: PaymentGateway;
  now: () => Date;
  log: FastifyBaseLogger;
  publicUrl: string;
  /** The notification centre the student hears of a refund in (decision 047). */
  notifications: NotificationPublisher;
  /** REFUND_WINDOW_DAYS: how long after paying a student may request a refund. */
  refundWindowDays: number;
  /** Offers a refunded line's seat to the section's waiting list at once (decision 051). */
  seatsFreed?: SeatsFreed | undefined;
}

type Actor = Pick<Viewer, 'id' | 'email'>;

const idempotencyKeyOf = (refundId: string) => `skillhive-refund-${refundId}`;

/**
 * How long a pending refund is left to the call that wrote it before the reconciler takes it over
 * (decision 031): longer than that call's gateway step with its retries, short enough that a
 * refund cut short by a crash, a stop or an outage finishes within minutes.
 */
export const REFUND_GRACE_MS = 2 * 60_000;

const sum = (values: readonly number[]) => values.reduce((total, n) => total + n, 0);

export async function emailsOf(db: Db, ids: (string | null)[]): Promise<Map<string, string>> {
  const emails = new Map<string, string>();
  for (const id of new Set(ids)) {
    if (!id) continue;
    const contact = await contactEmailOf(db, id);
    if (contact) emails.set(id, contact.email);
  }
  return emails;
}

export function toRefund(row: repo.RefundRow, emails: Map<string, string>): Refund {
  return {
    _id: row.id,
    paymentId: row.paymentId,
    enrollmentId: row.enrollmentId,
    amountCents: row.amountCents,
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    refundedBy: row.refundedBy ? (emails.get(row.refundedBy) ?? null) : null,
    gatewayRefundId: row.gatewayRefundId,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What a succeeded refund does, in its transaction: the lines become refunded (no access, the class
 * counters follow, the class can be bought again), the student's review of each such class is
 * removed with its rating, the admin's action is audited and the student hears of it through the
 * outbox.
 */
async function applyRefund(
  tx: Db,
  deps: Omit<RefundsDeps, 'refundWindowDays'>,
  input: {
    payment: checkout.PaymentRow;
    lines: enrollments.PaidLine[];
    refund: repo.RefundRow;
    actor: Actor | null;
  },
): Promise<void> {
  const { payment, refund, actor } = input;
  const flipped = await enrollments.markRefunded(
    tx,
    input.lines.map((line) => line.id),
    deps.now(),
  );
  // The teachers' shares of those lines are taken back with the refund (decision 039).
  await clawBackLines(tx, { enrollmentIds: flipped, now: deps.now(), kind: 'refund' });
  // The student's review of each refunded class goes with the payment that verified it.
  if (payment.studentId) {
    const classIds = new Set(input.lines.filter((line) => flipped.includes(line.id)).map((line) => line.classId));
    for (const classId of classIds) await reviews.removeReviewOfRefundedClass(tx, payment.studentId, classId);
  }
  if (actor) {
    await recordAudit(tx, actor, {
      action: 'payment.refund',
      targetType: 'payment',
      targetId: payment.id,
      targetLabel: payment.transactionId,
      details: {
        refundId: refund.id,
        enrollmentIds: flipped,
        amountCents: refund.amountCents,
        reason: refund.reason,
        ...(refund.requestId ? { requestId: refund.requestId } : {}),
      },
    });
  }
  // A cancelled section's mail already told the student of this refund (decision 052).
  if (refund.studentTold) return;
  await tellStudentOfRefund(tx, deps, {
    studentId: payment.studentId,
    titles: input.lines.map((line) => line.title),
    amountCents: refund.amountCents,
    currency: refund.currency,
    transactionId: payment.transactionId,
    reason: refund.reason,
  });
}

/**
 * Settles one of our pending refunds with what the gateway answered; safe to run twice and
 * concurrently (the admin's call and the webhook): only the first flips it.
 */
async function completeRefund(
  deps: Omit<RefundsDeps, 'refundWindowDays'>,
  refundId: string,
  answer: GatewayRefund,
): Promise<repo.RefundRow> {
  const freed: string[] = [];
  const settled = await deps.db.transaction(async (tx) => {
    const seen = await repo.findRefund(tx, refundId);
    if (!seen) throw notFound('Refund');
    // Lock order of every refund: the payment, then the refund and the lines.
    const payment = await checkout.findPaymentForUpdate(tx, seen.paymentId);
    if (!payment) throw notFound('Payment');
    const first = (await repo.findRefundForUpdate(tx, refundId)) ?? seen;
    // A refund the gateway accepted but has not settled yet (Stripe's `pending`, rare for cards)
    // is the decision to give the money back: the line is refunded now. Only `failed` keeps it paid.
    const status = answer.status === 'failed' ? 'failed' : 'succeeded';
    const completedAt = deps.now();
    if (!(await repo.settleRefund(tx, refundId, { status, gatewayRefundId: answer.id, completedAt }))) return first;
    const refund: repo.RefundRow = { ...first, status, gatewayRefundId: answer.id, completedAt };
    if (status === 'succeeded' && refund.enrollmentId) {
      const lines = (await enrollments.getLinesOfPayment(tx, payment.id, { lock: true })).filter(
        (line) => line.id === refund.enrollmentId,
      );
      const actor = refund.refundedBy ? await contactEmailOf(tx, refund.refundedBy) : null;
      await applyRefund(tx, deps, {
        payment,
        lines,
        refund,
        actor: actor && refund.refundedBy ? { id: refund.refundedBy, email: actor.email } : null,
      });
      freed.push(...lines.flatMap((line) => (line.sectionId ? [line.sectionId] : [])));
    }
    return refund;
  });
  // The refunded seat goes to the first person waiting, after the refund committed (decision 051).
  if (freed.length > 0) await deps.seatsFreed?.(freed);
  return settled;
}

/**
 * An admin refunds one enrollment line of a payment (`enrollmentId`) or every line still paid, with
 * a reason; each line gives back what was paid for it. A line already refunded is a 409; a line
 * whose refund is pending (a concurrent click, or a crash before the gateway answered) is resumed
 * with the same idempotency key, so the gateway refunds it once. As for an approved request
 * (decision 031), a gateway step that fails after the decision committed is `inProgress` (202):
 * the refund stays pending and the reconciler, or the admin's next click, finishes it.
 */
export async function refundPayment(
  deps: RefundsDeps,
  actor: Actor,
  paymentId: string,
  input: { enrollmentId?: string | undefined; reason: string },
): Promise<{ answer: { refunds: Refund[]; refundedCents: number }; inProgress: boolean }> {
  const plan = await planRefund(deps, actor, paymentId, input);
  let done: repo.RefundRow[];
  try {
    done = await askGateway(deps, plan.payment, plan.rows);
  } catch (error) {
    deps.log.warn({ err: error, paymentId: plan.payment.id }, 'refund not finished at the gateway: left pending');
    return { answer: await answerAfterFailure(deps.db, actor, plan.rows), inProgress: true };
  }
  return { answer: await answerOf(deps.db, done), inProgress: done.some((row) => row.status === 'pending') };
}

/**
 * The planned refunds as they are now (one may have finished before another failed); when the
 * database is what failed, as they were planned: pending, by this admin.
 */
async function answerAfterFailure(
  db: Db,
  actor: Actor,
  planned: readonly repo.RefundRow[],
): Promise<{ refunds: Refund[]; refundedCents: number }> {
  try {
    const ids = new Set(planned.map((row) => row.id));
    const now = (await repo.listRefundsOfPayments(db, [...new Set(planned.map((row) => row.paymentId))])).filter(
      (row) => ids.has(row.id),
    );
    return await answerOf(db, now);
  } catch {
    return { refunds: planned.map((row) => toRefund(row, new Map([[actor.id, actor.email]]))), refundedCents: 0 };
  }
}

export interface RefundPlan {
  payment: checkout.PaymentRow;
  /** The pending refunds to ask the gateway for: new ones and ones a cut-short call left. */
  rows: repo.RefundRow[];
}

/**
 * The decision, in one transaction: the payment locked, the lines checked, a pending refund row
 * per line written (its id the idempotency key) and, for a student's request, the request marked
 * approved with it. Nothing is asked of the gateway here.
 */
export async function planRefund(
  deps: RefundsDeps,
  actor: Actor,
  paymentId: string,
  input: { enrollmentId?: string | undefined; reason: string },
  request?: { id: string },
): Promise<RefundPlan> {
  if (!enrollments.isUuid(paymentId)) throw notFound('Payment');
  return deps.db.transaction(async (tx) => {
    const payment = await checkout.findPaymentForUpdate(tx, paymentId);
    if (!payment) throw notFound('Payment');
    if (payment.gateway !== deps.gateway.name) throw conflict(REFUND_MESSAGES.otherGateway);
    if (request) {
      const decided = await repo.decideRefundRequest(tx, request.id, {
        status: 'approved',
        decidedBy: actor.id,
        decisionReason: null,
        decidedAt: deps.now(),
      });
      if (!decided) throw conflict(REFUND_MESSAGES.requestDecided);
    }
    const lines = await enrollments.getLinesOfPayment(tx, payment.id, { lock: true });
    const known = await repo.listRefundsOfPayments(tx, [payment.id]);
    let targets: enrollments.PaidLine[];
    if (input.enrollmentId !== undefined) {
      const line = lines.find((l) => l.id === input.enrollmentId);
      if (!line) throw new AppError(ErrorCode.NOT_FOUND, REFUND_MESSAGES.notInPayment);
      if (line.status === 'refunded') throw conflict(REFUND_MESSAGES.alreadyRefunded);
      targets = [line];
    } else {
      targets = lines.filter((line) => line.status === 'paid');
      if (targets.length === 0) throw conflict(REFUND_MESSAGES.nothingToRefund);
    }
    const pending = targets.flatMap((line) =>
      known.filter((row) => row.enrollmentId === line.id && row.status === 'pending'),
    );
    // A line a coupon made free has no money to give back (decision 019): refused on its own, left
    // out of a refund of the whole payment.
    if (targets.every((line) => line.paidCents === 0)) {
      throw conflict(REFUND_MESSAGES.nothingPaid);
    }
    const fresh = targets.filter((line) => line.paidCents > 0 && !known.some((row) => row.enrollmentId === line.id));
    // Never more than was charged, whatever was refunded before (a refund made at the gateway too).
    if (sum(known.map((r) => r.amountCents)) + sum(fresh.map((l) => l.paidCents)) > payment.amountCents) {
      throw conflict(REFUND_MESSAGES.exceedsPayment);
    }
    const inserted = await repo.insertPendingRefunds(
      tx,
      fresh.map((line) => ({
        paymentId: payment.id,
        enrollmentId: line.id,
        amountCents: line.paidCents,
        currency: payment.currency,
        reason: input.reason,
        refundedBy: actor.id,
        requestId: request?.id ?? null,
        // Left to this call for a short grace, then to the reconciler (decision 031).
        nextCheckAt: new Date(deps.now().getTime() + REFUND_GRACE_MS),
      })),
    );
    // We hold the payment's lock, so nobody else can have recorded a refund of these lines.
    if (inserted.length !== fresh.length) throw conflict(REFUND_MESSAGES.inProgress);
    if (request && inserted[0]) await repo.setRequestRefund(tx, request.id, inserted[0].id);
    return { payment, rows: [...pending, ...inserted] };
  });
}

/**
 * Full refunds of some paid lines, decided inside the caller's transaction (a cancelled section,
 * decision 052): each line's payment is locked (in id order, the lock order of every refund), then
 * its lines, and a pending refund row per line still paid for money is written, its id the
 * idempotency key; a line already refunded or being refunded is left as it is. Nothing is asked of
 * the gateway: the caller does that after its commit (`askGateway`), or the reconciler does after
 * the grace (decision 031). Answers the plans, one per payment. A payment of another gateway cannot
 * be refunded by this one and is left to an operator, logged.
 */
export async function planLineRefundsIn(
  tx: Db,
  deps: Pick<RefundsDeps, 'gateway' | 'now' | 'log'>,
  lines: readonly Pick<enrollments.PaidLine, 'id' | 'paymentId'>[],
  input: { reason: string; actorId: string | null; studentTold: boolean },
): Promise<RefundPlan[]> {
  const byPayment = new Map<string, Set<string>>();
  for (const line of lines) {
    if (!line.paymentId) continue;
    const ids = byPayment.get(line.paymentId) ?? new Set<string>();
    ids.add(line.id);
    byPayment.set(line.paymentId, ids);
  }
  const plans: RefundPlan[] = [];
  for (const paymentId of [...byPayment.keys()].sort()) {
    const payment = await checkout.findPaymentForUpdate(tx, paymentId);
    if (!payment) continue;
    if (payment.gateway !== deps.gateway.name) {
      deps.log.warn({ paymentId }, 'a line to refund was paid through another gateway: left for an operator');
      continue;
    }
    const wanted = byPayment.get(paymentId)!;
    const paid = (await enrollments.getLinesOfPayment(tx, paymentId, { lock: true })).filter(
      (line) => wanted.has(line.id) && line.status === 'paid' && line.paidCents > 0,
    );
    const known = await repo.listRefundsOfPayments(tx, [paymentId]);
    const fresh = paid.filter((line) => !known.some((row) => row.enrollmentId === line.id));
    const inserted = await repo.insertPendingRefunds(
      tx,
      fresh.map((line) => ({
        paymentId,
        enrollmentId: line.id,
        amountCents: line.paidCents,
        currency: payment.currency,
        reason: input.reason,
        refundedBy: input.actorId,
        studentTold: input.studentTold,
        nextCheckAt: new Date(deps.now().getTime() + REFUND_GRACE_MS),
      })),
    );
    if (inserted.length > 0) plans.push({ payment, rows: inserted });
  }
  return plans;
}

/**
 * Asks the gateway for each pending refund, outside any transaction (DESIGN §2), with the refund's
 * own idempotency key, so asking again after a cut-short call refunds once; each answer is settled
 * at once. A failure leaves the refund pending for a retry or the reconciler.
 */
export async function askGateway(
  deps: Omit<RefundsDeps, 'refundWindowDays'>,
  payment: checkout.PaymentRow,
  rows: readonly repo.RefundRow[],
): Promise<repo.RefundRow[]> {
  const done: repo.RefundRow[] = [];
  for (const row of rows) {
    const answer = await deps.gateway.refundAmount({
      intentId: payment.transactionId,
      amountCents: row.amountCents,
      metadata: { refund_id: row.id },
      idempotencyKey: idempotencyKeyOf(row.id),
    });
    done.push(await completeRefund(deps, row.id, answer));
  }
  return done;
}

async function answerOf(db: Db, done: repo.RefundRow[]): Promise<{ refunds: Refund[]; refundedCents: number }> {
  const emails = await emailsOf(
    db,
    done.map((row) => row.refundedBy),
  );
  return {
    refunds: done.map((row) => toRefund(row, emails)),
    refundedCents: sum(done.filter((row) => row.status === 'succeeded').map((row) => row.amountCents)),
  };
}

/**
 * Stripe's charge.refunded (a refund made in Stripe's dashboard, or ours echoed back): the refunds
 * are re-read from the gateway, never taken from the event, and what is not yet recorded is
 * recorded — ours by the id in their metadata, others as refunds made at the gateway, given to the
 * line they match (one line of that price, or every line still paid). Safe to run twice.
 */
export async function recordGatewayRefunds(
  deps: Omit<RefundsDeps, 'refundWindowDays'>,
  intentId: string,
): Promise<void> {
  const payment = await checkout.findPaymentByTransactionId(deps.db, intentId);
  // A charge never recorded as a payment was refunded whole by settleCharge: nothing to record here.
  if (!payment) return;
  for (const answer of await deps.gateway.listRefunds(intentId)) {
    if (await repo.findRefundByGatewayId(deps.db, answer.id)) continue;
    const ours = answer.metadata.refund_id;
    if (ours && enrollments.isUuid(ours)) {
      await completeRefund(deps, ours, answer);
      continue;
    }
    if (answer.status === 'failed') continue;
    await deps.db.transaction(async (tx) => {
      const locked = await checkout.findPaymentForUpdate(tx, payment.id);
      if (!locked || (await repo.findRefundByGatewayId(tx, answer.id))) return;
      const lines = await enrollments.getLinesOfPayment(tx, payment.id, { lock: true });
      const known = await repo.listRefundsOfPayments(tx, [payment.id]);
      const open = lines.filter((line) => line.status === 'paid' && !known.some((r) => r.enrollmentId === line.id));
      const single = open.find((line) => line.paidCents === answer.amountCents);
      const matched = single ? [single] : sum(open.map((l) => l.paidCents)) === answer.amountCents ? open : [];
      if (matched.length === 0) {
        deps.log.warn({ intentId, refund: answer.id }, 'gateway refund matches no paid line: money recorded only');
      }
      const refund = await repo.insertGatewayRefund(tx, {
        paymentId: payment.id,
        enrollmentId: matched.length === 1 ? matched[0]!.id : null,
        amountCents: answer.amountCents,
        currency: payment.currency,
        reason: 'Refunded at the payment gateway',
        refundedBy: null,
        gatewayRefundId: answer.id,
        status: 'succeeded',
        completedAt: deps.now(),
      });
      if (refund) await applyRefund(tx, deps, { payment: locked, lines: matched, refund, actor: null });
    });
  }
}

/** The refunds (pending or done) of some payments, for the payer's history and receipts. */
export { type RefundRow, listRefundsOfPayments } from './refunds.repository.ts';
