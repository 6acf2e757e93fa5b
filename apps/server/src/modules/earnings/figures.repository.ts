import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { earningLines, teacherBalances } from '../../db/schema/earnings.ts';

/**
 * The money figures of the teacher and admin homes, read from the ledger (decision 039 §9: the
 * ledger is the truth for money out), so a home shows what the statements, the payouts and the
 * reconciliation count — a refund or a lost dispute moves the home exactly as it moves the journal.
 *
 * A teacher earns their lines' shares less what was clawed back (refunds, lost disputes); their
 * buckets are the running sums of their journal (`teacher_balances`, written in the journal's
 * transaction). The platform's revenue is what students paid for the lines they kept (a refunded
 * or lost line was given back whole), split into the platform's fee and the teachers' shares.
 * Months are those of the sale (`paid_at`, UTC), as in the teacher's monthly statement.
 */

export interface TeacherBuckets {
  pendingCents: number;
  availableCents: number;
  frozenCents: number;
  paidCents: number;
  /** Σ shares − Σ claw-backs: what the teacher earned, whichever bucket it sits in. */
  earnedCents: number;
}

export async function teacherBuckets(db: Db, teacherId: string): Promise<TeacherBuckets> {
  const [row] = await db
    .select({
      pendingCents: teacherBalances.pendingCents,
      availableCents: teacherBalances.availableCents,
      frozenCents: teacherBalances.frozenCents,
      paidCents: teacherBalances.paidCents,
      earnedCents: sql<number>`${teacherBalances.sharesCents} - ${teacherBalances.clawbacksCents}`.mapWith(Number),
    })
    .from(teacherBalances)
    .where(eq(teacherBalances.teacherId, teacherId));
  return row ?? { pendingCents: 0, availableCents: 0, frozenCents: 0, paidCents: 0, earnedCents: 0 };
}

const earned = () => sql<number>`coalesce(sum(${earningLines.shareCents} - ${earningLines.clawbackCents}), 0)`;
const month = sql<string>`to_char(${earningLines.paidAt} at time zone 'UTC', 'YYYY-MM')`;

/** What the teacher earned per class (only classes that sold appear). */
export async function teacherEarnedByClass(
  db: Db,
  teacherId: string,
): Promise<{ classId: string; earnedCents: number }[]> {
  return db
    .select({ classId: earningLines.classId, earnedCents: earned().mapWith(Number) })
    .from(earningLines)
    .where(eq(earningLines.teacherId, teacherId))
    .groupBy(earningLines.classId);
}

/** What the teacher earned per month of sale since `since` ('YYYY-MM'; months without sales absent). */
export async function teacherEarnedByMonth(
  db: Db,
  teacherId: string,
  since: Date,
): Promise<{ month: string; earnedCents: number }[]> {
  return db
    .select({ month, earnedCents: earned().mapWith(Number) })
    .from(earningLines)
    .where(and(eq(earningLines.teacherId, teacherId), gte(earningLines.paidAt, since)))
    .groupBy(month);
}

export interface PlatformMoney {
  /** What students paid for the lines they kept: `feeCents + sharesCents`. */
  revenueCents: number;
  /** The platform's fee of those lines. */
  feeCents: number;
  /** The teachers' shares of those lines (their earnings). */
  sharesCents: number;
}

const kept: SQL = sql`${earningLines.refundedAt} is null`;
const platformColumns = {
  revenueCents: sql<number>`coalesce(sum(${earningLines.grossCents}) filter (where ${kept}), 0)`.mapWith(Number),
  feeCents: sql<number>`coalesce(sum(${earningLines.feeCents}) filter (where ${kept}), 0)`.mapWith(Number),
  sharesCents: sql<number>`coalesce(sum(${earningLines.shareCents}) filter (where ${kept}), 0)`.mapWith(Number),
};

export async function platformMoney(db: Db): Promise<PlatformMoney> {
  const [row] = await db.select(platformColumns).from(earningLines);
  return row ?? { revenueCents: 0, feeCents: 0, sharesCents: 0 };
}

/** The platform's money per month of sale since `since` ('YYYY-MM'; months without sales absent). */
export async function platformMoneyByMonth(db: Db, since: Date): Promise<(PlatformMoney & { month: string })[]> {
  return db
    .select({ month, ...platformColumns })
    .from(earningLines)
    .where(gte(earningLines.paidAt, since))
    .groupBy(month);
}
