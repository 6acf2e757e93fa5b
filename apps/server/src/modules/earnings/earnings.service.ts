import type { FastifyBaseLogger } from 'fastify';
import type {
  AdminPayout,
  ConnectAccount,
  Dispute,
  EarningLine,
  EarningsSummary,
  FeeRevenueMonth,
  Payout,
  PayoutBatch,
  TeacherFeeRate,
  UpcomingPayouts,
} from '@skillhive/shared/contracts/earnings';
import { STATS_MONTHS } from '@skillhive/shared/rules/constants';
import {
  EARNINGS_MESSAGES,
  type EarningLineState,
  type PayoutFilter,
  basisPointsToPercent,
  percentToBasisPoints,
} from '@skillhive/shared/rules/earnings';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { PaymentGateway } from '../gateways/gateway.public.ts';
import { isUuid } from '../enrollments/enrollments.service.ts';
import { findViewerUser } from '../users/contact.public.ts';
import * as repo from './earnings.repository.ts';
import type { LedgerSettings } from './ledger.ts';
import { type PayoutDeps, decidePayout, periodOf, runPayouts, sendPayout } from './payouts.ts';

/** The read side of money out and the admin's actions on it (decisions 039, 040). */

export interface EarningsDeps {
  db: Db;
  gateway: PaymentGateway;
  now: () => Date;
  log: FastifyBaseLogger;
  publicUrl: string;
  ledger: LedgerSettings;
  schedule: 'daily' | 'weekly';
  minimumCents: number;
}

export function payoutDepsOf(deps: EarningsDeps): PayoutDeps {
  return { db: deps.db, gateway: deps.gateway, now: deps.now, log: deps.log, minimumCents: deps.minimumCents };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function connectOf(account: repo.AccountRow | null): ConnectAccount {
  return {
    status: !account ? 'none' : account.payoutsEnabled ? 'enabled' : account.detailsSubmitted ? 'disabled' : 'pending',
    gateway: account?.gateway ?? null,
    payoutsEnabled: account?.payoutsEnabled === 1,
    available: true,
  };
}

// ---- Teacher -------------------------------------------------------------------------------------

export async function getSummary(deps: EarningsDeps, viewer: Viewer): Promise<EarningsSummary> {
  const [balance, account, rates] = await Promise.all([
    repo.findBalance(deps.db, viewer.id),
    repo.findAccount(deps.db, viewer.id),
    repo.findFeeRates(deps.db, [viewer.id]),
  ]);
  const available = balance?.availableCents ?? 0;
  return {
    currency: balance?.currency ?? 'usd',
    feePercent: basisPointsToPercent(rates.get(viewer.id) ?? deps.ledger.platformBasisPoints),
    pendingCents: balance?.pendingCents ?? 0,
    availableCents: available,
    frozenCents: balance?.frozenCents ?? 0,
    paidCents: balance?.paidCents ?? 0,
    negativeBalanceCents: Math.max(0, -available),
    sharesCents: balance?.sharesCents ?? 0,
    clawbacksCents: balance?.clawbacksCents ?? 0,
    nextPayoutAt: periodOf(deps.schedule, deps.now()).next.toISOString(),
    payoutSchedule: deps.schedule,
    minimumPayoutCents: deps.minimumCents,
    connect: connectOf(account),
  };
}

function stateOf(line: repo.LineRow, tranches: repo.TrancheRow[]): EarningLineState {
  if (line.refundedAt) return 'refunded';
  if (line.frozenBy) return 'frozen';
  if (tranches.some((t) => t.state === 'pending')) return 'pending';
  if (tranches.some((t) => t.state === 'released' && !t.payoutId)) return 'available';
  return 'paid';
}

function monthRange(month: string): { from: Date; to: Date } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(year, m - 1, 1)), to: new Date(Date.UTC(year, m, 1)) };
}

async function linesOf(
  db: Db,
  teacherId: string,
  options: { limit: number; offset: number; month?: string | undefined },
): Promise<{ items: EarningLine[]; total: number }> {
  const range = options.month ? monthRange(options.month) : null;
  const { rows, total } = await repo.listLinesOfTeacher(db, teacherId, {
    limit: options.limit,
    offset: options.offset,
    from: range?.from ?? null,
    to: range?.to ?? null,
  });
  const tranches = await repo.listTranchesOfLines(
    db,
    rows.map((r) => r.id),
  );
  const items = rows.map((line): EarningLine => {
    const own = tranches.filter((t) => t.lineId === line.id);
    const sum = (list: repo.TrancheRow[]) => list.reduce((s, t) => s + t.amountCents, 0);
    const held = own.filter((t) => t.state === 'pending');
    const next = held.map((t) => t.dueAt).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
    return {
      _id: line.id,
      enrollmentId: line.enrollmentId,
      classId: line.classId,
      title: line.title,
      studentInitials: line.studentInitials,
      grossCents: line.grossCents,
      feeCents: line.feeCents,
      shareCents: line.shareCents,
      listCents: line.listCents,
      discountCents: line.discountCents,
      couponSource: line.couponSource ?? 'none',
      feePercent: basisPointsToPercent(line.feeBasisPoints),
      state: stateOf(line, own),
      pendingCents: sum(held),
      releasedCents: sum(own.filter((t) => t.state === 'released')),
      paidOutCents: sum(own.filter((t) => t.state === 'released' && t.payoutId)),
      clawbackCents: line.clawbackCents,
      currency: line.currency,
      paidAt: line.paidAt.toISOString(),
      releaseAt: iso(next),
      refundedAt: iso(line.refundedAt),
    };
  });
  return { items, total };
}

export function listLines(
  deps: EarningsDeps,
  viewer: Viewer,
  query: { page: number; limit: number; month?: string | undefined },
) {
  return linesOf(deps.db, viewer.id, { ...limitOffsetOf(query), month: query.month });
}

/** A CSV field: quoted when it holds a comma, quote or line break; a leading formula character is defused. */
export function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const cents = (value: number) => (value / 100).toFixed(2);

/** The month's statement: every line paid that month, with its split and state, and the totals. */
export async function statementCsv(deps: EarningsDeps, viewer: Viewer, month: string): Promise<string> {
  const { items } = await linesOf(deps.db, viewer.id, { limit: 100_000, offset: 0, month });
  const header = ['paid_at', 'class', 'student', 'gross', 'fee', 'share', 'clawback', 'state', 'currency'];
  const rows = items.map((l) => [
    l.paidAt,
    l.title,
    l.studentInitials,
    cents(l.grossCents),
    cents(l.feeCents),
    cents(l.shareCents),
    cents(l.clawbackCents),
    l.state,
    l.currency,
  ]);
  const total = (pick: (l: EarningLine) => number) => cents(items.reduce((s, l) => s + pick(l), 0));
  rows.push([
    'total',
    '',
    '',
    total((l) => l.grossCents),
    total((l) => l.feeCents),
    total((l) => l.shareCents),
    total((l) => l.clawbackCents),
    '',
    items[0]?.currency ?? 'usd',
  ]);
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function toPayout(row: repo.PayoutRow): Payout {
  return {
    _id: row.id,
    amountCents: row.amountCents,
    currency: row.currency,
    status: row.status,
    method: row.method,
    transferId: null,
    batchId: row.batchId,
    failureReason: row.failureReason,
    recoveredCents: row.recoveredCents,
    createdAt: row.createdAt.toISOString(),
    paidAt: iso(row.paidAt),
  };
}

async function withTransfers<T extends Payout>(db: Db, payouts: T[]): Promise<T[]> {
  for (const payout of payouts) {
    const items = await repo.listItemsOfPayout(db, payout._id);
    payout.transferId = items.map((i) => i.transferId).find(Boolean) ?? null;
  }
  return payouts;
}

export async function listMyPayouts(deps: EarningsDeps, viewer: Viewer, query: { page: number; limit: number }) {
  const { rows, total } = await repo.listPayouts(deps.db, { teacherId: viewer.id, ...limitOffsetOf(query) });
  return {
    items: await withTransfers(
      deps.db,
      rows.map((r) => toPayout(r.payout)),
    ),
    total,
  };
}

// ---- Connect ----------------------------------------------------------------------------------------

/** Starts (or resumes) onboarding: the teacher's account at the gateway, and a fresh link to its pages. */
export async function startOnboarding(deps: EarningsDeps, viewer: Viewer): Promise<{ url: string }> {
  let account = await repo.findAccount(deps.db, viewer.id);
  if (!account || account.gateway !== deps.gateway.name) {
    const created = await deps.gateway.createAccount({
      ownerRef: viewer.id,
      email: viewer.email,
      idempotencyKey: `connect-${deps.gateway.name}-${viewer.id}`,
    });
    if (account) throw conflict(EARNINGS_MESSAGES.connectUnavailable);
    account = await repo.insertAccount(deps.db, {
      teacherId: viewer.id,
      gateway: deps.gateway.name,
      accountId: created.id,
      payoutsEnabled: created.payoutsEnabled ? 1 : 0,
      detailsSubmitted: created.detailsSubmitted ? 1 : 0,
    });
  }
  const base = deps.publicUrl.replace(/\/$/, '');
  const link = await deps.gateway.createOnboardingLink({
    accountId: account.accountId,
    returnUrl: `${base}/api/teachers/me/connect/return`,
    refreshUrl: `${base}/api/teachers/me/connect/refresh`,
  });
  return { url: link.url.startsWith('/') ? `${base}${link.url}` : link.url };
}

/** Re-reads a connected account from the gateway (the return page, `account.updated`); safe to repeat. */
export async function refreshAccount(deps: Pick<EarningsDeps, 'db' | 'gateway' | 'now'>, accountId: string) {
  const known = await repo.findAccountById(deps.db, accountId);
  if (!known) return null;
  const account = await deps.gateway.retrieveAccount(accountId);
  if (!account) return known;
  await repo.updateAccount(
    deps.db,
    accountId,
    { payoutsEnabled: account.payoutsEnabled, detailsSubmitted: account.detailsSubmitted },
    deps.now(),
  );
  return repo.findAccountById(deps.db, accountId);
}

export async function refreshMyAccount(deps: EarningsDeps, viewer: Viewer): Promise<void> {
  const account = await repo.findAccount(deps.db, viewer.id);
  if (account) await refreshAccount(deps, account.accountId);
}

// ---- Admin ------------------------------------------------------------------------------------------

function toAdminPayout(row: Awaited<ReturnType<typeof repo.listPayouts>>['rows'][number]): AdminPayout {
  return {
    ...toPayout(row.payout),
    teacher: { _id: row.payout.teacherId, name: row.name ?? '', email: row.email ?? '' },
    attempts: row.payout.attempts,
  };
}

const FILTERS: Record<PayoutFilter, repo.PayoutRow['status'][]> = {
  past: ['paid', 'reversed'],
  failed: ['failed'],
  in_flight: ['in_flight'],
  manual: ['manual'],
};

export async function listPayouts(
  deps: EarningsDeps,
  query: { page: number; limit: number; status?: PayoutFilter | undefined },
) {
  const { rows, total } = await repo.listPayouts(deps.db, {
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
  const row = isUuid(id) ? await repo.findPayoutWithTeacher(db, id) : null;
  if (!row) throw notFound('Payout');
  const [payout] = await withTransfers(db, [toAdminPayout(row)]);
  return payout!;
}

/** Retries a failed payout: a new payout of what the teacher has available now (the minimum does not apply). */
export async function retryPayout(deps: EarningsDeps, viewer: Viewer, id: string): Promise<AdminPayout> {
  const failed = isUuid(id) ? await repo.findPayout(deps.db, id) : null;
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

async function toBatch(db: Db, row: repo.BatchRow): Promise<PayoutBatch> {
  const totals = (await repo.batchTotals(db, [row.id])).get(row.id) ?? { count: 0, totalCents: 0 };
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
  const { rows, total } = await repo.listBatches(deps.db, limitOffsetOf(query));
  const items: PayoutBatch[] = [];
  for (const row of rows) items.push(await toBatch(deps.db, row));
  return { items, total };
}

/** Gathers every manual payout not in a batch yet into a new batch. */
export async function createBatch(deps: EarningsDeps, viewer: Viewer): Promise<PayoutBatch> {
  const batch = await deps.db.transaction(async (tx) => {
    const row = await repo.insertBatch(tx, { currency: 'usd', createdBy: viewer.id, createdAt: deps.now() });
    if ((await repo.batchManualPayouts(tx, row.id)) === 0) throw conflict(EARNINGS_MESSAGES.nothingToBatch);
    return row;
  });
  return toBatch(deps.db, batch);
}

export async function batchCsv(deps: EarningsDeps, id: string): Promise<string> {
  const batch = isUuid(id) ? await repo.findBatch(deps.db, id) : null;
  if (!batch) throw notFound('Payout batch');
  const rows = await repo.listPayoutsOfBatch(deps.db, id);
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
    const row = isUuid(id) ? await repo.findBatch(tx, id, { lock: true }) : null;
    if (!row) throw notFound('Payout batch');
    if (row.status === 'paid') throw conflict(EARNINGS_MESSAGES.batchPaid);
    await repo.markBatchPaid(tx, id, viewer.id, deps.now());
    await recordAudit(tx, viewer, { action: 'payout_batch.mark_paid', targetType: 'payout_batch', targetId: id });
    return (await repo.findBatch(tx, id))!;
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

export async function toDispute(db: Db, row: repo.DisputeRow): Promise<Dispute> {
  const lines = await repo.listDisputeLines(db, row.enrollmentIds);
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
  query: { page: number; limit: number; status?: repo.DisputeRow['status'] | undefined },
) {
  const { rows, total } = await repo.listDisputes(deps.db, { status: query.status, ...limitOffsetOf(query) });
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
