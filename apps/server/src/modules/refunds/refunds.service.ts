import type { FastifyBaseLogger } from 'fastify';
import type { AdminPayment, Refund, RefundRequest } from '@skillhive/shared/contracts/refunds';
import type { RefundRequestStatus } from '@skillhive/shared/rules/constants';
import { REFUND_MESSAGES, isWithinRefundWindow } from '@skillhive/shared/rules/refunds';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { recordAudit } from '../audit/audit.service.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { queueMail, refundMail } from '../mail/mail.service.ts';
import * as reviews from '../reviews/reviews.service.ts';
import { contactEmailOf } from '../users/contact.ts';
import * as checkout from '../checkout/payments.public.ts';
import type { GatewayRefund, PaymentGateway } from '../gateways/gateway.public.ts';
import * as repo from './refunds.repository.ts';

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
  /** REFUND_WINDOW_DAYS: how long after paying a student may request a refund. */
  refundWindowDays: number;
}

type Actor = Pick<Viewer, 'id' | 'email'>;

const idempotencyKeyOf = (refundId: string) => `skillhive-refund-${refundId}`;

const sum = (values: readonly number[]) => values.reduce((total, n) => total + n, 0);

async function emailsOf(db: Db, ids: (string | null)[]): Promise<Map<string, string>> {
  const emails = new Map<string, string>();
  for (const id of new Set(ids)) {
    if (!id) continue;
    const contact = await contactEmailOf(db, id);
    if (contact) emails.set(id, contact.email);
  }
  return emails;
}

function toRefund(row: repo.RefundRow, emails: Map<string, string>): Refund {
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
  await queueRefundMail(tx, deps.publicUrl, {
    studentId: payment.studentId,
    titles: input.lines.map((line) => line.title),
    amountCents: refund.amountCents,
    currency: refund.currency,
    transactionId: payment.transactionId,
    reason: refund.reason,
  });
}

/**
 * Tells the student of a refund through the outbox, in the transaction that decides it: an admin's
 * refund (with its reason) or a purchase we could not complete (checkout fulfilment.service.ts). Nothing is
 * sent for a payment whose student deleted their account.
 */
export async function queueRefundMail(
  tx: Db,
  publicUrl: string,
  refund: Omit<Parameters<typeof refundMail>[0], 'publicUrl' | 'name'> & { studentId: string | null },
): Promise<void> {
  const { studentId, ...mail } = refund;
  const student = studentId ? await contactEmailOf(tx, studentId) : null;
  if (student) await queueMail(tx, student.email, refundMail({ ...mail, publicUrl, name: student.name }));
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
  return deps.db.transaction(async (tx) => {
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
    }
    return refund;
  });
}

/**
 * An admin refunds one enrolment line of a payment (`enrollmentId`) or every line still paid, with
 * a reason; each line gives back what was paid for it. A line already refunded is a 409; a line
 * whose refund is pending (a concurrent click, or a crash before the gateway answered) is resumed
 * with the same idempotency key, so the gateway refunds it once.
 */
export async function refundPayment(
  deps: RefundsDeps,
  actor: Actor,
  paymentId: string,
  input: { enrollmentId?: string | undefined; reason: string },
  request?: { id: string },
): Promise<{ refunds: Refund[]; refundedCents: number }> {
  if (!enrollments.isUuid(paymentId)) throw notFound('Payment');
  const plan = await deps.db.transaction(async (tx) => {
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
      })),
    );
    // We hold the payment's lock, so nobody else can have recorded a refund of these lines.
    if (inserted.length !== fresh.length) throw conflict(REFUND_MESSAGES.inProgress);
    if (request && inserted[0]) await repo.setRequestRefund(tx, request.id, inserted[0].id);
    return { payment, rows: [...pending, ...inserted] };
  });

  // Outside any transaction (DESIGN §2): a failure leaves the refund pending; a retry resumes it.
  const done: repo.RefundRow[] = [];
  for (const row of plan.rows) {
    const answer = await deps.gateway.refundAmount({
      intentId: plan.payment.transactionId,
      amountCents: row.amountCents,
      metadata: { refund_id: row.id },
      idempotencyKey: idempotencyKeyOf(row.id),
    });
    done.push(await completeRefund(deps, row.id, answer));
  }
  const emails = await emailsOf(
    deps.db,
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

// ---- A student's request, an admin's decision --------------------------------------------------

function toRequest(row: repo.RefundRequestRow, line: enrollments.PaidLine | undefined): RefundRequest {
  return {
    _id: row.id,
    enrollmentId: row.enrollmentId,
    paymentId: row.paymentId,
    studentEmail: line?.studentEmail ?? '',
    title: line?.title ?? '',
    priceCents: line?.paidCents ?? 0,
    reason: row.reason,
    status: row.status,
    decisionReason: row.decisionReason,
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
    paidAt: line?.paidAt ? line.paidAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A student asks for the refund of one of their paid lines, within the window, once per line. */
export async function requestRefund(
  deps: RefundsDeps,
  viewer: Viewer,
  body: { enrollmentId: string; reason: string },
): Promise<RefundRequest> {
  const [line] = await enrollments.getLinesByIds(deps.db, [body.enrollmentId]);
  if (!line || line.studentId !== viewer.id) throw notFound('Enrolment');
  if (line.status === 'refunded') throw conflict(REFUND_MESSAGES.alreadyRefunded);
  if (line.status !== 'paid' || !line.paymentId || !line.paidAt) throw conflict(REFUND_MESSAGES.notPaid);
  if (!isWithinRefundWindow(line.paidAt, deps.now(), deps.refundWindowDays)) {
    throw conflict(REFUND_MESSAGES.outsideWindow);
  }
  const row = await repo.insertRefundRequest(deps.db, {
    enrollmentId: line.id,
    paymentId: line.paymentId,
    studentId: viewer.id,
    reason: body.reason,
  });
  if (!row) throw conflict(REFUND_MESSAGES.alreadyRequested);
  return toRequest(row, line);
}

async function withLines(db: Db, rows: repo.RefundRequestRow[]): Promise<RefundRequest[]> {
  const lines = await enrollments.getLinesByIds(
    db,
    rows.map((row) => row.enrollmentId),
  );
  return rows.map((row) =>
    toRequest(
      row,
      lines.find((line) => line.id === row.enrollmentId),
    ),
  );
}

export async function listRefundRequests(
  db: Db,
  query: { status?: RefundRequestStatus | undefined; page: number; limit: number },
): Promise<{ items: RefundRequest[]; total: number }> {
  const { rows, total } = await repo.listRefundRequests(db, {
    status: query.status,
    ...limitOffsetOf(query),
  });
  return { items: await withLines(db, rows), total };
}

/** The caller's own requests (a student has at most one per paid line) and the window. */
export async function listMyRefundRequests(
  deps: RefundsDeps,
  viewer: Viewer,
): Promise<{ windowDays: number; requests: RefundRequest[] }> {
  const { rows } = await repo.listRefundRequests(deps.db, { studentId: viewer.id, limit: 1000, offset: 0 });
  return { windowDays: deps.refundWindowDays, requests: await withLines(deps.db, rows) };
}

async function pendingRequest(db: Db, id: string): Promise<repo.RefundRequestRow> {
  if (!enrollments.isUuid(id)) throw notFound('Refund request');
  const row = await repo.findRefundRequest(db, id);
  if (!row) throw notFound('Refund request');
  if (row.status !== 'pending') throw conflict(REFUND_MESSAGES.requestDecided);
  return row;
}

/** Approving refunds the line (refundPayment); the request and the refund commit together. */
export async function approveRefundRequest(deps: RefundsDeps, actor: Actor, id: string): Promise<RefundRequest> {
  const row = await pendingRequest(deps.db, id);
  await refundPayment(
    deps,
    actor,
    row.paymentId,
    { enrollmentId: row.enrollmentId, reason: `Requested by the student: ${row.reason}` },
    { id: row.id },
  );
  const after = await repo.findRefundRequest(deps.db, id);
  return (await withLines(deps.db, after ? [after] : [row]))[0]!;
}

export async function declineRefundRequest(
  deps: RefundsDeps,
  actor: Actor,
  id: string,
  reason: string,
): Promise<RefundRequest> {
  await pendingRequest(deps.db, id);
  const decided = await deps.db.transaction(async (tx) => {
    const row = await repo.decideRefundRequest(tx, id, {
      status: 'declined',
      decidedBy: actor.id,
      decisionReason: reason,
      decidedAt: deps.now(),
    });
    if (!row) throw conflict(REFUND_MESSAGES.requestDecided);
    await recordAudit(tx, actor, {
      action: 'refund_request.decline',
      targetType: 'refund_request',
      targetId: id,
      details: { enrollmentId: row.enrollmentId, paymentId: row.paymentId, reason },
    });
    return row;
  });
  return (await withLines(deps.db, [decided]))[0]!;
}

// ---- The admin's search -------------------------------------------------------------------------

/** Payments found by a student's e-mail or a transaction id, with their lines and refunds. */
export async function searchPayments(
  db: Db,
  query: { q: string; page: number; limit: number },
): Promise<{ items: AdminPayment[]; total: number }> {
  const { rows, total } = await checkout.searchPayments(db, {
    q: query.q,
    ...limitOffsetOf(query),
  });
  const ids = rows.map((row) => row.id);
  const [lines, refunds] = await Promise.all([
    enrollments.getLinesOfPayments(db, ids),
    repo.listRefundsOfPayments(db, ids),
  ]);
  const emails = await emailsOf(
    db,
    refunds.map((row) => row.refundedBy),
  );
  const items = rows.map((row) => {
    const own = refunds.filter((refund) => refund.paymentId === row.id);
    return {
      _id: row.id,
      email: row.email,
      transactionId: row.transactionId,
      gateway: row.gateway,
      amountCents: row.amountCents,
      refundedCents: sum(own.filter((r) => r.status === 'succeeded').map((r) => r.amountCents)),
      currency: row.currency,
      paidAt: row.data.toISOString(),
      lines: lines
        .filter((line) => line.paymentId === row.id)
        .map((line) => ({ _id: line.id, title: line.title, priceCents: line.paidCents, status: line.status })),
      refunds: own.map((refund) => toRefund(refund, emails)),
    };
  });
  return { items, total };
}

/** The refunds (pending or done) of some payments, for the payer's history and receipts. */
export { type RefundRow, listRefundsOfPayments } from './refunds.repository.ts';
