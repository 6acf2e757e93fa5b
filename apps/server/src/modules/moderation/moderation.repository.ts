import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { ReportAction, ReportStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { reports } from '../../db/schema/moderation.ts';

export type ReportRow = typeof reports.$inferSelect;

/** Null when the reporter already has an open report of this target (reports_one_open_idx). */
export async function insertReport(
  db: Db,
  values: {
    reporterId: string | null;
    targetType: string;
    targetId: string;
    targetLabel: string;
    ownerId: string | null;
    reason: string;
    details: string;
  },
): Promise<string | null> {
  const [row] = await db
    .insert(reports)
    .values(values)
    .onConflictDoNothing({
      target: [reports.reporterId, reports.targetType, reports.targetId],
      where: sql`${reports.status} = 'open'`,
    })
    .returning({ id: reports.id });
  return row?.id ?? null;
}

/** The queue: open reports oldest first; decided ones newest first (reports_status_created_idx). */
export async function listReports(
  db: Db,
  filter: { status: ReportStatus | undefined; limit: number; offset: number },
): Promise<{ rows: ReportRow[]; total: number }> {
  const where = filter.status ? eq(reports.status, filter.status) : undefined;
  const order: SQL[] =
    filter.status === 'open'
      ? [asc(reports.createdAt), asc(reports.id)]
      : [sql`${reports.status} = 'open' desc`, desc(reports.createdAt), desc(reports.id)];
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(reports)
      .where(where)
      .orderBy(...order)
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ n: count() }).from(reports).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** The report, locked until the decision's transaction ends, so two admins cannot both decide it. */
export async function findReportForUpdate(db: Db, id: string): Promise<ReportRow | null> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id)).for('update');
  return row ?? null;
}

/**
 * Closes every open report of the target with one decision (several people may have reported the
 * same thing; each hears the outcome). Answers who reported each, to tell them.
 */
export async function closeOpenReportsOf(
  db: Db,
  target: { targetType: string; targetId: string },
  decision: { action: ReportAction; note: string | null; decidedBy: string; now: Date },
): Promise<{ id: string; reporterId: string | null }[]> {
  return db
    .update(reports)
    .set({
      status: decision.action === 'dismiss' ? 'dismissed' : 'actioned',
      action: decision.action,
      note: decision.note,
      decidedBy: decision.decidedBy,
      decidedAt: decision.now,
    })
    .where(
      and(eq(reports.targetType, target.targetType), eq(reports.targetId, target.targetId), eq(reports.status, 'open')),
    )
    .returning({ id: reports.id, reporterId: reports.reporterId });
}
