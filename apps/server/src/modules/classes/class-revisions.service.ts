import type {
  ClassFields,
  ClassModifiedResponse,
  ClassRevision,
  ClassRevisionsQuery,
} from '@skillhive/shared/contracts/classes';
import { centsToDecimal } from '@skillhive/shared/rules/money';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { classDecidedMail, queueMail } from '../mail/mail.service.ts';
import { notify, type NotificationPublisher } from '../notifications/notifications.public.ts';
import { wantsNotification } from '../users/contact.public.ts';
import type { ImageStorage } from '../uploads/storage.public.ts';
import * as revisions from './class-revisions.repository.ts';
import type { ClassPatch, ClassRow } from './classes.repository.ts';
import * as repo from './classes.repository.ts';
import { VERSION_CHANGED, moderationVersion } from './moderation-version.ts';

type FieldName = (typeof revisions.REVISION_FIELD_NAMES)[number];

/** The one serialization of a revision: what is live now and only what the teacher changed. */
export function toClassRevision(row: revisions.RevisionRow, cls: ClassRow, storage: ImageStorage): ClassRevision {
  const current: ClassFields = {
    title: cls.title,
    description: cls.description,
    price: centsToDecimal(cls.priceCents),
    image: storage.publicUrl(cls.imageKey),
    category: cls.category,
  };
  const proposed: Partial<ClassFields> = {};
  if (row.title !== null) proposed.title = row.title;
  if (row.description !== null) proposed.description = row.description;
  if (row.priceCents !== null) proposed.price = centsToDecimal(row.priceCents);
  if (row.imageKey !== null) proposed.image = storage.publicUrl(row.imageKey);
  if (row.category !== null) proposed.category = row.category;
  return {
    _id: row.id,
    classId: row.classId,
    name: cls.teacherName,
    email: cls.teacherEmail,
    status: row.status,
    rejectionReason: row.rejectionReason,
    current,
    proposed,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    version: moderationVersion(row),
  };
}

const NOTHING_CHANGED: revisions.RevisionFields = {
  title: null,
  description: null,
  priceCents: null,
  imageKey: null,
  category: null,
};

/** The proposed fields that differ from the class as it is live (null: keep the live value). */
function changedFields(cls: ClassRow, wanted: ClassPatch): revisions.RevisionFields {
  const out = { ...NOTHING_CHANGED };
  for (const field of revisions.REVISION_FIELD_NAMES) {
    const value = wanted[field];
    if (value !== undefined && value !== cls[field]) (out as Record<FieldName, unknown>)[field] = value;
  }
  return out;
}

const namesOf = (fields: revisions.RevisionFields): FieldName[] =>
  revisions.REVISION_FIELD_NAMES.filter((field) => fields[field] !== null);

/**
 * An edit of an accepted class (DESIGN §4): stored as its pending revision, merged into the one
 * already pending, while the class row (what is on sale, at its approved price) stays as it is.
 * Fields set back to their live value drop out; a revision left with no change is withdrawn.
 */
export async function proposeRevision(
  db: Db,
  teacher: Viewer,
  classId: string,
  patch: ClassPatch,
  now: Date,
): Promise<ClassModifiedResponse> {
  return db.transaction(async (tx) => {
    const cls = await revisions.lockClass(tx, classId);
    if (!cls) throw notFound('Class');
    if (cls.teacherId !== teacher.id) throw forbidden('Only the teacher of this class can edit it');
    if (cls.status !== 'accepted') throw conflict('This class was deleted and can no longer be edited');
    const pending = await revisions.findPendingRevision(tx, classId);
    const before: ClassPatch = {};
    if (pending) for (const field of namesOf(pending)) Object.assign(before, { [field]: pending[field] });
    const merged = changedFields(cls, { ...before, ...patch });
    const isSame = pending !== null && revisions.REVISION_FIELD_NAMES.every((f) => merged[f] === pending[f]);
    if (namesOf(merged).length === 0) {
      if (!pending) return { modifiedCount: 0, success: true as const, pendingReview: false };
      await revisions.deletePendingRevisions(tx, classId);
      return { modifiedCount: 1, success: true as const, pendingReview: false };
    }
    if (isSame) return { modifiedCount: 0, success: true as const, pendingReview: true };
    if (pending) await revisions.updatePendingRevision(tx, pending.id, merged, now);
    else await revisions.insertRevision(tx, classId, merged, now);
    return { modifiedCount: 1, success: true as const, pendingReview: true };
  });
}

/** The admin's review queue: pending revisions, oldest first. */
export async function listPendingRevisions(
  db: Db,
  storage: ImageStorage,
  query: ClassRevisionsQuery,
): Promise<{ items: ClassRevision[]; total: number }> {
  const { rows, total } = await revisions.listPendingRevisions(db, {
    ...limitOffsetOf(query),
  });
  return { items: rows.map(({ revision, cls }) => toClassRevision(revision, cls, storage)), total };
}

/** The pending (or last rejected) revision of a class, for its teacher or an admin. */
export async function getCurrentRevision(
  db: Db,
  storage: ImageStorage,
  viewer: Viewer,
  classId: string,
): Promise<{ revision: ClassRevision | null }> {
  const cls = await repo.findClassById(db, classId);
  if (!cls) throw notFound('Class');
  if (cls.teacherId !== viewer.id && !viewer.isAdmin)
    throw forbidden('Only the teacher of this class or an admin can see its changes');
  const row = await revisions.findCurrentRevision(db, classId);
  return { revision: row ? toClassRevision(row, cls, storage) : null };
}

/**
 * An admin approves (the proposed fields go live, in one transaction) or rejects (with a reason
 * its teacher sees) a pending revision; audited like class moderation. Only while pending, and
 * only the version the admin reviewed (decision 027): a teacher's later edit refuses it (409).
 */
export async function decideRevision(
  db: Db,
  admin: Viewer,
  id: string,
  decision:
    { status: 'approved'; version: string } | { status: 'rejected'; version: string; reason?: string | undefined },
  now: Date,
  publicUrl: string,
  notifications: NotificationPublisher,
): Promise<ClassModifiedResponse> {
  const found = await revisions.findRevisionById(db, id);
  if (!found) throw notFound('Revision');
  const reason = decision.status === 'rejected' && decision.reason ? decision.reason : null;
  return db.transaction(async (tx) => {
    // The class first, as proposeRevision does: one lock order, no deadlock between the two.
    const cls = await revisions.lockClass(tx, found.classId);
    // Under the class lock a teacher's edit (proposeRevision) waits, so the version read is the one decided.
    const reviewed = await revisions.findRevisionById(tx, id);
    if (cls && reviewed?.status === 'pending' && moderationVersion(reviewed) !== decision.version) {
      throw conflict(VERSION_CHANGED);
    }
    const decided = await revisions.decidePendingRevision(tx, id, {
      status: decision.status,
      rejectionReason: reason,
      decidedBy: admin.id,
      now,
    });
    if (!decided || !cls) {
      const existing = await revisions.findRevisionById(tx, id);
      if (!existing || !cls) throw notFound('Revision');
      throw conflict(`This revision is ${existing.status}, not pending`);
    }
    const fields = namesOf(decided);
    if (decision.status === 'approved') {
      const patch: ClassPatch = {};
      for (const field of fields) Object.assign(patch, { [field]: decided[field] });
      await revisions.applyToClass(tx, cls.id, patch, now);
    }
    await recordAudit(tx, admin, {
      action: decision.status === 'approved' ? 'class.revision.approve' : 'class.revision.reject',
      targetType: 'class',
      targetId: cls.id,
      targetLabel: cls.title,
      details: { teacherEmail: cls.teacherEmail, revisionId: decided.id, fields, ...(reason ? { reason } : {}) },
    });
    const approved = decision.status === 'approved';
    await notify(
      tx,
      notifications,
      {
        recipientId: cls.teacherId,
        kind: 'moderation',
        title: `Your changes to “${cls.title}” ${approved ? 'were approved' : 'were not approved'}`,
        body: approved ? 'They are live on the class page.' : (reason ?? 'See the reason on the class page.'),
        link: `/dashboard/my-class/${cls.id}`,
      },
      now,
    );
    if (await wantsNotification(tx, cls.teacherEmail, 'classReviews')) {
      await queueMail(
        tx,
        cls.teacherEmail,
        classDecidedMail({
          publicUrl,
          teacherName: cls.teacherName,
          title: cls.title,
          approved: decision.status === 'approved',
          reason,
          revision: true,
        }),
      );
    }
    return { modifiedCount: 1, success: true as const };
  });
}
