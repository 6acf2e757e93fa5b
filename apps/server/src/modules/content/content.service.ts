import type { ClassContent, PublishedDrafts } from '@skillhive/shared/contracts/content';
import type { PublishDraftsBody } from '@skillhive/shared/rules/content-forms';
import type { Viewer } from '../../lib/authorize.ts';
import { findSectionOfClass } from '../sections/sections.public.ts';
import {
  type ContentDeps,
  loadOwnedClass,
  loadViewableClass,
  lockClassContent,
  sectionsReadBy,
} from './content-access.ts';
import { toMaterial, toSession } from './content-views.ts';
import * as repo from './content.repository.ts';

/**
 * The content module's one entry point for routes and other modules. Its parts: who may see and
 * change a class's content (content-access.ts), sessions, materials, progress, the calendar and
 * the reminders job, each in its own file.
 */
export { assertTeachesClass, type ContentDeps } from './content-access.ts';
export { materialFileUrl } from './content-views.ts';
export {
  createSession,
  createWeeklySessions,
  deleteSession,
  publishSession,
  reorderSessions,
  updateSession,
} from './sessions.ts';
export {
  createFileMaterial,
  createLinkMaterial,
  deleteMaterial,
  openMaterialFile,
  publishMaterial,
  reorderMaterials,
  safeFileName,
  sniffMaterial,
  updateMaterial,
} from './materials.ts';
export { calendarOf } from './calendar.ts';
export {
  getProgress,
  hasVerifiedProgress,
  markAttendance,
  markCompletion,
  markStudentAttendance,
  progressSummaryOfClass,
} from './progress.ts';
export { sendDueReminders } from './session-reminders.ts';
export { listAnnouncements, postAnnouncement } from './announcements.ts';

/** Per section of a class: its session count and first start (the sections module's editor and checks). */
export const sessionSpansOfClass = repo.sessionSpansOfClass;
/** Published session times per section: the public schedule (decision 042) shows no link or material. */
export const publishedSessionTimesOfClass = repo.listPublishedSessionTimes;

/** GET /api/classes/:id/content: students see published items of their sections and their own marks. */
export async function getContent(deps: ContentDeps, viewer: Viewer, classId: string): Promise<ClassContent> {
  const { db } = deps;
  const { cls, role } = await loadViewableClass(db, viewer, classId);
  const publishedOnly = role === 'student';
  const sectionIds = await sectionsReadBy(db, viewer, classId, role);
  const [sessions, materials, marks] = await Promise.all([
    repo.listSessionsOfClass(db, classId, { publishedOnly, sectionIds }),
    repo.listMaterialsOfClass(db, classId, { publishedOnly }),
    role === 'student' ? repo.listMarksOfClass(db, classId, { studentId: viewer.id }) : null,
  ]);
  const attended = marks ? new Set(marks.attended.map((m) => m.sessionId)) : null;
  const done = marks ? new Set(marks.done.map((m) => m.materialId)) : null;
  const now = deps.now();
  return {
    classId,
    title: cls.title,
    viewerRole: role,
    meetingLinkOpenMinutes: deps.meetingLinkOpenMinutes,
    calendarUrl: `/api/classes/${classId}/calendar.ics`,
    sessions: sessions.map((s) => toSession(s, { role, now, openMinutes: deps.meetingLinkOpenMinutes, attended })),
    materials: materials.map((m) => toMaterial(m, done)),
  };
}

/**
 * POST /api/classes/:id/content/publish ("Publish all"): every draft session of the section named,
 * or, with none named, every draft session and material of the class, in one transaction. A
 * class still pending review may publish too: students cannot buy it and the public schedule
 * shows accepted classes only, so its sessions appear once an admin accepts it.
 */
export async function publishDrafts(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  body: PublishDraftsBody,
): Promise<PublishedDrafts> {
  await loadOwnedClass(deps.db, viewer, classId);
  return deps.db.transaction(async (tx) => {
    await lockClassContent(tx, classId);
    const sectionId = body.sectionId ? (await findSectionOfClass(tx, classId, body.sectionId)).id : null;
    const now = deps.now();
    const sessions = await repo.publishDraftSessions(tx, classId, { sectionId, now });
    const materials = sectionId ? 0 : await repo.publishDraftMaterials(tx, classId, now);
    return { sessions, materials };
  });
}
