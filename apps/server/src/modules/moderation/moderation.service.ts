import type { AdminReport } from '@skillhive/shared/contracts/moderation';
import type { ReportAction, ReportReason, ReportStatus, ReportTargetType } from '@skillhive/shared/rules/constants';
import { REPORT_MESSAGES } from '@skillhive/shared/rules/messages';
import { type CreateReportBody, REPORTED_THING } from '@skillhive/shared/rules/report-form';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { deleteSessionsOfUser } from '../auth/sessions.public.ts';
import { findClassForEnrollment, hideClasses, restoreClassesOfTeacher } from '../classes/classes.public.ts';
import { moderationNoticeMail, queueMail, reportOutcomeMail } from '../mail/mail.service.ts';
import { findMessageWithThread, hideMessage } from '../messages/messages.public.ts';
import { type NotificationPublisher, notify } from '../notifications/notifications.public.ts';
import * as reviews from '../reviews/reviews.service.ts';
import { contactEmailOf, findModerationSubjects } from '../users/contact.public.ts';
import { setSuspension } from '../users/users.service.ts';
import * as repo from './moderation.repository.ts';

/*
 * Reports and suspensions (decision 043). Anyone signed in reports a class, a review, a reply to
 * a review (decision 046) or a user;
 * admins work the queue: dismiss, hide the content, warn, or suspend its owner. Each owner module
 * does its own part in the decision's transaction (sessions in auth, classes, reviews, users), and
 * the decision, the mails and the audit entry commit together.
 */

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LABEL_MAX = 200;

const NOT_FOUND_NAME = { class: 'Class', review: 'Review', user: 'User', message: 'Message', reply: 'Reply' } as const;

interface ResolvedTarget {
  label: string;
  ownerId: string | null;
}

function clip(text: string): string {
  return text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text;
}

/**
 * What a report is about, as the reporter can see it now; null when there is no such thing to
 * report. A message is reported only by one of its thread's two people (decision 045).
 */
async function resolveTarget(
  db: Db,
  viewer: Viewer,
  type: ReportTargetType,
  id: string,
): Promise<ResolvedTarget | null> {
  if (type === 'message') {
    if (!UUID_PATTERN.test(id)) return null;
    const found = await findMessageWithThread(db, id);
    if (!found || found.message.hiddenAt) return null;
    const { thread } = found;
    if (thread.studentId !== viewer.id && thread.teacherId !== viewer.id) return null;
    return { label: clip(found.message.body), ownerId: found.message.senderId };
  }
  if (type === 'class') {
    if (!UUID_PATTERN.test(id)) return null;
    const found = await findClassForEnrollment(db, id);
    // Only what the public sees can be reported; a hidden or archived class already is not.
    return found && found.status === 'accepted' ? { label: found.title, ownerId: found.teacherId } : null;
  }
  if (type === 'reply') {
    // A reply is public while its review is (decision 046); the teacher who wrote it owns it.
    const reply = await reviews.findReplySummary(db, id);
    if (!reply || reply.hiddenAt || reply.reviewHiddenAt) return null;
    return { label: clip(`Reply from the teacher: "${reply.text}"`), ownerId: reply.teacherId };
  }
  if (type === 'review') {
    const review = await reviews.findReviewSummary(db, id);
    if (!review || review.hiddenAt) return null;
    const text = review.details ? `: "${review.details}"` : ` (${review.rating} stars)`;
    return { label: clip(`${review.authorName}${text}`), ownerId: review.studentId };
  }
  const subject = (await findModerationSubjects(db, [id])).get(id);
  return subject ? { label: subject.name, ownerId: id } : null;
}

/** POST /api/reports: a signed-in person reports something they can see, not their own. */
export async function createReport(db: Db, viewer: Viewer, body: CreateReportBody): Promise<{ insertedId: string }> {
  const target = await resolveTarget(db, viewer, body.targetType, body.targetId);
  if (!target) throw notFound(NOT_FOUND_NAME[body.targetType]);
  if (target.ownerId === viewer.id) throw conflict(REPORT_MESSAGES.ownContent);
  const id = await repo.insertReport(db, {
    reporterId: viewer.id,
    targetType: body.targetType,
    targetId: body.targetId,
    targetLabel: target.label,
    ownerId: target.ownerId,
    reason: body.reason,
    details: body.details,
  });
  if (!id) throw conflict(REPORT_MESSAGES.alreadyReported);
  return { insertedId: id };
}

function targetPathOf(
  row: repo.ReportRow,
  classIdOfTarget: Map<string, string>,
  threadIdOfMessage: Map<string, string>,
): string | null {
  if (row.targetType === 'class') return `/classes/${row.targetId}`;
  // Admins read a reported message in its conversation (decision 045).
  const threadId = row.targetType === 'message' ? threadIdOfMessage.get(row.targetId) : undefined;
  if (threadId) return `/dashboard/messages/${threadId}`;
  const classId =
    row.targetType === 'review' || row.targetType === 'reply' ? classIdOfTarget.get(row.targetId) : undefined;
  return classId ? `/classes/${classId}` : null;
}

/** GET /api/admin/reports: the queue, with who reported and whose content it is. */
export async function listReports(
  db: Db,
  query: { page: number; limit: number; status?: ReportStatus | undefined },
): Promise<{ items: AdminReport[]; total: number }> {
  const { rows, total } = await repo.listReports(db, { status: query.status, ...limitOffsetOf(query) });
  const people = await findModerationSubjects(db, [
    ...new Set(rows.flatMap((row) => [row.ownerId, row.reporterId]).filter((id): id is string => id !== null)),
  ]);
  const classIdOfTarget = new Map<string, string>();
  const threadIdOfMessage = new Map<string, string>();
  for (const row of rows) {
    if (row.targetType === 'message') {
      const found = await findMessageWithThread(db, row.targetId);
      if (found) threadIdOfMessage.set(row.targetId, found.thread.id);
    }
    if (row.targetType === 'reply') {
      const reply = await reviews.findReplySummary(db, row.targetId);
      if (reply) classIdOfTarget.set(row.targetId, reply.classId);
    }
    if (row.targetType !== 'review') continue;
    const review = await reviews.findReviewSummary(db, row.targetId);
    if (review) classIdOfTarget.set(row.targetId, review.classId);
  }
  return {
    items: rows.map((row) => ({
      _id: row.id,
      targetType: row.targetType as ReportTargetType,
      targetId: row.targetId,
      targetLabel: row.targetLabel,
      targetPath: targetPathOf(row, classIdOfTarget, threadIdOfMessage),
      ownerId: row.ownerId,
      ownerName: row.ownerId ? (people.get(row.ownerId)?.name ?? null) : null,
      ownerSuspended: row.ownerId ? (people.get(row.ownerId)?.suspended ?? false) : false,
      reason: row.reason as ReportReason,
      details: row.details,
      reporterId: row.reporterId,
      reporterName: row.reporterId ? (people.get(row.reporterId)?.name ?? null) : null,
      status: row.status as ReportStatus,
      action: row.action,
      note: row.note,
      createdAt: row.createdAt.toISOString(),
      decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
    })),
    total,
  };
}

/**
 * Suspends an account in the caller's transaction (decision 043): the flag (which refuses its
 * sessions, tokens and sign-ins from now on), every session ended (and with them every token),
 * its classes and reviews off the public lists. Payments, enrollments and earnings are not
 * touched: financial records outlive what they refer to (DESIGN §4).
 */
async function suspendAccount(tx: Db, userId: string, now: Date): Promise<void> {
  await setSuspension(tx, userId, now);
  await deleteSessionsOfUser(tx, userId);
  await hideClasses(tx, { teacherId: userId }, 'suspension', now);
  await reviews.hideReviews(tx, { studentId: userId }, 'suspension', now);
}

export interface Decision {
  modifiedCount: number;
  /** Whether public lists changed (the caller forgets its cached catalogue). */
  changesPublicLists: boolean;
}

/**
 * POST /api/admin/reports/:id/decision: decides an open report, and with it every open report of
 * the same target. Reporters are told the outcome, the owner is told of a warning, a hidden item or
 * a suspension, and the decision is audited.
 */
export async function decideReport(
  db: Db,
  actor: Viewer,
  reportId: string,
  input: { action: ReportAction; note?: string | undefined },
  deps: { now: Date; publicUrl: string; notifications: NotificationPublisher },
): Promise<Decision> {
  const { now, publicUrl } = deps;
  if (!UUID_PATTERN.test(reportId)) throw notFound('Report');
  const note = input.note ? input.note : null;
  return db.transaction(async (tx) => {
    const report = await repo.findReportForUpdate(tx, reportId);
    if (!report) throw notFound('Report');
    if (report.status !== 'open') throw conflict(REPORT_MESSAGES.notOpen);
    const targetType = report.targetType as ReportTargetType;
    const owner = report.ownerId ? (await findModerationSubjects(tx, [report.ownerId])).get(report.ownerId) : undefined;

    if (input.action === 'hide') {
      if (targetType === 'user') throw conflict(REPORT_MESSAGES.cannotHide);
      if (targetType === 'class') await hideClasses(tx, { classId: report.targetId }, 'content', now);
      else if (targetType === 'message') await hideMessage(tx, report.targetId, now);
      else if (targetType === 'reply') await reviews.hideReply(tx, report.targetId, now);
      else await reviews.hideReviews(tx, { reviewId: report.targetId }, 'content', now);
    }
    if (input.action === 'suspend') {
      if (!report.ownerId || !owner) throw conflict('The reported account no longer exists');
      if (owner.isAdmin) throw conflict(REPORT_MESSAGES.cannotSuspendAdmin);
      await suspendAccount(tx, report.ownerId, now);
    }
    // A warning or a hidden item is news in the owner's notification centre too (decision 047);
    // a suspended owner cannot sign in to read it, so the mail tells them.
    if ((input.action === 'warn' || input.action === 'hide') && owner && report.ownerId) {
      await notify(
        tx,
        deps.notifications,
        {
          recipientId: report.ownerId,
          kind: 'moderation',
          title: input.action === 'warn' ? 'A warning from the admins' : 'An admin hid something you wrote',
          body: `About ${REPORTED_THING[targetType]}: ${report.targetLabel}`,
          link: '/dashboard',
        },
        now,
      );
    }
    if (input.action !== 'dismiss' && owner) {
      await queueMail(
        tx,
        owner.email,
        moderationNoticeMail({
          publicUrl,
          name: owner.name,
          action: input.action,
          targetType,
          targetLabel: report.targetLabel,
          note,
        }),
      );
    }

    const closed = await repo.closeOpenReportsOf(tx, report, { action: input.action, note, decidedBy: actor.id, now });
    for (const reporterId of new Set(closed.map((row) => row.reporterId))) {
      const reporter = reporterId ? await contactEmailOf(tx, reporterId) : null;
      if (!reporter || !reporterId) continue;
      await notify(
        tx,
        deps.notifications,
        {
          recipientId: reporterId,
          kind: 'moderation',
          title: 'An admin looked at your report',
          body:
            input.action === 'dismiss'
              ? `Nothing was changed about ${REPORTED_THING[targetType]} you reported.`
              : `We took action about ${REPORTED_THING[targetType]} you reported.`,
          link: '/dashboard',
        },
        now,
      );
      await queueMail(
        tx,
        reporter.email,
        reportOutcomeMail({ publicUrl, name: reporter.name, targetType, actioned: input.action !== 'dismiss' }),
      );
    }
    await recordAudit(tx, actor, {
      action: `report.${input.action}`,
      targetType,
      targetId: report.targetId,
      targetLabel: report.targetLabel,
      details: { reports: closed.length, ownerId: report.ownerId, reason: report.reason, note },
    });
    return { modifiedCount: closed.length, changesPublicLists: input.action === 'hide' || input.action === 'suspend' };
  });
}

/**
 * POST /api/admin/users/:id/suspension: an admin suspends an account directly (the queue's
 * suspend, without a report). Not themself, not another admin.
 */
export async function suspendUser(
  db: Db,
  actor: Viewer,
  userId: string,
  input: { note?: string | undefined },
  now: Date,
  publicUrl: string,
): Promise<Decision> {
  return db.transaction(async (tx) => {
    const subject = (await findModerationSubjects(tx, [userId])).get(userId);
    if (!subject) throw notFound('User');
    if (subject.isAdmin) throw conflict(REPORT_MESSAGES.cannotSuspendAdmin);
    if (subject.suspended) throw conflict('This account is already suspended');
    await suspendAccount(tx, userId, now);
    const note = input.note ? input.note : null;
    await queueMail(
      tx,
      subject.email,
      moderationNoticeMail({
        publicUrl,
        name: subject.name,
        action: 'suspend',
        targetType: 'user',
        targetLabel: subject.name,
        note,
      }),
    );
    await recordAudit(tx, actor, {
      action: 'user.suspend',
      targetType: 'user',
      targetId: userId,
      targetLabel: subject.email,
      details: { note },
    });
    return { modifiedCount: 1, changesPublicLists: true };
  });
}

/**
 * DELETE /api/admin/users/:id/suspension: lifts a suspension. The classes and reviews the
 * suspension hid come back as they were; what an admin hid on its own stays hidden.
 */
export async function reinstateUser(db: Db, actor: Viewer, userId: string, now: Date): Promise<Decision> {
  return db.transaction(async (tx) => {
    const subject = (await findModerationSubjects(tx, [userId])).get(userId);
    if (!subject) throw notFound('User');
    if (!(await setSuspension(tx, userId, null))) throw conflict(REPORT_MESSAGES.notSuspended);
    const classes = await restoreClassesOfTeacher(tx, userId, now);
    const restoredReviews = await reviews.restoreSuspendedReviews(tx, userId);
    await recordAudit(tx, actor, {
      action: 'user.reinstate',
      targetType: 'user',
      targetId: userId,
      targetLabel: subject.email,
      details: { classes: classes.length, reviews: restoredReviews },
    });
    return { modifiedCount: 1, changesPublicLists: true };
  });
}
