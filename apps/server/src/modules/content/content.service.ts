import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type {
  ClassContent,
  ClassMaterial,
  ClassProgress,
  ClassProgressSummary,
  ClassSession,
  ContentRole,
} from '@skillhive/shared/contracts/content';
import { ACCEPTED_MATERIAL_TYPES, CONTENT_ITEMS_MAX, CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import type { LinkMaterialFormBody, SaveSessionBody, UpdateMaterialBody } from '@skillhive/shared/rules/content-forms';
import { DELETED_STUDENT_NAME } from '@skillhive/shared/rules/constants';
import { fromLocalDateTime, toLocalDateTime } from '@skillhive/shared/rules/time-zones';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { queueMail, sessionReminderMail, sessionRescheduledMail } from '../mail/mail.service.ts';
import type { ImageStorage } from '../uploads/storage.public.ts';
import { contactEmailOf } from '../users/contact.public.ts';
import * as repo from './content.repository.ts';

/** Serialises changes to one class's list (positions, the item cap) without locking the class row. */
const lockClassContent = repo.lockClassContent;

const MINUTE_MS = 60_000;

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
}

type ClassRef = NonNullable<Awaited<ReturnType<typeof findClassForEnrollment>>>;

// ---- Who may see and change a class's content -----------------------------------------------------

/** Before an upload's body is read: only the class's teacher may send one (404 / 403 otherwise). */
export async function assertTeachesClass(deps: ContentDeps, viewer: Viewer, classId: string): Promise<void> {
  await loadOwnedClass(deps.db, viewer, classId);
}

/** The class, for its teacher only (a 404 for an unknown class, 403 for anyone else). */
async function loadOwnedClass(db: Db, viewer: Viewer, classId: string): Promise<ClassRef> {
  if (!enrollments.isUuid(classId)) throw notFound('Class');
  const cls = await findClassForEnrollment(db, classId);
  if (!cls) throw notFound('Class');
  if (cls.teacherId !== viewer.id) throw forbidden(CONTENT_MESSAGES.notOwner);
  return cls;
}

/**
 * Why the caller may open a class's content: its teacher, an admin, or a student whose enrolment
 * is paid now (not pending, not refunded: a refund takes access away at once). Anyone else: 403.
 */
async function loadViewableClass(
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
  throw forbidden(CONTENT_MESSAGES.notPaid);
}

/** A session or material by id: a 404 naming `what` for an id that is not a uuid or is unknown. */
async function loadItem<Row>(
  what: 'Session' | 'Material',
  id: string,
  find: (id: string) => Promise<Row | null>,
): Promise<Row> {
  if (!enrollments.isUuid(id)) throw notFound(what);
  const item = await find(id);
  if (!item) throw notFound(what);
  return item;
}

async function loadOwnedSession(db: Db, viewer: Viewer, id: string, lock = false) {
  const session = await loadItem('Session', id, (sessionId) => repo.findSession(db, sessionId, { lock }));
  await loadOwnedClass(db, viewer, session.classId);
  return session;
}

async function loadOwnedMaterial(db: Db, viewer: Viewer, id: string, lock = false) {
  const material = await loadItem('Material', id, (materialId) => repo.findMaterial(db, materialId, { lock }));
  await loadOwnedClass(db, viewer, material.classId);
  return material;
}

// ---- Answers ----------------------------------------------------------------------------------------

function endOf(session: repo.SessionRow): Date {
  return new Date(session.startsAt.getTime() + session.durationMinutes * MINUTE_MS);
}

function opensAt(session: repo.SessionRow, openMinutes: number): Date {
  return new Date(session.startsAt.getTime() - openMinutes * MINUTE_MS);
}

/**
 * The meeting link is for the teacher at any time and for a paid student from
 * MEETING_LINK_OPEN_MINUTES before the start to the end; an admin moderates, and does not join.
 */
function visibleMeetingUrl(session: repo.SessionRow, role: ContentRole, now: Date, openMinutes: number) {
  if (!session.meetingUrl) return null;
  if (role === 'teacher') return session.meetingUrl;
  if (role !== 'student') return null;
  const t = now.getTime();
  return t >= opensAt(session, openMinutes).getTime() && t <= endOf(session).getTime() ? session.meetingUrl : null;
}

function toSession(
  row: repo.SessionRow,
  options: { role: ContentRole; now: Date; openMinutes: number; attended: Set<string> | null },
): ClassSession {
  return {
    _id: row.id,
    classId: row.classId,
    position: row.position,
    title: row.title,
    startsAt: row.startsAt.toISOString(),
    endsAt: endOf(row).toISOString(),
    timeZone: row.timeZone,
    localStart: toLocalDateTime(row.startsAt, row.timeZone),
    durationMinutes: row.durationMinutes,
    meetingUrl: visibleMeetingUrl(row, options.role, options.now, options.openMinutes),
    hasMeetingUrl: row.meetingUrl !== null,
    meetingUrlOpensAt: opensAt(row, options.openMinutes).toISOString(),
    location: row.location,
    published: row.publishedAt !== null,
    attended: options.attended ? options.attended.has(row.id) : null,
  };
}

export function materialFileUrl(id: string): string {
  return `/api/materials/${id}/file`;
}

function toMaterial(row: repo.MaterialRow, done: Set<string> | null): ClassMaterial {
  return {
    _id: row.id,
    classId: row.classId,
    position: row.position,
    title: row.title,
    kind: row.fileKey ? 'file' : 'link',
    url: row.fileKey ? materialFileUrl(row.id) : (row.url ?? ''),
    fileName: row.fileName,
    contentType: row.contentType,
    bytes: row.bytes,
    published: row.publishedAt !== null,
    done: done ? done.has(row.id) : null,
  };
}

/** GET /api/classes/:id/content: students see published items and their own marks. */
export async function getContent(deps: ContentDeps, viewer: Viewer, classId: string): Promise<ClassContent> {
  const { db } = deps;
  const { cls, role } = await loadViewableClass(db, viewer, classId);
  const publishedOnly = role === 'student';
  const [sessions, materials, marks] = await Promise.all([
    repo.listSessionsOfClass(db, classId, { publishedOnly }),
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

// ---- Sessions -----------------------------------------------------------------------------------

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

/** The repository reads and writes of one of a class's two lists (its sessions, its materials). */
interface ContentList<Row extends { id: string }, Values> {
  count: (tx: Db, classId: string) => Promise<{ n: number; nextPosition: number }>;
  insert: (tx: Db, values: Values & { classId: string; position: number }) => Promise<Row>;
  listAll: (tx: Db, classId: string) => Promise<Row[]>;
  setOrder: (tx: Db, ids: string[]) => Promise<void>;
}

const SESSIONS: ContentList<repo.SessionRow, ReturnType<typeof sessionValues>> = {
  count: repo.countSessions,
  insert: repo.insertSession,
  listAll: (tx, classId) => repo.listSessionsOfClass(tx, classId, { publishedOnly: false }),
  setOrder: repo.setSessionOrder,
};

const MATERIALS: ContentList<
  repo.MaterialRow,
  Omit<Parameters<typeof repo.insertMaterial>[1], 'classId' | 'position'>
> = {
  count: repo.countMaterials,
  insert: repo.insertMaterial,
  listAll: (tx, classId) => repo.listMaterialsOfClass(tx, classId, { publishedOnly: false }),
  setOrder: repo.setMaterialOrder,
};

/**
 * Adds a draft at the end of a list, at most CONTENT_ITEMS_MAX. The class row is not ours to lock;
 * its items are counted under a transaction-level advisory lock keyed on the class, so two adds at
 * once get distinct positions.
 */
function insertAtEnd<Row extends { id: string }, Values>(
  deps: ContentDeps,
  list: ContentList<Row, Values>,
  classId: string,
  values: Values,
): Promise<Row> {
  return deps.db.transaction(async (tx) => {
    await lockClassContent(tx, classId);
    const { n, nextPosition } = await list.count(tx, classId);
    if (n >= CONTENT_ITEMS_MAX) throw conflict(CONTENT_MESSAGES.tooMany);
    return list.insert(tx, { ...values, classId, position: nextPosition });
  });
}

/** PUT …/order: `ids` must be every item of the list, once each; answers the list in its new order. */
async function reorder<Row extends { id: string }>(
  deps: ContentDeps,
  viewer: Viewer,
  list: ContentList<Row, never>,
  classId: string,
  ids: string[],
): Promise<Row[]> {
  await loadOwnedClass(deps.db, viewer, classId);
  return deps.db.transaction(async (tx) => {
    await lockClassContent(tx, classId);
    const known = new Set((await list.listAll(tx, classId)).map((row) => row.id));
    if (ids.length !== known.size || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) {
      throw new AppError(ErrorCode.VALIDATION, CONTENT_MESSAGES.orderMismatch, {
        fields: { ids: CONTENT_MESSAGES.orderMismatch },
      });
    }
    await list.setOrder(tx, ids);
    return list.listAll(tx, classId);
  });
}

function teacherView(deps: ContentDeps) {
  return { role: 'teacher' as const, now: deps.now(), openMinutes: deps.meetingLinkOpenMinutes, attended: null };
}

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

/** Publishing keeps the first publication time (publishing twice changes nothing); a draft has none. */
function publishedAtAfter(published: boolean, item: { publishedAt: Date | null }, now: Date): Date | null {
  return published ? (item.publishedAt ?? now) : null;
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

// ---- Materials ----------------------------------------------------------------------------------

/** POST /api/classes/:id/materials: a link, as a draft. */
export async function createLinkMaterial(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  body: LinkMaterialFormBody,
): Promise<ClassMaterial> {
  await loadOwnedClass(deps.db, viewer, classId);
  return toMaterial(await insertAtEnd(deps, MATERIALS, classId, { title: body.title, url: body.url }), null);
}

const EXECUTABLE_TYPES = new Set([
  'application/x-elf',
  'application/x-msdownload',
  'application/x-mach-binary',
  'application/x-executable',
  'application/vnd.microsoft.portable-executable',
  'application/x-sharedlib',
  'application/java-archive',
  'application/x-msi',
  'application/wasm',
]);

const EXTENSION_OF: Record<(typeof ACCEPTED_MATERIAL_TYPES)[number], string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * What an uploaded material is, from its bytes (file-type), never from its name or the declared
 * type: a PDF or an image of ACCEPTED_MATERIAL_TYPES. A program (ELF, PE, Mach-O…) renamed .pdf
 * is named as such; anything else is "unsupported" (415).
 */
export async function sniffMaterial(bytes: Buffer): Promise<(typeof ACCEPTED_MATERIAL_TYPES)[number]> {
  const type = await fileTypeFromBuffer(bytes);
  if (type && (EXECUTABLE_TYPES.has(type.mime) || ['exe', 'elf', 'macho', 'dll'].includes(type.ext))) {
    throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, CONTENT_MESSAGES.fileExecutable);
  }
  if (!type || !(ACCEPTED_MATERIAL_TYPES as readonly string[]).includes(type.mime)) {
    throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, CONTENT_MESSAGES.fileUnsupported);
  }
  return type.mime as (typeof ACCEPTED_MATERIAL_TYPES)[number];
}

/** A download name that cannot break the header or lie about the type: the sniffed extension wins. */
export function safeFileName(name: string | undefined, mime: (typeof ACCEPTED_MATERIAL_TYPES)[number]): string {
  const base = (name ?? '')
    .replace(/\.[^.]*$/, '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, '')
    .trim()
    .slice(0, 100);
  return `${base || 'material'}.${EXTENSION_OF[mime]}`;
}

/**
 * POST /api/classes/:id/materials/file: the route has read at most MATERIAL_MAX_MB; the type is
 * sniffed, the bytes stored under their content address, and the material added as a draft.
 */
export async function createFileMaterial(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  input: { title: string; fileName: string | undefined; bytes: Buffer },
): Promise<ClassMaterial> {
  await loadOwnedClass(deps.db, viewer, classId);
  const mime = await sniffMaterial(input.bytes);
  const fileKey = `m-${createHash('sha256').update(input.bytes).digest('hex')}.${EXTENSION_OF[mime]}`;
  // The bytes first: a row never points at a file that is not there (network I/O outside any transaction).
  try {
    await deps.storage.put(fileKey, input.bytes, mime);
  } catch (error) {
    throw new AppError(ErrorCode.UNAVAILABLE, 'The file could not be stored. Please try again.', { cause: error });
  }
  const row = await insertAtEnd(deps, MATERIALS, classId, {
    title: input.title,
    fileKey,
    fileName: safeFileName(input.fileName, mime),
    contentType: mime,
    bytes: input.bytes.length,
  });
  return toMaterial(row, null);
}

export async function updateMaterial(
  deps: ContentDeps,
  viewer: Viewer,
  id: string,
  body: UpdateMaterialBody,
): Promise<ClassMaterial> {
  const row = await deps.db.transaction(async (tx) => {
    const material = await loadOwnedMaterial(tx, viewer, id, true);
    if (body.url !== undefined && material.fileKey) {
      throw new AppError(ErrorCode.VALIDATION, 'An uploaded file has no address to change; upload a new file instead', {
        fields: { url: 'An uploaded file has no address to change' },
      });
    }
    return repo.updateMaterial(tx, id, {
      title: body.title,
      ...(body.url !== undefined ? { url: body.url } : {}),
      updatedAt: deps.now(),
    });
  });
  return toMaterial(row, null);
}

export async function publishMaterial(
  deps: ContentDeps,
  viewer: Viewer,
  id: string,
  published: boolean,
): Promise<ClassMaterial> {
  const row = await deps.db.transaction(async (tx) => {
    const material = await loadOwnedMaterial(tx, viewer, id, true);
    return repo.updateMaterial(tx, id, {
      publishedAt: publishedAtAfter(published, material, deps.now()),
      updatedAt: deps.now(),
    });
  });
  return toMaterial(row, null);
}

/** DELETE /api/materials/:id; its file goes too when no other material shares those bytes. */
export async function deleteMaterial(deps: ContentDeps, viewer: Viewer, id: string): Promise<{ deletedCount: number }> {
  const material = await loadOwnedMaterial(deps.db, viewer, id);
  const deletedCount = await repo.deleteMaterial(deps.db, id);
  if (material.fileKey && !(await repo.fileKeyInUse(deps.db, material.fileKey))) {
    try {
      await deps.storage.delete(material.fileKey);
    } catch {
      // An orphaned file costs disk, not correctness; the material is gone either way.
    }
  }
  return { deletedCount };
}

export async function reorderMaterials(
  deps: ContentDeps,
  viewer: Viewer,
  classId: string,
  ids: string[],
): Promise<ClassMaterial[]> {
  const rows = await reorder(deps, viewer, MATERIALS, classId, ids);
  return rows.map((row) => toMaterial(row, null));
}

/**
 * GET /api/materials/:id/file: for a paid student (published materials), the teacher and admins.
 * Anyone else is refused exactly as for the class's content.
 */
export async function openMaterialFile(deps: ContentDeps, viewer: Viewer, id: string) {
  if (!enrollments.isUuid(id)) throw notFound('Material');
  const material = await repo.findMaterial(deps.db, id);
  if (!material || !material.fileKey || !material.contentType) throw notFound('Material');
  const { role } = await loadViewableClass(deps.db, viewer, material.classId);
  if (role === 'student' && !material.publishedAt) throw notFound('Material');
  let stored;
  try {
    stored = await deps.storage.get(material.fileKey);
  } catch (error) {
    throw new AppError(ErrorCode.UNAVAILABLE, 'The file could not be loaded. Please try again.', { cause: error });
  }
  if (!stored) throw notFound('Material');
  return { ...stored, contentType: material.contentType, fileName: material.fileName ?? 'material' };
}

// ---- Calendar -----------------------------------------------------------------------------------

/** The published sessions for GET /api/classes/:id/calendar.ics (same access as the content). */
export async function calendarOf(deps: ContentDeps, viewer: Viewer, classId: string) {
  const { cls, role } = await loadViewableClass(deps.db, viewer, classId);
  const sessions = await repo.listSessionsOfClass(deps.db, classId, { publishedOnly: true });
  const now = deps.now();
  return {
    classTitle: cls.title,
    sessions: sessions.map((s) => ({
      id: s.id,
      title: s.title,
      start: s.startsAt,
      end: endOf(s),
      timeZone: s.timeZone,
      location: s.location,
      // The calendar file outlives the window, so it carries the class page, not the link.
      url: `${deps.publicUrl}/dashboard/myEnrollClass/${classId}`,
      updatedAt: s.updatedAt,
      meetingUrl: role === 'teacher' ? s.meetingUrl : visibleMeetingUrl(s, role, now, deps.meetingLinkOpenMinutes),
    })),
  };
}

// ---- Progress ---------------------------------------------------------------------------------------

/**
 * The session or material a student marks as their own: 403 unless their enrolment in its class is
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
  if (!(await enrollments.hasPaidFor(deps.db, viewer.id, item.classId))) throw forbidden(CONTENT_MESSAGES.notPaid);
  if (!item.publishedAt) throw notFound(what);
  return item;
}

/** PUT /api/class-sessions/:id/attendance: the caller's own mark, once the session has started. */
export async function markAttendance(
  deps: ContentDeps,
  viewer: Viewer,
  sessionId: string,
  done: boolean,
): Promise<{ done: boolean }> {
  const session = await loadMarkable(deps, viewer, 'Session', sessionId, repo.findSession);
  if (done && deps.now().getTime() < session.startsAt.getTime()) throw conflict(CONTENT_MESSAGES.notStarted);
  await repo.markAttendance(deps.db, sessionId, viewer.id, done);
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
  const [sessions, materials, marks, studentIds, held, enrolled] = await Promise.all([
    repo.listSessionsOfClass(db, classId, { publishedOnly: true }),
    repo.listMaterialsOfClass(db, classId, { publishedOnly: true }),
    repo.listMarksOfClass(db, classId),
    enrollments.listPaidStudentIdsOfClass(db, classId),
    repo.countHeldSessions(db, classId, now),
    enrollments.countPaidEnrollmentsOfClass(db, classId),
  ]);
  const items = sessions.length + materials.length;
  const students = await Promise.all(
    studentIds.map(async (studentId) => {
      const attendedSessions = marks.attended.filter((m) => m.studentId === studentId).length;
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
    // Paid enrolments, a deleted student's kept line included (the class's figures do not change
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

// ---- Reminders ----------------------------------------------------------------------------------

/**
 * One pass of the reminder job (decision 021): each published session starting within the next
 * SESSION_REMINDER_MINUTES gets one mail per paid student. The reminder row and the mail commit
 * together, and the row's key (session, student, start) makes a second pass — on this instance or
 * another — send nothing, while a session moved to a new time is reminded of again.
 */
export async function sendDueReminders(
  deps: Pick<ContentDeps, 'db' | 'now' | 'publicUrl'>,
  reminderMinutes: number,
): Promise<number> {
  const now = deps.now();
  const due = await repo.listSessionsStartingBetween(
    deps.db,
    now,
    new Date(now.getTime() + reminderMinutes * MINUTE_MS),
  );
  let sent = 0;
  for (const session of due) {
    const cls = await findClassForEnrollment(deps.db, session.classId);
    if (!cls || cls.status === 'archived') continue;
    const studentIds = await enrollments.listPaidStudentIdsOfClass(deps.db, session.classId);
    sent += await deps.db.transaction(async (tx) => {
      const claimed = await repo.claimReminders(tx, session, studentIds, now);
      let queued = 0;
      for (const studentId of claimed) {
        const contact = await contactEmailOf(tx, studentId);
        if (!contact) continue;
        await queueMail(
          tx,
          contact.email,
          sessionReminderMail({
            publicUrl: deps.publicUrl,
            name: contact.name,
            classId: session.classId,
            classTitle: cls.title,
            sessionTitle: session.title,
            startsAt: session.startsAt,
            timeZone: session.timeZone,
            location: session.location,
          }),
        );
        queued++;
      }
      return queued;
    });
  }
  return sent;
}
