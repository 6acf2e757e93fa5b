import { CLASS_STATUSES, STATS_MONTHS } from '@skillhive/shared/rules/constants';
import { centsToDecimal } from '@skillhive/shared/rules/money';
import type { AdminStats, MonthRevenue, TeacherStats } from '@skillhive/shared/contracts/stats';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../lib/authorize.ts';
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

/** STATS_MONTHS months, oldest first, zeros where nothing was paid. */
function fillMonths(
  now: Date,
  rows: { month: string; revenueCents: number; paidEnrollments: number }[],
): MonthRevenue[] {
  const byMonth = new Map(rows.map((row) => [row.month, row]));
  return Array.from({ length: STATS_MONTHS }, (_, i) => {
    const month = monthKey(now, i - (STATS_MONTHS - 1));
    const row = byMonth.get(month);
    const revenueCents = row?.revenueCents ?? 0;
    return { month, revenueCents, revenue: centsToDecimal(revenueCents), paidEnrollments: row?.paidEnrollments ?? 0 };
  });
}

/** What the calling teacher earned: every class of theirs, archived ones included: their money was earned. */
export async function getTeacherStats(db: Db, teacher: Viewer, now: Date): Promise<TeacherStats> {
  const scope = { teacherId: teacher.id };
  const { totals, classes, months } = await inSnapshot(db, async (tx) => ({
    totals: await repo.earningTotals(tx, scope),
    classes: await repo.earningsByClass(tx, teacher.id),
    months: await repo.earningsByMonth(tx, firstMonthStart(now), scope),
  }));
  return {
    totalCents: totals.revenueCents,
    total: centsToDecimal(totals.revenueCents),
    paidEnrollments: totals.paidEnrollments,
    enrollments: totals.enrollments,
    students: totals.students,
    classes: classes.map((row) => ({ ...row, revenue: centsToDecimal(row.revenueCents) })),
    byMonth: fillMonths(now, months),
  };
}

/** The platform's figures for admins: accounts, classes and revenue. */
export async function getAdminStats(db: Db, now: Date): Promise<AdminStats> {
  const { users, classStatuses, totals, months } = await inSnapshot(db, async (tx) => ({
    users: await repo.countUsersByRole(tx),
    classStatuses: await repo.countClassesByStatus(tx),
    totals: await repo.earningTotals(tx, {}),
    months: await repo.earningsByMonth(tx, firstMonthStart(now), {}),
  }));
  const classes = { total: 0, pending: 0, accepted: 0, rejected: 0, archived: 0, hidden: 0 };
  for (const status of CLASS_STATUSES) {
    const n = classStatuses.find((row) => row.status === status)?.n ?? 0;
    classes[status] = n;
    classes.total += n;
  }
  return {
    users,
    classes,
    totalCents: totals.revenueCents,
    total: centsToDecimal(totals.revenueCents),
    paidEnrollments: totals.paidEnrollments,
    byMonth: fillMonths(now, months),
  };
}
