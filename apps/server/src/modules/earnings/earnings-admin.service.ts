import type {
  AdminPayout,
  Dispute,
  FeeRevenueMonth,
  PayoutBatch,
  TeacherFeeRate,
  UpcomingPayouts,
} from '@skillhive/shared/contracts/earnings';
import { STATS_MONTHS } from '@skillhive/shared/rules/constants';
import {
  EARNINGS_MESSAGES,
  type PayoutFilter,
  basisPointsToPercent,
  percentToBasisPoints,
} from '@skillhive/shared/rules/earnings';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { isUuid } from '../enrollments/enrollments.service.ts';
import { findViewerUser } from '../users/contact.public.ts';
import * as disputeRepo from './disputes.repository.ts';
import * as repo from './earnings.repository.ts';
import { type EarningsDeps, cents, csvField, iso, payoutDepsOf, toPayout, withTransfers } from './earnings.service.ts';
import * as payoutRepo from './payouts.repository.ts';
import { decidePayout, periodOf, runPayouts, sendPayout } from './payouts.ts';

function toAdminPayout(row: Awaited<ReturnType<typeof payoutRepo.listPayouts>>['rows'][number]): AdminPayout {
  return {
    ...toPayout(row.payout),
    teacher: { _id: row.payout.teacherId, name: row.name ?? '', email: row.email ?? '' },
    attempts: row.payout.attempts,
  };
}

const FILTERS: Record<PayoutFilter, payoutRepo.PayoutRow['status'][]> = {
  past: ['paid', 'reversed'],
  failed: ['failed'],
  in_flight: ['in_flight'],
  manual: ['manual'],
};

export async function listPayouts(
  deps: EarningsDeps,
  query: { page: number; limit: number; status?: PayoutFilter | undefined },
) {
  const { rows, total } = await payoutRepo.listPayouts(deps.db, {
    ...(query.status ? { statuses: FILTERS[query.status] } : {}),
    ...limitOffsetOf(query),
  });
  return { items: await withTransfers(deps.db, rows.map(toAdminPayout)), total };
}

export async function listUpcoming(deps: EarningsDeps): Promise<UpcomingPayouts> {
  const rows = await repo.listUpcoming(deps.db, 500);
  return {
    nextPayoutAt: periodOf(deps.schedule, deps.now()).next.toISOString(),
    payoutSchedule: deps.schedule,
    minimumPayoutCents: deps.minimumCents,
    payouts: rows.map((row) => ({
      teacher: { _id: row.teacherId, name: row.name ?? '', email: row.email ?? '' },
      availableCents: row.availableCents,
      payableCents: row.availableCents >= deps.minimumCents ? row.availableCents : 0,
      method: row.accountEnabled === 1 ? 'gateway' : 'manual',
      connectStatus: row.accountId ? (row.accountEnabled === 1 ? 'enabled' : 'pending') : 'none',
    })),
  };
}

export async function runNow(deps: EarningsDeps) {
  return runPayouts(payoutDepsOf(deps), { minimumCents: deps.minimumCents });
}

async function adminPayoutOf(db: Db, id: string): Promise<AdminPayout> {
  const row = isUuid(id) ? await payoutRepo.findPayoutWithTeacher(db, id) : null;
  if (!row) throw notFound('Payout');
  const [payout] = await withTransfers(db, [toAdminPayout(row)]);
  return payout!;
}

/** Retries a failed payout: a new payout of what the teacher has available now (the minimum does not apply). */
export async function retryPayout(deps: EarningsDeps, viewer: Viewer, id: string): Promise<AdminPayout> {
  const failed = isUuid(id) ? await payoutRepo.findPayout(deps.db, id) : null;
  if (!failed) throw notFound('Payout');
  if (failed.status !== 'failed') throw conflict(EARNINGS_MESSAGES.notRetryable);
  const payoutDeps = payoutDepsOf(deps);
  const payout = await decidePayout({ ...payoutDeps, gatewayName: deps.gateway.name }, failed.teacherId, {
    minimumCents: 1,
    skipLocked: false,
  });
  if (!payout) throw conflict(EARNINGS_MESSAGES.notRetryable);
  if (payout.method === 'gateway') await sendPayout(payoutDeps, payout.id);
  await recordAudit(deps.db, viewer, {
    action: 'payout.retry',
    targetType: 'payout',
    targetId: failed.id,
    details: { newPayoutId: payout.id, amountCents: payout.amountCents },
  });
  return adminPayoutOf(deps.db, payout.id);
}

async function toBatch(db: Db, row: payoutRepo.BatchRow): Promise<PayoutBatch> {
  const totals = (await payoutRepo.batchTotals(db, [row.id])).get(row.id) ?? { count: 0, totalCents: 0 };
  return {
    _id: row.id,
    status: row.status,
    count: totals.count,
    totalCents: totals.totalCents,
    currency: row.currency,
    createdAt: row.createdAt.toISOString(),
    paidAt: iso(row.paidAt),
  };
}

export async function listBatches(deps: EarningsDeps, query: { page: number; limit: number }) {
  const { rows, total } = await payoutRepo.listBatches(deps.db, limitOffsetOf(query));
  const items: PayoutBatch[] = [];
  for (const row of rows) items.push(await toBatch(deps.db, row));
  return { items, total };
}

/** Gathers every manual payout not in a batch yet into a new batch. */
export async function createBatch(deps: EarningsDeps, viewer: Viewer): Promise<PayoutBatch> {
  const batch = await deps.db.transaction(async (tx) => {
    const row = await payoutRepo.insertBatch(tx, { currency: 'usd', createdBy: viewer.id, createdAt: deps.now() });
    if ((await payoutRepo.batchManualPayouts(tx, row.id)) === 0) throw conflict(EARNINGS_MESSAGES.nothingToBatch);
    return row;
  });
  return toBatch(deps.db, batch);
}

export async function batchCsv(deps: EarningsDeps, id: string): Promise<string> {
  const batch = isUuid(id) ? await payoutRepo.findBatch(deps.db, id) : null;
  if (!batch) throw notFound('Payout batch');
  const rows = await payoutRepo.listPayoutsOfBatch(deps.db, id);
  const header = ['payout_id', 'teacher_name', 'teacher_email', 'amount', 'currency', 'reference', 'status'];
  const lines = rows.map((r) => [
    r.payout.id,
    r.name ?? '',
    r.email ?? '',
    cents(r.payout.amountCents),
    r.payout.currency,
    `SkillHive payout ${r.payout.id.slice(0, 8)}`,
    r.payout.status,
  ]);
  return [header, ...lines].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export async function markBatchPaid(deps: EarningsDeps, viewer: Viewer, id: string): Promise<PayoutBatch> {
  const batch = await deps.db.transaction(async (tx) => {
    const row = isUuid(id) ? await payoutRepo.findBatch(tx, id, { lock: true }) : null;
    if (!row) throw notFound('Payout batch');
    if (row.status === 'paid') throw conflict(EARNINGS_MESSAGES.batchPaid);
    await payoutRepo.markBatchPaid(tx, id, viewer.id, deps.now());
    await recordAudit(tx, viewer, { action: 'payout_batch.mark_paid', targetType: 'payout_batch', targetId: id });
    return (await payoutRepo.findBatch(tx, id))!;
  });
  return toBatch(deps.db, batch);
}

export async function feeRevenue(deps: EarningsDeps): Promise<FeeRevenueMonth[]> {
  const now = deps.now();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (STATS_MONTHS - 1), 1));
  const rows = await repo.feeRevenueByMonth(deps.db, first);
  const byMonth = new Map(rows.map((row) => [row.month, row]));
  return Array.from({ length: STATS_MONTHS }, (_, i) => {
    const month = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1)).toISOString().slice(0, 7);
    const row = byMonth.get(month);
    return {
      month,
      grossCents: row?.grossCents ?? 0,
      feeCents: row?.feeCents ?? 0,
      sharesCents: row?.sharesCents ?? 0,
      clawbacksCents: row?.clawbacksCents ?? 0,
      lines: row?.lines ?? 0,
    };
  });
}

export async function toDispute(db: Db, row: disputeRepo.DisputeRow): Promise<Dispute> {
  const lines = await disputeRepo.listDisputeLines(db, row.enrollmentIds);
  return {
    _id: row.id,
    gatewayDisputeId: row.gatewayDisputeId,
    paymentId: row.paymentId,
    transactionId: row.transactionId,
    amountCents: row.amountCents,
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    gatewayStatus: row.gatewayStatus,
    evidenceDueBy: iso(row.evidenceDueBy),
    evidence: row.evidence,
    lines: lines.map((l) => ({ ...l, teacherName: l.teacherName ?? '' })),
    createdAt: row.createdAt.toISOString(),
    closedAt: iso(row.closedAt),
  };
}

export async function listDisputes(
  deps: EarningsDeps,
  query: { page: number; limit: number; status?: disputeRepo.DisputeRow['status'] | undefined },
) {
  const { rows, total } = await disputeRepo.listDisputes(deps.db, { status: query.status, ...limitOffsetOf(query) });
  const items: Dispute[] = [];
  for (const row of rows) items.push(await toDispute(deps.db, row));
  return { items, total };
}

async function teacherOrThrow(db: Db, id: string) {
  const user = await findViewerUser(db, id);
  if (!user) throw notFound('User');
  if (!user.isTeacher) throw new AppError(ErrorCode.CONFLICT, EARNINGS_MESSAGES.notTeacher);
  return user;
}

export async function getFeeRate(deps: EarningsDeps, teacherId: string): Promise<TeacherFeeRate> {
  await teacherOrThrow(deps.db, teacherId);
  const own = (await repo.findFeeRates(deps.db, [teacherId])).get(teacherId);
  return {
    teacherId,
    feePercent: basisPointsToPercent(own ?? deps.ledger.platformBasisPoints),
    ownFeePercent: own === undefined ? null : basisPointsToPercent(own),
    platformFeePercent: basisPointsToPercent(deps.ledger.platformBasisPoints),
  };
}

/** Sets (or, with null, removes) a teacher's own fee rate; it applies to their sales from now on. Audited. */
export async function setFeeRate(
  deps: EarningsDeps,
  viewer: Viewer,
  teacherId: string,
  feePercent: number | null,
): Promise<TeacherFeeRate> {
  const teacher = await teacherOrThrow(deps.db, teacherId);
  const before = await getFeeRate(deps, teacherId);
  await deps.db.transaction(async (tx) => {
    await repo.setFeeRate(
      tx,
      teacherId,
      feePercent === null ? null : percentToBasisPoints(feePercent),
      viewer.id,
      deps.now(),
    );
    await recordAudit(tx, viewer, {
      action: 'teacher.fee_rate',
      targetType: 'user',
      targetId: teacherId,
      targetLabel: teacher.email,
      details: { from: before.ownFeePercent, to: feePercent },
    });
  });
  return getFeeRate(deps, teacherId);
}
