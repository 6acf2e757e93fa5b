import { forEachClaimed } from '../../lib/claimed-batches.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { finishPendingRefunds } from '../refunds/refund-reconciler.service.ts';
import * as repo from './checkout.repository.ts';
import type { PaymentsDeps } from './fulfilment.service.ts';
import * as payments from './fulfilment.service.ts';

/**
 * The reconciler (decision 010): money the gateway took must end as a payment or a refund even
 * when nobody comes back for it — a crash between a charge and its recording, a lost webhook, a
 * closed tab. The gateway's record is the truth: every intent we created is re-read from the
 * gateway until it is settled, cancelled or refunded.
 *
 * Several instances may run it at once: each run claims a batch of due intents with FOR UPDATE
 * SKIP LOCKED plus a short lease, so no two instances work on the same intent, and a crashed
 * instance's claim lapses. Every step it takes (settleCharge) is safe to repeat. Each pass then
 * finishes the admins' refunds left pending by a cut-short call (decision 031).
 */
export interface ReconcileReport {
  checked: number;
  paid: number;
  refunded: number;
  canceled: number;
  failed: number;
  /** Pending refunds cut short and finished by this pass, and those that failed again (decision 031). */
  refundsFinished: number;
  refundsFailed: number;
}

export interface Reconciler {
  /** One pass over every due intent, batch after batch; what it did. */
  runOnce(): Promise<ReconcileReport>;
  /** Runs a pass every `intervalSeconds` (none when 0) until stop(). */
  start(): void;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

const BATCH = 50;
/** A claim lapses after this long, so an instance killed mid-pass does not hold intents forever. */
const LEASE_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 6 * 3_600_000;

/**
 * When to look again at an intent that is still waiting for its card: soon while it is young,
 * then as rarely as its age (at most every 6 hours), so abandoned carts cost few gateway calls.
 */
export function nextCheckDelayMs(createdAt: Date, now: Date, intervalSeconds: number): number {
  const age = now.getTime() - createdAt.getTime();
  return Math.min(Math.max(age, intervalSeconds * 1000, 1000), MAX_BACKOFF_MS);
}

export function createReconciler(deps: PaymentsDeps & { intervalSeconds: number }): Reconciler {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<ReconcileReport> | null = null;

  async function reconcileOne(row: repo.IntentRow, report: ReconcileReport): Promise<void> {
    const now = deps.now();
    if (row.status === 'refund_pending') {
      const result = await payments.refundCharge(deps, row.id, 'refund retried by the reconciler');
      if (result.outcome === 'refunded') report.refunded += 1;
      return;
    }
    const intent = await deps.gateway.retrieveIntent(row.id);
    if (!intent || intent.status === 'canceled') {
      // Canceled at the gateway (a checkout cut short between its cancel and recording it, or the
      // dashboard): closed here with its lines freed, as checkout closes one, in one transaction;
      // a line left reserved by a closed intent could never be paid for again.
      const canceled = await deps.db.transaction(async (tx) => {
        if (!(await repo.setIntentStatus(tx, row.id, ['open'], 'canceled', { now }))) return false;
        await enrollments.releaseLines(tx, row.id);
        return true;
      });
      if (canceled) report.canceled += 1;
      return;
    }
    if (intent.status === 'succeeded') {
      const settled = await payments.settleCharge(deps, intent);
      if (settled.outcome === 'paid') report.paid += 1;
      if (settled.outcome === 'refunded') report.refunded += 1;
      if (settled.outcome !== 'ignored') return;
    }
    await repo.deferIntent(
      deps.db,
      row.id,
      new Date(now.getTime() + nextCheckDelayMs(row.createdAt, now, deps.intervalSeconds)),
    );
  }

  async function pass(): Promise<ReconcileReport> {
    const report: ReconcileReport = {
      checked: 0,
      paid: 0,
      refunded: 0,
      canceled: 0,
      failed: 0,
      refundsFinished: 0,
      refundsFailed: 0,
    };
    await forEachClaimed(
      (limit) => {
        const now = deps.now();
        return repo.claimDueIntents(deps.db, { now, leaseUntil: new Date(now.getTime() + LEASE_MS), limit });
      },
      async (row) => {
        report.checked += 1;
        try {
          await reconcileOne(row, report);
        } catch (error) {
          report.failed += 1;
          deps.log.error({ err: error, transactionId: row.id }, 'reconciler could not settle an intent');
          // Try it again next pass rather than at once.
          await repo
            .deferIntent(deps.db, row.id, new Date(deps.now().getTime() + deps.intervalSeconds * 1000))
            .catch(() => undefined);
        }
      },
      BATCH,
    );
    const refunds = await finishPendingRefunds(deps);
    report.refundsFinished = refunds.finished;
    report.refundsFailed = refunds.failed;
    if (report.paid + report.refunded + report.failed + refunds.finished + refunds.failed > 0)
      deps.log.info(report, 'reconciler pass');
    return report;
  }

  function runOnce(): Promise<ReconcileReport> {
    // One pass at a time in this process; a second caller waits for it and then runs its own.
    const previous = running ?? Promise.resolve(null);
    const next = previous.catch(() => null).then(pass);
    running = next;
    void next
      .finally(() => {
        if (running === next) running = null;
      })
      .catch(() => undefined);
    return next;
  }

  return {
    runOnce,
    start() {
      if (deps.intervalSeconds <= 0 || timer) return;
      timer = setInterval(() => {
        if (running) return; // the previous pass is still going
        runOnce().catch((error: unknown) => deps.log.error({ err: error }, 'reconciler pass failed'));
      }, deps.intervalSeconds * 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
