import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { forEachClaimed } from '../../lib/claimed-batches.ts';
import { type PaymentGateway, TransferRefusedError } from '../gateways/gateway.public.ts';
import * as repo from './earnings.repository.ts';
import * as payoutRepo from './payouts.repository.ts';

/**
 * Payouts (decision 040). A payout is decided in one transaction under the teacher's balance lock
 * — the row `in_flight` (or `manual`), its items, the parts it takes and the movement available →
 * paid — and committed BEFORE the gateway is asked. Its transfers then carry keys derived from
 * the item ids, and the gateway is first asked whether it made them already, so a crash at any
 * point and any number of retries never transfer twice; the reconciler settles in-flight ones.
 */

export interface PayoutDeps {
  db: Db;
  gateway: PaymentGateway;
  now: () => Date;
  log: FastifyBaseLogger;
  minimumCents: number;
}

/** A claim on an in-flight payout lapses after this long (a killed instance's work is taken over). */
const LEASE_MS = 5 * 60_000;
/** A payout is left to the call that made it this long before the reconciler may take it over. */
const GRACE_MS = 2 * 60_000;
const RETRY_MS = 60_000;

export type PayoutOutcome = 'paid' | 'manual' | 'failed' | 'in_flight' | 'skipped';

/** Decides a payout of the teacher's available balance; null when there is nothing to pay (or another instance has the teacher). */
export async function decidePayout(
  deps: Pick<PayoutDeps, 'db' | 'now'> & {
    /** The gateway that takes payouts now; null pays every teacher manually (the demo data). */
    gatewayName: string | null;
  },
  teacherId: string,
  options: { minimumCents: number; skipLocked: boolean },
): Promise<payoutRepo.PayoutRow | null> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const balance = await repo.lockBalance(tx, teacherId, { skipLocked: options.skipLocked });
    if (!balance || balance.availableCents < Math.max(1, options.minimumCents)) return null;
    if (await payoutRepo.hasOpenPayout(tx, teacherId)) return null;
    const amountCents = balance.availableCents;
    const account = await payoutRepo.findAccount(tx, teacherId);
    const viaGateway = account !== null && account.payoutsEnabled === 1 && account.gateway === deps.gatewayName;
    const parts = await repo.listUnpaidReleased(tx, teacherId);
    const unpaid = parts.reduce((sum, p) => sum + p.amountCents, 0);
    const payout = await payoutRepo.insertPayout(tx, {
      teacherId,
      amountCents,
      recoveredCents: Math.max(0, unpaid - amountCents),
      currency: balance.currency,
      method: viaGateway ? 'gateway' : 'manual',
      status: viaGateway ? 'in_flight' : 'manual',
      gateway: viaGateway ? deps.gatewayName : null,
      accountId: viaGateway ? account.accountId : null,
      nextCheckAt: new Date(now.getTime() + GRACE_MS),
      createdAt: now,
    });
    if (viaGateway) {
      // One transfer per payment the shares came from (separate charges and transfers), the oldest
      // first, until the amount is covered: a debt recovered leaves the newest out.
      const byPayment = new Map<string, { transactionId: string; amountCents: number }>();
      for (const part of parts) {
        const item = byPayment.get(part.paymentId) ?? { transactionId: part.transactionId, amountCents: 0 };
        item.amountCents += part.amountCents;
        byPayment.set(part.paymentId, item);
      }
      let left = amountCents;
      const items: Parameters<typeof payoutRepo.insertPayoutItems>[1] = [];
      for (const [paymentId, item] of byPayment) {
        const take = Math.min(left, item.amountCents);
        if (take <= 0) break;
        items.push({ payoutId: payout.id, paymentId, transactionId: item.transactionId, amountCents: take });
        left -= take;
      }
      if (left > 0) {
        // More available than released parts (cannot happen while the journal is whole): refuse to guess.
        throw new Error(`payout of ${teacherId}: ${left} cents available with no released share to transfer from`);
      }
      await payoutRepo.insertPayoutItems(tx, items);
    }
    await repo.assignTranches(
      tx,
      parts.map((p) => p.id),
      payout.id,
    );
    await repo.applyMovements(
      tx,
      [{ teacherId, kind: 'payout', payoutId: payout.id, availableCents: -amountCents, paidCents: amountCents }],
      now,
    );
    return payout;
  });
}

/** A refused payout gives back what it did not transfer; what it did transfer stays paid. */
async function refusePayout(deps: PayoutDeps, payoutId: string, reason: string): Promise<PayoutOutcome> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const payout = await payoutRepo.findPayout(tx, payoutId, { lock: true });
    if (!payout || payout.status !== 'in_flight') return 'skipped';
    const items = await payoutRepo.listItemsOfPayout(tx, payoutId);
    const sent = items.filter((i) => i.transferId).reduce((sum, i) => sum + i.amountCents, 0);
    const back = payout.amountCents - sent;
    if (back > 0) {
      await repo.applyMovements(
        tx,
        [{ teacherId: payout.teacherId, kind: 'payout_failed', payoutId, availableCents: back, paidCents: -back }],
        now,
      );
    }
    if (sent === 0) {
      await repo.unassignTranches(tx, payoutId);
      await payoutRepo.updatePayout(tx, payoutId, {
        status: 'failed',
        failureReason: reason,
        leaseUntil: null,
        updatedAt: now,
      });
      return 'failed';
    }
    await payoutRepo.updatePayout(tx, payoutId, {
      status: 'paid',
      amountCents: sent,
      failureReason: reason,
      paidAt: now,
      leaseUntil: null,
      updatedAt: now,
    });
    return 'paid';
  });
}

/**
 * Makes the transfers of an in-flight payout that are not made yet, asking the gateway first
 * whether it made each already (a crash after the transfer, before we wrote it down). Safe to run
 * any number of times, from any instance.
 */
export async function sendPayout(deps: PayoutDeps, payoutId: string): Promise<PayoutOutcome> {
  const payout = await payoutRepo.findPayout(deps.db, payoutId);
  if (!payout || payout.status !== 'in_flight' || !payout.accountId) return 'skipped';
  const items = await payoutRepo.listItemsOfPayout(deps.db, payoutId);
  try {
    for (const item of items) {
      if (item.transferId) continue;
      const transferGroup = `payment_${item.paymentId}`;
      const transfer =
        (await deps.gateway.findTransfer({ transferGroup, payoutItemId: item.id })) ??
        (await deps.gateway.createTransfer({
          accountId: payout.accountId,
          amountCents: item.amountCents,
          currency: payout.currency,
          transferGroup,
          sourceIntentId: item.transactionId,
          metadata: { payout_id: payout.id, payout_item: item.id },
          idempotencyKey: `payout-item-${item.id}`,
        }));
      await payoutRepo.setItemTransfer(deps.db, item.id, transfer.id);
    }
  } catch (error) {
    if (error instanceof TransferRefusedError) {
      deps.log.warn({ payoutId, err: error }, 'payout refused by the gateway');
      return refusePayout(deps, payoutId, error.message);
    }
    deps.log.error({ payoutId, err: error }, 'payout not finished: the reconciler tries again');
    await payoutRepo.updatePayout(deps.db, payoutId, {
      nextCheckAt: new Date(deps.now().getTime() + RETRY_MS),
      leaseUntil: null,
    });
    return 'in_flight';
  }
  const now = deps.now();
  await payoutRepo.updatePayout(deps.db, payoutId, { status: 'paid', paidAt: now, leaseUntil: null, updatedAt: now });
  return 'paid';
}

export interface PayoutRunReport {
  paid: number;
  manual: number;
  failed: number;
  totalCents: number;
}

/** Pays every teacher whose available balance reaches the minimum; teachers another instance holds are skipped. */
export async function runPayouts(deps: PayoutDeps, options: { minimumCents: number }): Promise<PayoutRunReport> {
  const report: PayoutRunReport = { paid: 0, manual: 0, failed: 0, totalCents: 0 };
  let after: string | null = null;
  for (;;) {
    const page = await repo.listTeachersWithAvailable(deps.db, { after, limit: 500 });
    for (const { teacherId, availableCents } of page) {
      if (availableCents < options.minimumCents) continue;
      try {
        const payout = await decidePayout({ ...deps, gatewayName: deps.gateway.name }, teacherId, {
          minimumCents: options.minimumCents,
          skipLocked: true,
        });
        if (!payout) continue;
        if (payout.method === 'manual') {
          report.manual += 1;
          report.totalCents += payout.amountCents;
          continue;
        }
        const outcome = await sendPayout(deps, payout.id);
        if (outcome === 'paid') {
          report.paid += 1;
          report.totalCents += payout.amountCents;
        }
        if (outcome === 'failed') report.failed += 1;
      } catch (error) {
        report.failed += 1;
        deps.log.error({ teacherId, err: error }, 'payout of a teacher failed');
      }
    }
    if (page.length < 500) return report;
    after = page[page.length - 1]!.teacherId;
  }
}

/** The reconciler's pass over in-flight payouts whose call was cut short (decision 040). */
export async function settleInFlight(deps: PayoutDeps): Promise<{ settled: number; failed: number }> {
  const result = { settled: 0, failed: 0 };
  await forEachClaimed(
    (limit) => {
      const now = deps.now();
      return payoutRepo.claimDuePayouts(deps.db, { now, leaseUntil: new Date(now.getTime() + LEASE_MS), limit });
    },
    async (row) => {
      const outcome = await sendPayout(deps, row.id).catch((error: unknown) => {
        deps.log.error({ payoutId: row.id, err: error }, 'payout reconciler could not settle a payout');
        return 'in_flight' as const;
      });
      if (outcome === 'paid') result.settled += 1;
      else if (outcome === 'failed') result.failed += 1;
    },
    50,
  );
  return result;
}

/**
 * transfer.reversed: what the gateway took back from the teacher's account is owed to them again
 * (paid → available), once per cent reversed: the item remembers how much it has accounted for.
 */
export async function recordTransferReversal(deps: PayoutDeps, transferId: string): Promise<void> {
  const transfer = await deps.gateway.retrieveTransfer(transferId);
  if (!transfer) return;
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const item = await payoutRepo.findItemByTransfer(tx, transferId);
    if (!item) return;
    const payout = await payoutRepo.findPayout(tx, item.payoutId, { lock: true });
    if (!payout) return;
    const delta = transfer.reversedCents - item.reversedCents;
    if (delta <= 0) return;
    await payoutRepo.setItemReversed(tx, item.id, transfer.reversedCents);
    await repo.applyMovements(
      tx,
      [
        {
          teacherId: payout.teacherId,
          kind: 'payout_reversed',
          payoutId: payout.id,
          paidCents: -delta,
          availableCents: delta,
        },
      ],
      now,
    );
    const items = await payoutRepo.listItemsOfPayout(tx, payout.id);
    if (items.every((i) => (i.id === item.id ? transfer.reversedCents : i.reversedCents) >= i.amountCents)) {
      await payoutRepo.updatePayout(tx, payout.id, { status: 'reversed', updatedAt: now });
    }
  });
}

// ---- The schedule ------------------------------------------------------------------------------

/** The period a moment falls in: `YYYY-MM-DD` (daily) or the Monday starting its ISO week (weekly), UTC. */
export function periodOf(schedule: 'daily' | 'weekly', at: Date): { key: string; start: Date; next: Date } {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  if (schedule === 'daily') {
    return { key: day.toISOString().slice(0, 10), start: day, next: new Date(day.getTime() + 86_400_000) };
  }
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  const start = new Date(day.getTime() - sinceMonday * 86_400_000);
  return { key: `w${start.toISOString().slice(0, 10)}`, start, next: new Date(start.getTime() + 7 * 86_400_000) };
}

/**
 * The scheduled run of the current period, exactly once across instances: the instance that
 * inserts the period's row runs it; one killed mid-run leaves the row unfinished and its lease
 * lapses, and the next instance runs it again — which pays only what is still available.
 */
export async function runScheduledPayouts(
  deps: PayoutDeps,
  schedule: 'daily' | 'weekly',
): Promise<PayoutRunReport | null> {
  const now = deps.now();
  const period = periodOf(schedule, now);
  if (!(await payoutRepo.claimRun(deps.db, period.key, now, new Date(now.getTime() + LEASE_MS)))) return null;
  const report = await runPayouts(deps, { minimumCents: deps.minimumCents });
  await payoutRepo.finishRun(deps.db, period.key, deps.now());
  return report;
}
