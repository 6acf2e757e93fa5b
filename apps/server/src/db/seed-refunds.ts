/*
 * The demo's refunds (DESIGN §4, decision 031): one student's three paid lines carry a refund
 * request in each state — pending (the admin's queue), declined with a reason, and approved with
 * its refund done — written as the refunds module leaves them. Above the modules, like the seed
 * (decision 015).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from './client.ts';
import { schema } from './client.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RefundedLines {
  /** The line refunded (its enrollment is inserted `refunded`, at `refundedAt`). */
  approved: { id: string; paidCents: number; refundedAt: Date };
  pending: { id: string };
  declined: { id: string };
}

/** When the approved line of a payment made at `paidAt` was refunded: what its enrollment row records. */
export function refundedAtOf(paidAt: Date): Date {
  return new Date(paidAt.getTime() + 4 * DAY_MS);
}

/** The requests and the refund, after the payment and its enrollments (refunds point at them). */
export async function insertRefunds(
  tx: Db,
  input: {
    payment: { id: string; studentId: string; paidAt: Date };
    admin: { id: string };
    lines: RefundedLines;
  },
): Promise<void> {
  const { payment, admin, lines } = input;
  const at = (days: number) => new Date(payment.paidAt.getTime() + days * DAY_MS);
  const refundId = randomUUID();
  const approvedRequestId = randomUUID();
  await tx.insert(schema.refundRequests).values([
    {
      id: approvedRequestId,
      enrollmentId: lines.approved.id,
      paymentId: payment.id,
      studentId: payment.studentId,
      reason: 'I bought this class twice by mistake with another account.',
      status: 'approved',
      decidedBy: admin.id,
      decidedAt: lines.approved.refundedAt,
      refundId,
      createdAt: at(3),
    },
    {
      enrollmentId: lines.declined.id,
      paymentId: payment.id,
      studentId: payment.studentId,
      reason: 'The sessions are later in the evening than I hoped.',
      status: 'declined',
      decidedBy: admin.id,
      decisionReason: 'The session times were on the class page before you paid; the recordings stay available.',
      decidedAt: at(6),
      createdAt: at(5),
    },
    {
      enrollmentId: lines.pending.id,
      paymentId: payment.id,
      studentId: payment.studentId,
      reason: 'A work trip clashes with the next three sessions.',
      status: 'pending',
      createdAt: at(7),
    },
  ]);
  await tx.insert(schema.refunds).values({
    id: refundId,
    paymentId: payment.id,
    enrollmentId: lines.approved.id,
    amountCents: lines.approved.paidCents,
    currency: 'usd',
    reason: 'Requested by the student: I bought this class twice by mistake with another account.',
    refundedBy: admin.id,
    requestId: approvedRequestId,
    gatewayRefundId: `re_seed_${payment.id.slice(0, 8)}`,
    status: 'succeeded',
    createdAt: lines.approved.refundedAt,
    completedAt: lines.approved.refundedAt,
    nextCheckAt: lines.approved.refundedAt,
  });
}
