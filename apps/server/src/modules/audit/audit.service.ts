import type { AuditEntry } from '@skillhive/shared/users';
import type { Db } from '../../db/client.ts';
import { listAuditEntries } from './audit.repository.ts';

/** GET /api/audit: who did what to whom, and when (issue 3 §7). */
export async function listAudit(
  db: Db,
  page: { page: number; limit: number },
): Promise<{ items: AuditEntry[]; total: number }> {
  const { rows, total } = await listAuditEntries(db, { limit: page.limit, offset: (page.page - 1) * page.limit });
  return {
    items: rows.map((row) => ({
      _id: row.id,
      actorId: row.actorId,
      actorEmail: row.actorEmail,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      targetLabel: row.targetLabel,
      details: row.details,
      createdAt: row.createdAt.toISOString(),
    })),
    total,
  };
}
