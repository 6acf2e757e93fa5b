import type { FastifyBaseLogger } from 'fastify';
import type { ConnectAccount, EarningLine, EarningsSummary, Payout } from '@skillhive/shared/contracts/earnings';
import { EARNINGS_MESSAGES, type EarningLineState, basisPointsToPercent } from '@skillhive/shared/rules/earnings';
import type { Db } from '../../db/client.ts';
import { conflict } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import type { PaymentGateway } from '../gateways/gateway.public.ts';
import * as repo from './earnings.repository.ts';
import type { LedgerSettings } from './ledger.ts';
import * as payoutRepo from './payouts.repository.ts';
import { type PayoutDeps, periodOf } from './payouts.ts';

/** The teacher's side of money out (decisions 039, 040): earnings, statements, payouts, the connected account. */

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

export const iso = (date: Date | null) => (date ? date.toISOString() : null);

function connectOf(account: payoutRepo.AccountRow | null): ConnectAccount {
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
    payoutRepo.findAccount(deps.db, viewer.id),
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

export const cents = (value: number) => (value / 100).toFixed(2);

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

export function toPayout(row: payoutRepo.PayoutRow): Payout {
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

export async function withTransfers<T extends Payout>(db: Db, payouts: T[]): Promise<T[]> {
  for (const payout of payouts) {
    const items = await payoutRepo.listItemsOfPayout(db, payout._id);
    payout.transferId = items.map((i) => i.transferId).find(Boolean) ?? null;
  }
  return payouts;
}

export async function listMyPayouts(deps: EarningsDeps, viewer: Viewer, query: { page: number; limit: number }) {
  const { rows, total } = await payoutRepo.listPayouts(deps.db, { teacherId: viewer.id, ...limitOffsetOf(query) });
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
  let account = await payoutRepo.findAccount(deps.db, viewer.id);
  if (!account || account.gateway !== deps.gateway.name) {
    const created = await deps.gateway.createAccount({
      ownerRef: viewer.id,
      email: viewer.email,
      idempotencyKey: `connect-${deps.gateway.name}-${viewer.id}`,
    });
    if (account) throw conflict(EARNINGS_MESSAGES.connectUnavailable);
    account = await payoutRepo.insertAccount(deps.db, {
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
  const known = await payoutRepo.findAccountById(deps.db, accountId);
  if (!known) return null;
  const account = await deps.gateway.retrieveAccount(accountId);
  if (!account) return known;
  await payoutRepo.updateAccount(
    deps.db,
    accountId,
    { payoutsEnabled: account.payoutsEnabled, detailsSubmitted: account.detailsSubmitted },
    deps.now(),
  );
  return payoutRepo.findAccountById(deps.db, accountId);
}

export async function refreshMyAccount(deps: EarningsDeps, viewer: Viewer): Promise<void> {
  const account = await payoutRepo.findAccount(deps.db, viewer.id);
  if (account) await refreshAccount(deps, account.accountId);
}
