import type { ReportReason, ReportTargetType } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { insertReport } from './moderation.repository.ts';

/**
 * What other modules may use of moderation (decision 015): putting something in the admins' queue
 * without a person reporting it (decision 045: a message that looks like moving payment off the
 * platform). It imports only this module's repository, so the module that flags does not make a
 * cycle with moderation.service.ts, which reads that module's content back.
 */
export async function flagForReview(
  db: Db,
  flag: {
    targetType: ReportTargetType;
    targetId: string;
    targetLabel: string;
    ownerId: string;
    reason: ReportReason;
    details: string;
  },
): Promise<void> {
  await insertReport(db, { reporterId: null, ...flag });
}
