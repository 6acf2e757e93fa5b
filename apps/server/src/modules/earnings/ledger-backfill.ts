import type { Db } from '../../db/client.ts';
import { lockPayments } from '../checkout/payments.public.ts';
import { couponOwnerOf } from '../coupons/coupons.service.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import * as repo from './earnings.repository.ts';
import { type LedgerSettings, recordSale } from './ledger.ts';
import { contactEmailOf } from '../users/contact.public.ts';

/**
 * Sales made before the ledger existed (decision 039 §10): a deployment upgraded from before
 * migration 0016 has paid lines without an earning line, which balances, statements, the homes'
 * figures and payouts would all miss. This records each such line through `recordSale` itself —
 * the same split, rounding and coupon rule as a live sale, dated by its payment — so the money-out
 * job then releases its share like any other. Lines refunded before the ledger are no sale any
 * more: they take their part in the cart's rounding and are not recorded.
 *
 * Payments are walked by id, `batchSize` at a time; each batch that has work is one transaction
 * that locks its payments as a refund does, so a refund of one of them waits or went first, and
 * a second instance doing the same waits, then finds the lines recorded (the earning line's
 * unique enrollment, and recordSale's insert skips a line recorded already). Answers how many
 * lines it recorded.
 */
export async function recordSalesBeforeLedger(db: Db, settings: LedgerSettings, batchSize = 500): Promise<number> {
  let recorded = 0;
  let after: string | null = null;
  for (;;) {
    const paymentIds = await enrollments.listPaymentsWithPaidLines(db, { after, limit: batchSize });
    if (paymentIds.length === 0) return recorded;
    after = paymentIds[paymentIds.length - 1]!;
    // Read without locks first: on a database that has them all (every pass after the first
    // batch of an upgrade, and a fresh install), nothing is locked at all.
    const missing = await paymentsMissingLines(db, paymentIds);
    if (missing.length > 0) recorded += await db.transaction((tx) => recordPayments(tx, settings, missing));
    if (paymentIds.length < batchSize) return recorded;
  }
}

/** Those of the payments with a paid line that has no earning line. */
async function paymentsMissingLines(db: Db, paymentIds: string[]): Promise<string[]> {
  const lines = (await enrollments.listSaleLinesOfPayments(db, paymentIds)).filter((l) => l.status === 'paid');
  const known = await repo.listRecordedEnrollmentIds(
    db,
    lines.map((l) => l.id),
  );
  const missing = new Set(lines.filter((l) => !known.has(l.id)).map((l) => l.paymentId!));
  return [...missing].sort();
}

async function recordPayments(tx: Db, settings: LedgerSettings, paymentIds: string[]): Promise<number> {
  const payments = await lockPayments(tx, paymentIds);
  // Read again under the locks: a refund or another instance may have come first.
  const lines = await enrollments.listSaleLinesOfPayments(tx, paymentIds);
  const known = await repo.listRecordedEnrollmentIds(
    tx,
    lines.map((l) => l.id),
  );
  let recorded = 0;
  for (const payment of payments) {
    if (payment.status !== 'succeeded') continue;
    const cart = lines.filter((l) => l.paymentId === payment.id);
    const count = cart.filter((l) => l.status === 'paid' && !known.has(l.id)).length;
    if (count === 0) continue;
    const coupon = payment.couponId ? await couponOwnerOf(tx, payment.couponId) : null;
    await recordSale(tx, settings, {
      paymentId: payment.id,
      transactionId: payment.transactionId,
      studentName: payment.studentId ? ((await contactEmailOf(tx, payment.studentId))?.name ?? null) : null,
      currency: payment.currency,
      paidAt: payment.data,
      coupon,
      // The whole cart, in the fulfilment's order, so the rounding is the one it would have made.
      lines: cart.map((line) => ({
        id: line.id,
        classId: line.classId,
        teacherId: line.teacherId,
        listCents: line.priceCents,
        discountCents: line.priceCents - line.paidCents,
        paidCents: line.paidCents,
        title: line.title,
        sectionId: line.sectionId,
        refundedBeforeLedger: line.status !== 'paid',
      })),
    });
    recorded += count;
  }
  return recorded;
}
