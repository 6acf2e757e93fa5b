import type { ClassSession } from '@skillhive/shared/contracts/content';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import type { SaveSessionBody, WeeklySessionsBody } from '@skillhive/shared/rules/content-forms';
import { canonicalTimeZone } from '@skillhive/shared/rules/time-zone-names';
import { fromLocalDateTime, weeklyLocalTimes } from '@skillhive/shared/rules/time-zones';
import type { Db } from '../../db/client.ts';
import { SECTION_MESSAGES } from '@skillhive/shared/rules/sections';
import { AppError, ErrorCode, conflict } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { queueMail, sessionRescheduledMail } from '../mail/mail.service.ts';
import { assertStartsAfterDeadline, findSectionOfClass, sectionForNewSession } from '../sections/sections.public.ts';
import { contactEmailOf } from '../users/contact.public.ts';
import { type ContentDeps, MINUTE_MS, loadOwnedClass, loadOwnedSession } from './content-access.ts';
import { type ContentList, insertAllAtEnd, publishedAtAfter, reorder } from './content-lists.ts';
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

/**
 * The stored fields of a session form. The zone is stored under its current IANA name: the form
 * accepts any name the runtime knows, old ones too ("Asia/Calcutta"), but the editor's picker lists
 * current names only, so a stored old name could not be shown back as chosen, and one zone would
 * have two spellings across a class's sessions and sections (decision 021).
 */
function sessionValues(body: SaveSessionBody) {
  return {
    title: body.title,
    startsAt: startInstant(body),
    timeZone: canonicalTimeZone(body.timeZone),
    durationMinutes: body.durationMinutes,
    meetingUrl: body.meetingUrl || null,
    location: body.location || null,
  };
}

/** Each week's start of a repeated session; a week whose local time the clocks skip is refused by its date. */
function weeklyInstants(body: WeeklySessionsBody): Date[] {
  return weeklyLocalTimes(body.startsAt, body.weeks).map((local) => {
    const instant = fromLocalDateTime(local, body.timeZone);
    if (!instant) {
      const message = CONTENT_MESSAGES.weekSkipped(local.slice(0, 10));
      throw new AppError(ErrorCode.VALIDATION, message, { fields: { startsAt: message } });
    }
    return instant;
  });
}

const SESSIONS: ContentList<repo.SessionRow, ReturnType<typeof sessionValues> & { sectionId: string }> = {
  count: repo.countSessions,
  insert: repo.insertSession,
  listAll: (tx, classId) => repo.listSessionsOfClass(tx, classId, { publishedOnly: false }),
  setOrder: repo.setSessionOrder,
};

/**
 * POST /api/classes/:id/sessions/weekly: the session and the same local time each following week,
 * `weeks` drafts in all, added at the end of the list in one transaction (all or none). Drafts
 * can be prepared from the moment the class exists, pending review too: nobody but its teacher and
 * admins sees a draft, and the public schedule shows published sessions of accepted classes only.
 */
export async function createWeeklySessions(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  body: WeeklySessionsBody,
): Promise<ClassSession[]> {
  const values = sessionValues(body);
  const starts = weeklyInstants(body);
  await loadOwnedClass(deps.db, viewer, classId);
  const rows = await deps.db.transaction(async (tx) => {
    const { section, isNew } = await sectionForNewSession(tx, classId, {
      sectionId: body.sectionId || undefined,
      timeZone: values.timeZone,
    });
    // The class's first section: its students so far (bought while it had no sessions) are in it.
    if (isNew) await enrollments.attachEnrollmentsToSection(tx, classId, section.id);
    // The first week is the earliest: checking it checks them all.
    assertStartsAfterDeadline(section, starts[0]!);
    return insertAllAtEnd(
      { db: tx },
      SESSIONS,
      classId,
      starts.map((startsAt) => ({ ...values, startsAt, sectionId: section.id })),
    );
  });
  const view = teacherView(deps);
  return rows.map((row) => toSession(row, view));
}

/** POST /api/classes/:id/sessions: one draft at the end of the list. */
export async function createSession(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  body: SaveSessionBody,
): Promise<ClassSession> {
  const [session] = await createWeeklySessions(deps, viewer, classId, { ...body, weeks: 1 });
  return session!;
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
    // Decision 041: a session may move to another running section of its class, and never starts
    // before its section's enrollment deadline.
    const section = await findSectionOfClass(tx, before.classId, body.sectionId || before.sectionId);
    if (section.id !== before.sectionId && section.status === 'cancelled') throw conflict(SECTION_MESSAGES.cancelled);
    assertStartsAfterDeadline(section, values.startsAt);
    const updated = await repo.updateSession(tx, id, { ...values, sectionId: section.id, updatedAt: deps.now() });
    const moved =
      before.startsAt.getTime() !== updated.startsAt.getTime() || before.durationMinutes !== updated.durationMinutes;
    if (before.publishedAt && moved) await notifyRescheduled(tx, deps, before, updated);
    return updated;
  });
  return toSession(row, teacherView(deps));
}

/** Reschedule mails are coalesced to one per session and student within this time (decision 027). */
export const MOVE_MAIL_EVERY_MS = 60 * MINUTE_MS;

type Told = { startsAt: Date; timeZone: string };

/** Queues one reschedule mail, from what the student was last told to the session as it is, and records it. */
async function mailMove(
  tx: Db,
  deps: Pick<ContentDeps, 'publicUrl' | 'now'>,
  mail: { studentId: string; classTitle: string; told: Told; session: repo.SessionRow },
): Promise<boolean> {
  const { session } = mail;
  const contact = await contactEmailOf(tx, mail.studentId);
  if (!contact) return false;
  await queueMail(
    tx,
    contact.email,
    sessionRescheduledMail({
      publicUrl: deps.publicUrl,
      name: contact.name,
      classId: session.classId,
      classTitle: mail.classTitle,
      sessionTitle: session.title,
      before: mail.told,
      after: { startsAt: session.startsAt, timeZone: session.timeZone, durationMinutes: session.durationMinutes },
    }),
  );
  await repo.saveMoveNotice(tx, {
    sessionId: session.id,
    studentId: mail.studentId,
    toldStartsAt: session.startsAt,
    toldTimeZone: session.timeZone,
    toldDurationMinutes: session.durationMinutes,
    mailedAt: deps.now(),
  });
  return true;
}

/**
 * Every paid student hears of a move, at most once per session per MOVE_MAIL_EVERY_MS: within
 * that time of their last mail the move is only marked owed, and sendOwedMoveMails tells the
 * outcome when the time is over (decision 027).
 */
async function notifyRescheduled(tx: Db, deps: ContentDeps, before: repo.SessionRow, after: repo.SessionRow) {
  const cls = await findClassForEnrollment(tx, after.classId);
  if (!cls) return;
  const now = deps.now();
  for (const studentId of await enrollments.listPaidStudentIdsOfClass(tx, after.classId)) {
    const notice = await repo.lockMoveNotice(tx, after.id, studentId);
    if (notice && now.getTime() - notice.mailedAt.getTime() < MOVE_MAIL_EVERY_MS) {
      await repo.setMoveOwed(tx, after.id, studentId, now);
      continue;
    }
    const told = notice ? { startsAt: notice.toldStartsAt, timeZone: notice.toldTimeZone } : before;
    await mailMove(tx, deps, { studentId, classTitle: cls.title, told, session: after });
  }
}

/**
 * The reminder job's second pass: owed reschedule mails whose hour is over, each telling the
 * session's time now against the one last mailed; none when it moved back, was unpublished, or the
 * student no longer has paid for the class. Safe on several instances (SKIP LOCKED).
 */
export async function sendOwedMoveMails(deps: Pick<ContentDeps, 'db' | 'now' | 'publicUrl'>): Promise<number> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    let sent = 0;
    for (const { notice, session } of await repo.claimOwedMoveNotices(
      tx,
      new Date(now.getTime() - MOVE_MAIL_EVERY_MS),
      200,
    )) {
      const moved =
        session.startsAt.getTime() !== notice.toldStartsAt.getTime() ||
        session.durationMinutes !== notice.toldDurationMinutes;
      const cls = await findClassForEnrollment(tx, session.classId);
      const stillDue =
        moved &&
        session.publishedAt !== null &&
        cls !== null &&
        cls.status !== 'archived' &&
        (await enrollments.hasPaidFor(tx, notice.studentId, session.classId));
      const told = { startsAt: notice.toldStartsAt, timeZone: notice.toldTimeZone };
      if (
        stillDue &&
        (await mailMove(tx, deps, { studentId: notice.studentId, classTitle: cls.title, told, session }))
      ) {
        sent++;
      } else {
        await repo.setMoveOwed(tx, notice.sessionId, notice.studentId, null);
      }
    }
    return sent;
  });
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
