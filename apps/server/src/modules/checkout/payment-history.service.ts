import type {
  Payment,
  PaymentHistoryEntry,
  PaymentHistoryQuery,
  PaymentHistoryRefund,
  PaymentReceipt,
} from '@skillhive/shared/contracts/payments';
import { centsToDecimal } from '@skillhive/shared/rules/money';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { type RefundRow, listRefundsOfPayments } from '../refunds/refunds.service.ts';
import { findUserIdByEmail } from '../users/contact.public.ts';
import * as checkoutRepo from './checkout.repository.ts';
import * as repo from './payment-history.repository.ts';

/** Who sells on every receipt: a receipt names its seller. */
export const SELLER_NAME = 'SkillHive';

type Row = repo.HistoryPaymentRow;

/**
 * Builds the answers of GET /api/payments/me from the payment rows, their lines (enrollments
 * module) and their refunds: three queries per page whatever its length.
 */
async function toEntries(db: Db, rows: Row[]): Promise<PaymentHistoryEntry[]> {
  const ids = rows.map((row) => row.id);
  const [lines, refunds] = await Promise.all([enrollments.getLinesOfPayments(db, ids), listRefundsOfPayments(db, ids)]);
  return rows.map((row) => {
    const own = refunds.filter((refund) => refund.paymentId === row.id);
    return {
      _id: row.id,
      transactionId: row.transactionId,
      paidAt: row.data.toISOString(),
      status: row.status,
      currency: row.currency,
      totalCents: row.amountCents,
      refundedCents: own.reduce((sum, refund) => sum + (refund.status === 'succeeded' ? refund.amountCents : 0), 0),
      // The card as the gateway reported it; null when it did not (a Stripe charge not expanded).
      method: { gateway: row.gateway === 'stripe' ? 'stripe' : 'test', brand: row.cardBrand, last4: row.cardLast4 },
      coupon: row.couponCode ? { code: row.couponCode, discountCents: row.discountCents } : null,
      lines: lines
        .filter((line) => line.paymentId === row.id)
        .map((line) => ({
          _id: line.id,
          classId: line.classId,
          title: line.title,
          amountCents: line.paidCents,
          listCents: line.priceCents,
          status: line.status,
        })),
      refunds: own.map(toRefund),
    };
  });
}

function toRefund(refund: RefundRow): PaymentHistoryRefund {
  return {
    _id: refund.id,
    enrollmentId: refund.enrollmentId,
    amountCents: refund.amountCents,
    reason: refund.reason,
    status: refund.status === 'succeeded' ? 'succeeded' : 'pending',
    createdAt: refund.createdAt.toISOString(),
    completedAt: refund.completedAt ? refund.completedAt.toISOString() : null,
  };
}

/** The caller's own payments, newest first; an admin gets their own too, never anyone else's. */
export async function listMyPayments(
  db: Db,
  viewer: Viewer,
  query: PaymentHistoryQuery,
): Promise<{ items: PaymentHistoryEntry[]; total: number }> {
  const { rows, total } = await repo.listPaymentsOfStudent(db, {
    studentId: viewer.id,
    ...limitOffsetOf(query),
  });
  return { items: await toEntries(db, rows), total };
}

/**
 * One of the caller's payments as a receipt. Another person's payment is a 404 like a missing
 * one, so an id does not tell whether it exists (DESIGN §3); a non-uuid is never queried.
 */
export async function getMyReceipt(db: Db, viewer: Viewer, id: string): Promise<PaymentReceipt> {
  const row = enrollments.isUuid(id) ? await repo.findPaymentOfStudent(db, { studentId: viewer.id, id }) : null;
  if (!row) throw notFound('Payment');
  const [entry] = await toEntries(db, [row]);
  return {
    ...entry!,
    seller: { name: SELLER_NAME },
    // The address the payment was made with; the name as the account has it now.
    buyer: { name: viewer.name, email: row.email },
  };
}

/** GET /api/payments/:email: newest first, each with the classes it paid for. */
export async function listPaymentsOf(
  db: Db,
  email: string,
  query: { page: number; limit: number },
): Promise<{ items: Payment[]; total: number }> {
  const studentId = await findUserIdByEmail(db, email);
  if (!studentId) throw notFound('User');
  const { rows, total } = await checkoutRepo.listPaymentsOfStudent(db, {
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

/**
 * Before an account is deleted (DESIGN §4): its payments are financial records and stay,
 * with the e-mail replaced by `pseudonym`; the foreign key cuts student_id when the user row goes.
 */
export function pseudonymisePaymentsOf(db: Db, studentId: string, pseudonym: string): Promise<void> {
  return checkoutRepo.pseudonymisePaymentsOf(db, studentId, pseudonym);
}
