import type { AdminPayment, PendingRefund } from '@skillhive/shared/contracts/refunds';
import type { Db } from '../../db/client.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import * as checkout from '../checkout/payments.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import * as repo from './refunds.repository.ts';
import { emailsOf, toRefund } from './refunds.service.ts';

/** What the admin's Refunds page reads: payments to refund, and refunds still in progress. */

const sum = (values: readonly number[]) => values.reduce((total, n) => total + n, 0);

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

/**
 * Refunds decided and not yet finished at the gateway (decision 031), for the admin: each with its
 * payment, its class and when the reconciler asks the gateway again.
 */
export async function listPendingRefunds(
  db: Db,
  query: { page: number; limit: number },
): Promise<{ items: PendingRefund[]; total: number }> {
  const { rows, total } = await repo.listPendingRefunds(db, limitOffsetOf(query));
  const paymentIds = [...new Set(rows.map((row) => row.paymentId))];
  const payments = new Map<string, checkout.PaymentRow>();
  for (const id of paymentIds) {
    const payment = await checkout.findPaymentById(db, id);
    if (payment) payments.set(id, payment);
  }
  const lines = await enrollments.getLinesOfPayments(db, paymentIds);
  const emails = await emailsOf(
    db,
    rows.map((row) => row.refundedBy),
  );
  const items = rows.map((row) => {
    const payment = payments.get(row.paymentId);
    return {
      ...toRefund(row, emails),
      transactionId: payment?.transactionId ?? '',
      email: payment?.email ?? '',
      title: lines.find((line) => line.id === row.enrollmentId)?.title ?? null,
      nextCheckAt: row.nextCheckAt.toISOString(),
    };
  });
  return { items, total };
}
