import { forEachClaimed } from '../../lib/claimed-batches.ts';
import * as checkout from '../checkout/payments.public.ts';
import * as repo from './refunds.repository.ts';
import { type RefundsDeps, askGateway } from './refunds.service.ts';

/**
 * Refunds always finish (decision 031). A refund is decided in one transaction (a pending row,
 * its id the idempotency key) and asked of the gateway after the commit; a crash, a stop past the
 * shutdown timeout, a lost database connection or a gateway error in between leaves it pending.
 * The reconciler claims pending refunds older than the grace (`next_check_at`) with FOR UPDATE
 * SKIP LOCKED and a lease, as it does intents, and asks the gateway again with the same key: the
 * gateway refunds once, and the answer settles the row, the line and the books together.
 */
export interface RefundReconcileReport {
  checked: number;
  finished: number;
  failed: number;
}

const BATCH = 50;
/** A claim lapses after this long, so an instance killed mid-pass does not hold refunds forever. */
const LEASE_MS = 5 * 60_000;
/** After a failed attempt, how long before the next one (the gateway may be down for a while). */
const RETRY_MS = 60_000;

export async function finishPendingRefunds(
  deps: Omit<RefundsDeps, 'refundWindowDays'>,
): Promise<RefundReconcileReport> {
  const report: RefundReconcileReport = { checked: 0, finished: 0, failed: 0 };
  await forEachClaimed(
    (limit) => {
      const now = deps.now();
      return repo.claimDueRefunds(deps.db, { now, leaseUntil: new Date(now.getTime() + LEASE_MS), limit });
    },
    async (row) => {
      report.checked += 1;
      try {
        const payment = await checkout.findPaymentById(deps.db, row.paymentId);
        // A payment taken by another gateway cannot be refunded by this one: left for an operator.
        if (!payment || payment.gateway !== deps.gateway.name) {
          throw new Error(`refund ${row.id} belongs to gateway ${payment?.gateway ?? 'unknown'}`);
        }
        const [done] = await askGateway(deps, payment, [row]);
        if (done && done.status !== 'pending') report.finished += 1;
      } catch (error) {
        report.failed += 1;
        deps.log.error({ err: error, refundId: row.id }, 'reconciler could not finish a refund');
        await repo.deferRefund(deps.db, row.id, new Date(deps.now().getTime() + RETRY_MS)).catch(() => undefined);
      }
    },
    BATCH,
  );
  return report;
}
