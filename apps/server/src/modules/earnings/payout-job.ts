import { recordSalesBeforeLedger } from './ledger-backfill.ts';
import { type LedgerSettings, releaseDue } from './ledger.ts';
import { type PayoutDeps, type PayoutRunReport, runScheduledPayouts, settleInFlight } from './payouts.ts';

/**
 * The money-out job (decisions 039, 040), every PAYOUT_JOB_INTERVAL_SECONDS on every instance:
 * first (once per process, until a pass gets through) records the sales made before the ledger
 * existed (decision 039 §10), then releases shares whose refund window closed or whose session was held (pending → available),
 * settles payouts left in flight by a crash, and runs the period's scheduled payouts once across
 * instances. Each step is safe to run concurrently and to kill at any point.
 */
export interface PayoutJobReport {
  /** Lines of sales from before the ledger recorded in this pass (decision 039 §10). */
  recorded: number;
  released: number;
  settled: number;
  failed: number;
  run: PayoutRunReport | null;
}

export interface PayoutJob {
  runOnce(): Promise<PayoutJobReport>;
  start(): void;
  stop(): Promise<void>;
}

export function createPayoutJob(
  deps: PayoutDeps & { schedule: 'daily' | 'weekly'; intervalSeconds: number; ledger: LedgerSettings },
): PayoutJob {
  let timer: NodeJS.Timeout | null = null;
  // Every sale since the ledger is recorded with its payment, so once a walk of the payments got
  // through, none can be missing any more: later passes of this process skip it.
  let isLedgerComplete = false;
  let running: Promise<PayoutJobReport> | null = null;

  async function pass(): Promise<PayoutJobReport> {
    let recorded = 0;
    if (!isLedgerComplete) {
      recorded = await recordSalesBeforeLedger(deps.db, deps.ledger);
      isLedgerComplete = true;
      if (recorded > 0) deps.log.info({ recorded }, 'sales from before the ledger recorded');
    }
    const released = await releaseDue(deps.db, deps.now());
    const { settled, failed } = await settleInFlight(deps);
    const run = await runScheduledPayouts(deps, deps.schedule);
    if (recorded + released + settled + failed > 0 || run) {
      deps.log.info({ recorded, released, settled, failed, run }, 'money-out pass');
    }
    return { recorded, released, settled, failed, run };
  }

  function runOnce(): Promise<PayoutJobReport> {
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
        if (running) return;
        runOnce().catch((error: unknown) => deps.log.error({ err: error }, 'money-out pass failed'));
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
