import { count, desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { schema } from '../../db/client.ts';
import type { Viewer } from '../../lib/authorize.ts';

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
  | 'class.revision.reject';

/** Records an admin action (issue 3 §7). Call it inside the same transaction as the action. */
export async function recordAudit(
  db: Db,
  actor: Pick<Viewer, 'id' | 'email'>,
  entry: {
    action: AuditAction;
    targetType: string;
    targetId: string;
    targetLabel?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(schema.auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    targetLabel: entry.targetLabel ?? null,
    details: entry.details ?? null,
  });
}

/** One page of the audit log, newest first, with the total count. */
export async function listAuditEntries(db: Db, options: { limit: number; offset: number }) {
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(schema.auditLog)
      .orderBy(desc(schema.auditLog.createdAt), desc(schema.auditLog.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(schema.auditLog),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}
