import type { RefundRequest } from '@skillhive/shared/contracts/refunds';
import type { RefundRequestStatus } from '@skillhive/shared/rules/constants';
import { REFUND_MESSAGES, isWithinRefundWindow } from '@skillhive/shared/rules/refunds';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { recordAudit } from '../audit/audit.service.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import * as checkout from '../checkout/payments.public.ts';
import * as repo from './refunds.repository.ts';
import { type RefundsDeps, askGateway, planRefund } from './refunds.service.ts';

type Actor = Pick<Viewer, 'id' | 'email'>;

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
  if (!line || line.studentId !== viewer.id) throw notFound('Enrollment');
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

async function findRequest(db: Db, id: string): Promise<repo.RefundRequestRow> {
  if (!enrollments.isUuid(id)) throw notFound('Refund request');
  const row = await repo.findRefundRequest(db, id);
  if (!row) throw notFound('Refund request');
  return row;
}

async function pendingRequest(db: Db, id: string): Promise<repo.RefundRequestRow> {
  const row = await findRequest(db, id);
  if (row.status !== 'pending') throw conflict(REFUND_MESSAGES.requestDecided);
  return row;
}

/**
 * Approving refunds the line: the decision and the pending refund commit together (planRefund),
 * then the gateway is asked. Refunds always finish (decision 031): when the gateway step fails
 * after the decision committed, the answer is `inProgress` (202) and the refund stays pending for
 * the reconciler; approving a request whose refund is pending again resumes that refund, with its
 * idempotency key, instead of refusing. Only a request whose refund is done (or declined) is a 409.
 */
export async function approveRefundRequest(
  deps: RefundsDeps,
  actor: Actor,
  id: string,
): Promise<{ request: RefundRequest; inProgress: boolean }> {
  const row = await findRequest(deps.db, id);
  let plan: { payment: checkout.PaymentRow; rows: repo.RefundRow[] };
  if (row.status === 'pending') {
    plan = await planRefund(
      deps,
      actor,
      row.paymentId,
      { enrollmentId: row.enrollmentId, reason: `Requested by the student: ${row.reason}` },
      { id: row.id },
    );
  } else {
    const pending =
      row.status === 'approved'
        ? (await repo.listRefundsOfPayments(deps.db, [row.paymentId])).filter(
            (refund) => refund.enrollmentId === row.enrollmentId && refund.status === 'pending',
          )
        : [];
    const payment = pending.length > 0 ? await checkout.findPaymentById(deps.db, row.paymentId) : null;
    if (!payment) throw conflict(REFUND_MESSAGES.requestDecided);
    plan = { payment, rows: pending };
  }
  let inProgress: boolean;
  try {
    const done = await askGateway(deps, plan.payment, plan.rows);
    inProgress = done.some((refund) => refund.status === 'pending');
  } catch (error) {
    // The decision is committed: the refund finishes later (a retry of this call, or the reconciler).
    deps.log.warn({ err: error, requestId: id }, 'approved refund not finished at the gateway: left pending');
    inProgress = true;
  }
  const after = await repo.findRefundRequest(deps.db, id);
  return { request: (await withLines(deps.db, after ? [after] : [row]))[0]!, inProgress };
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
