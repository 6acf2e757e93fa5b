import { CLASS_STATUSES, STATS_MONTHS } from '@skillhive/shared/rules/constants';
import { centsToDecimal } from '@skillhive/shared/rules/money';
import type { AdminStats, TeacherStats } from '@skillhive/shared/contracts/stats';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../lib/authorize.ts';
import * as ledger from '../earnings/earnings.public.ts';
import * as repo from './stats.repository.ts';

/**
 * The figures of one answer are read in one read-only snapshot, so they agree with each other
 * (the total is the sum of the classes and of the months) even while payments land.
 */
function inSnapshot<T>(db: Db, read: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** 'YYYY-MM' of the month (UTC) `offset` months after the month of `date`. */
function monthKey(date: Date, offset = 0): string {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
}

/** The first instant (UTC) of the oldest month `byMonth` shows. */
function firstMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (STATS_MONTHS - 1), 1));
}

/** STATS_MONTHS months, oldest first, zeros where nothing was sold. */
function fillMonths<T extends { month: string }>(now: Date, rows: T[], empty: Omit<T, 'month'>): T[] {
  const byMonth = new Map(rows.map((row) => [row.month, row]));
  return Array.from({ length: STATS_MONTHS }, (_, i) => {
    const month = monthKey(now, i - (STATS_MONTHS - 1));
    return byMonth.get(month) ?? ({ ...empty, month } as T);
  });
}

/** Money per month from the ledger beside paid lines per month, merged by month. */
function mergeMonths<M extends { month: string }>(
  money: M[],
  counts: { month: string; paidEnrollments: number }[],
): (M & { paidEnrollments: number })[] {
  const countOf = new Map(counts.map((row) => [row.month, row.paidEnrollments]));
  return money.map((row) => ({ ...row, paidEnrollments: countOf.get(row.month) ?? 0 }));
}

/** Months named by money or by counts (a month can have paid lines of classes sold before the ledger). */
function monthsOf(...lists: { month: string }[][]): string[] {
  return [...new Set(lists.flatMap((list) => list.map((row) => row.month)))];
}

/**
 * What the calling teacher earned (decision 039: the ledger's figures, after the platform's fee and
 * claw-backs) and where it is now, and their paid lines; every class of theirs, archived ones
 * included: their money was earned.
 */
export async function getTeacherStats(db: Db, teacher: Viewer, now: Date): Promise<TeacherStats> {
  const scope = { teacherId: teacher.id };
  const since = firstMonthStart(now);
  const read = await inSnapshot(db, async (tx) => ({
    buckets: await ledger.teacherBuckets(tx, teacher.id),
    earnedByClass: await ledger.teacherEarnedByClass(tx, teacher.id),
    earnedByMonth: await ledger.teacherEarnedByMonth(tx, teacher.id, since),
    totals: await repo.paidTotals(tx, scope),
    classes: await repo.paidByClass(tx, teacher.id),
    months: await repo.paidByMonth(tx, since, scope),
  }));
  const earnedOf = new Map(read.earnedByClass.map((row) => [row.classId, row.earnedCents]));
  const earnedIn = new Map(read.earnedByMonth.map((row) => [row.month, row.earnedCents]));
  const months = mergeMonths(
    monthsOf(read.earnedByMonth, read.months).map((month) => {
      const revenueCents = earnedIn.get(month) ?? 0;
      return { month, revenueCents, revenue: centsToDecimal(revenueCents) };
    }),
    read.months,
  );
  const { buckets } = read;
  return {
    totalCents: buckets.earnedCents,
    total: centsToDecimal(buckets.earnedCents),
    balances: {
      pendingCents: buckets.pendingCents,
      availableCents: buckets.availableCents,
      frozenCents: buckets.frozenCents,
      paidCents: buckets.paidCents,
    },
    paidEnrollments: read.totals.paidEnrollments,
    students: read.totals.students,
    classes: read.classes.map((row) => {
      const revenueCents = earnedOf.get(row.classId) ?? 0;
      return { ...row, revenueCents, revenue: centsToDecimal(revenueCents) };
    }),
    byMonth: fillMonths(now, months, { revenueCents: 0, revenue: 0, paidEnrollments: 0 }),
  };
}

/** The platform's figures for admins: accounts, classes, and revenue and fees from the ledger (decision 039). */
export async function getAdminStats(db: Db, now: Date): Promise<AdminStats> {
  const since = firstMonthStart(now);
  const read = await inSnapshot(db, async (tx) => ({
    users: await repo.countUsersByRole(tx),
    classStatuses: await repo.countClassesByStatus(tx),
    money: await ledger.platformMoney(tx),
    moneyByMonth: await ledger.platformMoneyByMonth(tx, since),
    totals: await repo.paidTotals(tx, {}),
    months: await repo.paidByMonth(tx, since, {}),
  }));
  const classes = { total: 0, pending: 0, accepted: 0, rejected: 0, archived: 0, hidden: 0 };
  for (const status of CLASS_STATUSES) {
    const n = read.classStatuses.find((row) => row.status === status)?.n ?? 0;
    classes[status] = n;
    classes.total += n;
  }
  const moneyIn = new Map(read.moneyByMonth.map((row) => [row.month, row]));
  const months = mergeMonths(
    monthsOf(read.moneyByMonth, read.months).map((month) => {
      const { revenueCents = 0, feeCents = 0 } = moneyIn.get(month) ?? {};
      return {
        month,
        revenueCents,
        revenue: centsToDecimal(revenueCents),
        feeCents,
        fee: centsToDecimal(feeCents),
      };
    }),
    read.months,
  );
  return {
    users: read.users,
    classes,
    totalCents: read.money.revenueCents,
    total: centsToDecimal(read.money.revenueCents),
    feeCents: read.money.feeCents,
    fee: centsToDecimal(read.money.feeCents),
    paidEnrollments: read.totals.paidEnrollments,
    byMonth: fillMonths(now, months, { revenueCents: 0, revenue: 0, feeCents: 0, fee: 0, paidEnrollments: 0 }),
  };
}
