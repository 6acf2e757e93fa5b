import type { ClassProgress, ClassProgressSummary } from '@skillhive/shared/contracts/content';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import { DELETED_STUDENT_NAME } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { contactEmailOf } from '../users/contact.public.ts';
import { type ContentDeps, loadItem, loadOwnedSession } from './content-access.ts';
import * as repo from './content.repository.ts';

/** Students' own marks (attendance, completion) and the class's progress figures. */

/**
 * The session or material a student marks as their own: 409 unless their enrollment in its class is
 * paid, then a 404 for a draft as for an unknown id.
 */
async function loadMarkable<Row extends { classId: string; publishedAt: Date | null }>(
  deps: ContentDeps,
  viewer: Viewer,
  what: 'Session' | 'Material',
  id: string,
  find: (db: Db, id: string) => Promise<Row | null>,
): Promise<Row> {
  const item = await loadItem(what, id, (itemId) => find(deps.db, itemId));
  if (!(await enrollments.hasPaidFor(deps.db, viewer.id, item.classId))) throw conflict(CONTENT_MESSAGES.notPaid);
  if (!item.publishedAt) throw notFound(what);
  return item;
}

/**
 * Whether a session is one of the student's own (decision 041 §8, 053): of a section they paid
 * for, or of any section when a paid line of theirs names none.
 */
function isOwnSession(sections: (string | null)[] | undefined, sessionSectionId: string): boolean {
  if (!sections || sections.length === 0) return true;
  return sections.some((sectionId) => sectionId === null || sectionId === sessionSectionId);
}

/** PUT /api/class-sessions/:id/attendance: the caller's own mark, once the session has started. */
export async function markAttendance(
  deps: ContentDeps,
  viewer: Viewer,
  sessionId: string,
  done: boolean,
): Promise<{ done: boolean }> {
  const session = await loadMarkable(deps, viewer, 'Session', sessionId, repo.findSession);
  // Another section's session is not the student's to attend (decision 053); unmarking stays allowed.
  const own = (await enrollments.paidSectionsByStudent(deps.db, session.classId)).get(viewer.id);
  if (done && !isOwnSession(own, session.sectionId)) throw conflict(CONTENT_MESSAGES.otherSection);
  if (done && deps.now().getTime() < session.startsAt.getTime()) throw conflict(CONTENT_MESSAGES.notStarted);
  await repo.markAttendance(deps.db, sessionId, viewer.id, done);
  return { done };
}

/**
 * PUT /api/class-sessions/:id/attendance/:studentId: the class's teacher marks a student
 * (decision 053). The student must have paid for the class (409) and be in the session's section
 * (409, as their own mark); the session must be published (404) and, to mark it attended, started.
 */
export async function markStudentAttendance(
  deps: ContentDeps,
  viewer: Viewer,
  sessionId: string,
  studentId: string,
  done: boolean,
): Promise<{ done: boolean }> {
  const session = await loadOwnedSession(deps.db, viewer, sessionId);
  if (!session.publishedAt) throw notFound('Session');
  const own = (await enrollments.paidSectionsByStudent(deps.db, session.classId)).get(studentId);
  if (!own) throw conflict(CONTENT_MESSAGES.studentNotPaid);
  if (done && !isOwnSession(own, session.sectionId)) throw conflict(CONTENT_MESSAGES.studentOtherSection);
  if (done && deps.now().getTime() < session.startsAt.getTime()) throw conflict(CONTENT_MESSAGES.notStarted);
  await repo.markAttendance(deps.db, sessionId, studentId, done);
  return { done };
}

/** PUT /api/materials/:id/completion: the caller's own mark. */
export async function markCompletion(
  deps: ContentDeps,
  viewer: Viewer,
  materialId: string,
  done: boolean,
): Promise<{ done: boolean }> {
  await loadMarkable(deps, viewer, 'Material', materialId, repo.findMaterial);
  await repo.markCompletion(deps.db, materialId, viewer.id, done);
  return { done };
}

async function computeProgress(db: Db, classId: string, now: Date): Promise<ClassProgress> {
  const [sessions, materials, marks, sectionsByStudent, held, enrolled] = await Promise.all([
    repo.listSessionsOfClass(db, classId, { publishedOnly: true }),
    repo.listMaterialsOfClass(db, classId, { publishedOnly: true }),
    repo.listMarksOfClass(db, classId),
    enrollments.paidSectionsByStudent(db, classId),
    repo.countHeldSessions(db, classId, now),
    enrollments.countPaidEnrollmentsOfClass(db, classId),
  ]);
  const sectionOf = new Map(sessions.map((session) => [session.id, session.sectionId]));
  const students = await Promise.all(
    [...sectionsByStudent.entries()].map(async ([studentId, own]) => {
      // A student's share is of their own section's sessions (decision 053), not of every section's.
      const ownSessions = sessions.filter((session) => isOwnSession(own, session.sectionId)).length;
      const items = ownSessions + materials.length;
      const attendedSessions = marks.attended.filter(
        (m) => m.studentId === studentId && isOwnSession(own, sectionOf.get(m.sessionId) ?? ''),
      ).length;
      const completedMaterials = marks.done.filter((m) => m.studentId === studentId).length;
      const contact = await contactEmailOf(db, studentId);
      return {
        studentId,
        name: contact?.name ?? DELETED_STUDENT_NAME,
        attendedSessions,
        completedMaterials,
        completion: items === 0 ? 0 : (attendedSessions + completedMaterials) / items,
      };
    }),
  );
  students.sort((a, b) => a.name.localeCompare(b.name));
  const average = students.length === 0 ? 0 : students.reduce((sum, s) => sum + s.completion, 0) / students.length;
  return {
    publishedSessions: sessions.length,
    publishedMaterials: materials.length,
    sessionsHeld: held.held,
    // Paid enrollments, a deleted student's kept line included (the class's figures do not change
    // when a student leaves); the per-student rows and the average are of the students who remain.
    studentsEnrolled: enrolled,
    averageCompletion: Math.round(average * 1000) / 1000,
    students,
  };
}

/** GET /api/classes/:id/progress: per student attendance and completion (the teacher, or an admin). */
export async function getProgress(deps: ContentDeps, viewer: Viewer, classId: string): Promise<ClassProgress> {
  if (!enrollments.isUuid(classId)) throw notFound('Class');
  const cls = await findClassForEnrollment(deps.db, classId);
  if (!cls) throw notFound('Class');
  if (cls.teacherId !== viewer.id && !viewer.isAdmin) {
    throw forbidden('Only the teacher of this class or an admin can see its progress');
  }
  return computeProgress(deps.db, classId, deps.now());
}

/** The admin's progress column and seeProgressDetails (classes module's class figures). */
export async function progressSummaryOfClass(db: Db, classId: string, now: Date): Promise<ClassProgressSummary> {
  const { students: _students, ...summary } = await computeProgress(db, classId, now);
  return summary;
}

/**
 * Verified reviews (decision 021): in a class with published content, a student may
 * review once they attended a session or finished a material; a class without content keeps the
 * rule "paid" alone.
 */
export async function hasVerifiedProgress(db: Db, studentId: string, classId: string): Promise<boolean> {
  if (!(await repo.hasPublishedContent(db, classId))) return true;
  const marks = await repo.listMarksOfClass(db, classId, { studentId });
  return marks.attended.length > 0 || marks.done.length > 0;
}
