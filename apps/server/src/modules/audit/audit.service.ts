import type { AuditEntry } from '@skillhive/shared/contracts/users';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { type AuditAction, insertAuditEntry, listAuditEntries } from './audit.repository.ts';

export type { AuditAction } from './audit.repository.ts';

/**
 * Records an admin action, so admins answer for what they did. Other modules call this, never the repository; pass the
 * action's transaction so the entry and the action commit together.
 */
export function recordAudit(
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
  return insertAuditEntry(db, {
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    targetLabel: entry.targetLabel ?? null,
    details: entry.details ?? null,
  });
}

/** GET /api/audit: who did what to whom, and when. */
export async function listAudit(
  db: Db,
  page: { page: number; limit: number },
): Promise<{ items: AuditEntry[]; total: number }> {
  const { rows, total } = await listAuditEntries(db, limitOffsetOf(page));
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
