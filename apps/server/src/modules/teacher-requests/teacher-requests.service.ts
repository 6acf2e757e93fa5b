import type { TeacherRequest, TeacherRequestListQuery } from '@skillhive/shared/contracts/teacher-requests';
import type { CreateTeacherRequestBody } from '@skillhive/shared/rules/teach-form';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { queueMail, teacherRequestDecidedMail } from '../mail/mail.service.ts';
import { notify, type NotificationPublisher } from '../notifications/notifications.public.ts';
import { wantsNotification } from '../users/contact.public.ts';
import { grantTeacher } from '../users/users.service.ts';
import * as repo from './teacher-requests.repository.ts';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ALREADY_PENDING = 'You already have a teacher request waiting for a decision';

export function toTeacherRequest(row: repo.TeacherRequestRow): TeacherRequest {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    image: row.image,
    experience: row.experience,
    title: row.title,
    category: row.category,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
  };
}

/**
 * Applies to teach (spec §3/§4). Name, e-mail and image are the account's and the status is always
 * pending (DESIGN §1.1); one pending request per user; a rejected applicant may apply again
 * (DESIGN §1.6); a teacher has nothing to apply for.
 */
export async function applyToTeach(
  db: Db,
  viewer: Viewer,
  body: CreateTeacherRequestBody,
): Promise<{ insertedId: string }> {
  if (viewer.isTeacher) throw conflict('You are already a teacher');
  if (await repo.findPendingRequestOfUser(db, viewer.id)) throw conflict(ALREADY_PENDING);
  try {
    const insertedId = await repo.insertTeacherRequest(db, {
      userId: viewer.id,
      name: viewer.name,
      email: viewer.email,
      image: viewer.image,
      experience: body.experience,
      title: body.title,
      category: body.category,
      status: 'pending',
    });
    return { insertedId };
  } catch (error) {
    // Two submissions racing past the check above: the partial unique index keeps one.
    if (repo.isOnePendingViolation(error)) throw conflict(ALREADY_PENDING);
    throw error;
  }
}

export async function listRequests(
  db: Db,
  query: TeacherRequestListQuery,
): Promise<{ items: TeacherRequest[]; total: number }> {
  const { rows, total } = await repo.listTeacherRequests(db, {
    status: query.status,
    q: query.q || undefined,
    ...limitOffsetOf(query),
  });
  return { items: rows.map(toTeacherRequest), total };
}

export async function getMyLatestRequest(db: Db, viewer: Viewer): Promise<TeacherRequest | null> {
  const row = await repo.findLatestRequestOfUser(db, viewer.id);
  return row ? toTeacherRequest(row) : null;
}

/** Shared by approve and reject: the conditional update, or 404/409 saying why nothing changed. */
async function decide(
  tx: Db,
  admin: Viewer,
  id: string,
  status: 'approved' | 'rejected',
  now: Date,
): Promise<repo.TeacherRequestRow> {
  const decided = await repo.decidePendingRequest(tx, id, { status, decidedBy: admin.id, decidedAt: now });
  if (decided) return decided;
  const existing = await repo.findTeacherRequestById(tx, id);
  if (!existing) throw notFound('Teacher request');
  throw conflict(`This teacher request was already ${existing.status}`);
}

/**
 * Approves a pending request: the applicant becomes a teacher, admin untouched (DESIGN §1.5),
 * audited, and told by e-mail (queued in the same transaction).
 */
export async function approveRequest(
  db: Db,
  admin: Viewer,
  id: string,
  now: Date,
  publicUrl: string,
  notifications: NotificationPublisher,
): Promise<{ modifiedCount: number }> {
  if (!UUID_PATTERN.test(id)) throw notFound('Teacher request');
  return db.transaction(async (tx) => {
    const request = await decide(tx, admin, id, 'approved', now);
    const modifiedCount = await grantTeacher(tx, request.userId, now);
    await recordAudit(tx, admin, {
      action: 'teacher_request.approve',
      targetType: 'teacher_request',
      targetId: request.id,
      targetLabel: request.email,
      details: { userId: request.userId },
    });
    await notify(
      tx,
      notifications,
      {
        recipientId: request.userId,
        kind: 'moderation',
        title: 'Your application to teach was approved',
        body: 'You can add your first class now.',
        link: '/dashboard/addClasses',
      },
      now,
    );
    if (await wantsNotification(tx, request.email, 'teacherApplication')) {
      await queueMail(tx, request.email, teacherRequestDecidedMail({ publicUrl, name: request.name, approved: true }));
    }
    return { modifiedCount };
  });
}

/**
 * Rejects a pending request, with an optional reason the applicant is told by e-mail; they may
 * apply again later (DESIGN §1.6). Audited.
 */
export async function rejectRequest(
  db: Db,
  admin: Viewer,
  id: string,
  now: Date,
  publicUrl: string,
  notifications: NotificationPublisher,
  reason?: string | undefined,
): Promise<{ success: true }> {
  if (!UUID_PATTERN.test(id)) throw notFound('Teacher request');
  return db.transaction(async (tx) => {
    const request = await decide(tx, admin, id, 'rejected', now);
    await recordAudit(tx, admin, {
      action: 'teacher_request.reject',
      targetType: 'teacher_request',
      targetId: request.id,
      targetLabel: request.email,
      details: { userId: request.userId, ...(reason ? { reason } : {}) },
    });
    await notify(
      tx,
      notifications,
      {
        recipientId: request.userId,
        kind: 'moderation',
        title: 'Your application to teach was not approved',
        body: reason ?? 'You may apply again later.',
        link: '/teach',
      },
      now,
    );
    if (await wantsNotification(tx, request.email, 'teacherApplication')) {
      await queueMail(
        tx,
        request.email,
        teacherRequestDecidedMail({ publicUrl, name: request.name, approved: false, reason }),
      );
    }
    return { success: true as const };
  });
}
