import type { ClassSession } from '@skillhive/shared/contracts/content';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import type { SaveSessionBody } from '@skillhive/shared/rules/content-forms';
import { fromLocalDateTime } from '@skillhive/shared/rules/time-zones';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { queueMail, sessionRescheduledMail } from '../mail/mail.service.ts';
import { contactEmailOf } from '../users/contact.ts';
import { type ContentDeps, loadOwnedClass, loadOwnedSession } from './content-access.ts';
import { type ContentList, insertAtEnd, publishedAtAfter, reorder } from './content-lists.ts';
import { teacherView, toSession } from './content-views.ts';
import * as repo from './content.repository.ts';

/** A class's sessions: the teacher's drafts, their publication, order and moves. */

/** The instant of the form's wall-clock start in its zone; a time the clocks skip is refused. */
function startInstant(body: SaveSessionBody): Date {
  const instant = fromLocalDateTime(body.startsAt, body.timeZone);
  if (!instant) {
    throw new AppError(ErrorCode.VALIDATION, CONTENT_MESSAGES.startSkipped, {
      fields: { startsAt: CONTENT_MESSAGES.startSkipped },
    });
  }
  return instant;
}

function sessionValues(body: SaveSessionBody) {
  return {
    title: body.title,
    startsAt: startInstant(body),
    timeZone: body.timeZone,
    durationMinutes: body.durationMinutes,
    meetingUrl: body.meetingUrl || null,
    location: body.location || null,
  };
}

const SESSIONS: ContentList<repo.SessionRow, ReturnType<typeof sessionValues>> = {
  count: repo.countSessions,
  insert: repo.insertSession,
  listAll: (tx, classId) => repo.listSessionsOfClass(tx, classId, { publishedOnly: false }),
  setOrder: repo.setSessionOrder,
};

/** POST /api/classes/:id/sessions: a draft at the end of the list. */
export async function createSession(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  body: SaveSessionBody,
): Promise<ClassSession> {
  const values = sessionValues(body);
  await loadOwnedClass(deps.db, viewer, classId);
  return toSession(await insertAtEnd(deps, SESSIONS, classId, values), teacherView(deps));
}

/**
 * PATCH /api/class-sessions/:id: the whole form. Moving a published session to another start
 * tells every paid student by mail, in the same transaction as the change (decision 021).
 */
export async function updateSession(
  deps: ContentDeps,
  viewer: Viewer,
  id: string,
  body: SaveSessionBody,
): Promise<ClassSession> {
  const values = sessionValues(body);
  const row = await deps.db.transaction(async (tx) => {
    const before = await loadOwnedSession(tx, viewer, id, true);
    const updated = await repo.updateSession(tx, id, { ...values, updatedAt: deps.now() });
    const moved =
      before.startsAt.getTime() !== updated.startsAt.getTime() || before.durationMinutes !== updated.durationMinutes;
    if (before.publishedAt && moved) await notifyRescheduled(tx, deps, before, updated);
    return updated;
  });
  return toSession(row, teacherView(deps));
}

async function notifyRescheduled(tx: Db, deps: ContentDeps, before: repo.SessionRow, after: repo.SessionRow) {
  const cls = await findClassForEnrollment(tx, after.classId);
  if (!cls) return;
  for (const studentId of await enrollments.listPaidStudentIdsOfClass(tx, after.classId)) {
    const contact = await contactEmailOf(tx, studentId);
    if (!contact) continue;
    await queueMail(
      tx,
      contact.email,
      sessionRescheduledMail({
        publicUrl: deps.publicUrl,
        name: contact.name,
        classId: after.classId,
        classTitle: cls.title,
        sessionTitle: after.title,
        before: { startsAt: before.startsAt, timeZone: before.timeZone },
        after: { startsAt: after.startsAt, timeZone: after.timeZone, durationMinutes: after.durationMinutes },
      }),
    );
  }
}

export async function publishSession(
  deps: ContentDeps,
  viewer: Viewer,
  id: string,
  published: boolean,
): Promise<ClassSession> {
  const row = await deps.db.transaction(async (tx) => {
    const session = await loadOwnedSession(tx, viewer, id, true);
    return repo.updateSession(tx, id, {
      publishedAt: publishedAtAfter(published, session, deps.now()),
      updatedAt: deps.now(),
    });
  });
  return toSession(row, teacherView(deps));
}

export async function deleteSession(deps: ContentDeps, viewer: Viewer, id: string): Promise<{ deletedCount: number }> {
  await loadOwnedSession(deps.db, viewer, id);
  return { deletedCount: await repo.deleteSession(deps.db, id) };
}

export async function reorderSessions(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  ids: string[],
): Promise<ClassSession[]> {
  const rows = await reorder(deps, viewer, SESSIONS, classId, ids);
  const view = teacherView(deps);
  return rows.map((row) => toSession(row, view));
}
