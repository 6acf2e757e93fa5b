import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import * as schema from '../../db/schema/audit.ts';

export type AuditAction =
  | 'user.promote'
  | 'user.delete'
  | 'user.delete_self'
  | 'teacher_request.approve'
  | 'teacher_request.reject'
  | 'class.approve'
  | 'class.reject'
  | 'class.delete'
  | 'class.revision.approve'
  | 'class.revision.reject'
  | 'payment.refund'
  | 'refund_request.decline'
  | 'teacher.fee_rate'
  | 'payout.retry'
  | 'payout_batch.mark_paid'
  | 'report.dismiss'
  | 'report.hide'
  | 'report.warn'
  | 'report.suspend'
  | 'user.suspend'
  | 'user.reinstate';

/** Inserts one entry; the service's recordAudit is what other modules call. */
export async function insertAuditEntry(db: Db, values: typeof schema.auditLog.$inferInsert): Promise<void> {
  await db.insert(schema.auditLog).values(values);
}

/** One page of the audit log, newest first, with the total count. */
export async function listAuditEntries(db: Db, options: { limit: number; offset: number }) {
  return withTotal(
    db
      .select()
      .from(schema.auditLog)
      .orderBy(desc(schema.auditLog.createdAt), desc(schema.auditLog.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: schema.auditLog },
  );
}
