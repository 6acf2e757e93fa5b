import type { ContentRole } from '@skillhive/shared/contracts/content';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import type { ImageStorage } from '../uploads/storage.public.ts';
import * as repo from './content.repository.ts';

/** Serialises changes to one class's list (positions, the item cap) without locking the class row. */
export const lockClassContent = repo.lockClassContent;

export const MINUTE_MS = 60_000;

/** What the content module needs from outside (env settings, the clock, the storage). */
export interface ContentDeps {
  db: Db;
  storage: ImageStorage;
  now: () => Date;
  publicUrl: string;
  /** MEETING_LINK_OPEN_MINUTES: how long before a session its link is shown to students. */
  meetingLinkOpenMinutes: number;
  /** MATERIAL_MAX_MB in bytes. */
  materialMaxBytes: number;
  /** MATERIAL_QUOTA_MB in bytes: the class-material files a teacher may have stored. */
  materialQuotaBytes: number;
  /** Material uploads per user (RATE_LIMIT_UPLOADS_PER_MINUTE), counted before the body is read. */
  materialUploadsPerUser: Limiter;
}

export type ClassRef = NonNullable<Awaited<ReturnType<typeof findClassForEnrollment>>>;

/** Before an upload's body is read: only the class's teacher may send one (404 / 403 otherwise). */
export async function assertTeachesClass(deps: ContentDeps, viewer: Viewer, classId: string): Promise<void> {
  await loadOwnedClass(deps.db, viewer, classId);
}

/** The class, for its teacher only (a 404 for an unknown class, 403 for anyone else). */
export async function loadOwnedClass(db: Db, viewer: Viewer, classId: string): Promise<ClassRef> {
  if (!enrollments.isUuid(classId)) throw notFound('Class');
  const cls = await findClassForEnrollment(db, classId);
  if (!cls) throw notFound('Class');
  if (cls.teacherId !== viewer.id) throw forbidden(CONTENT_MESSAGES.notOwner);
  return cls;
}

/**
 * Why the caller may open a class's content: its teacher, an admin, or a student whose enrollment
 * is paid now (not pending, not refunded: a refund takes access away at once). Anyone else: 409,
 * the business refusal "not paid" answers for reviews too (DESIGN §3).
 */
export async function loadViewableClass(
  db: Db,
  viewer: Viewer,
  classId: string,
): Promise<{ cls: ClassRef; role: ContentRole }> {
  if (!enrollments.isUuid(classId)) throw notFound('Class');
  const cls = await findClassForEnrollment(db, classId);
  if (!cls) throw notFound('Class');
  if (cls.teacherId === viewer.id) return { cls, role: 'teacher' };
  if (await enrollments.hasPaidFor(db, viewer.id, classId)) return { cls, role: 'student' };
  if (viewer.isAdmin) return { cls, role: 'admin' };
  const refunded = await enrollments.wasRefundedFor(db, viewer.id, classId);
  throw conflict(refunded ? CONTENT_MESSAGES.refunded : CONTENT_MESSAGES.notPaid);
}

/** A session or material by id: a 404 naming `what` for an id that is not a uuid or is unknown. */
export async function loadItem<Row>(
  what: 'Session' | 'Material',
  id: string,
  find: (id: string) => Promise<Row | null>,
): Promise<Row> {
  if (!enrollments.isUuid(id)) throw notFound(what);
  const item = await find(id);
  if (!item) throw notFound(what);
  return item;
}

export async function loadOwnedSession(db: Db, viewer: Viewer, id: string, lock = false) {
  const session = await loadItem('Session', id, (sessionId) => repo.findSession(db, sessionId, { lock }));
  await loadOwnedClass(db, viewer, session.classId);
  return session;
}

export async function loadOwnedMaterial(db: Db, viewer: Viewer, id: string, lock = false) {
  const material = await loadItem('Material', id, (materialId) => repo.findMaterial(db, materialId, { lock }));
  await loadOwnedClass(db, viewer, material.classId);
  return material;
}

/**
 * The sections whose sessions a reader follows (decision 041): a student, the ones they paid for;
 * undefined (every section) for the teacher and admins, and for a student whose paid line names
 * none (a class that had no sections when it was bought and has none now).
 */
export async function sectionsReadBy(
  db: Db,
  viewer: Viewer,
  classId: string,
  role: ContentRole,
): Promise<string[] | undefined> {
  if (role !== 'student') return undefined;
  const ids = await enrollments.listPaidSectionIdsOf(db, viewer.id, classId);
  return ids.length > 0 ? ids : undefined;
}
