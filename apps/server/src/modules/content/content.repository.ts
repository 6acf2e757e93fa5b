import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lte, max, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  classMaterials,
  classSessions,
  materialCompletions,
  sessionAttendance,
  sessionMoveNotices,
  sessionReminders,
} from '../../db/schema/content.ts';

export type SessionRow = typeof classSessions.$inferSelect;
export type MaterialRow = typeof classMaterials.$inferSelect;

export async function listSessionsOfClass(
  db: Db,
  classId: string,
  options: { publishedOnly: boolean; sectionIds?: string[] | undefined },
): Promise<SessionRow[]> {
  return db
    .select()
    .from(classSessions)
    .where(
      and(
        eq(classSessions.classId, classId),
        options.publishedOnly ? isNotNull(classSessions.publishedAt) : undefined,
        options.sectionIds ? inArray(classSessions.sectionId, options.sectionIds) : undefined,
      ),
    )
    .orderBy(asc(classSessions.position), asc(classSessions.startsAt), asc(classSessions.id));
}

/** A class's published sessions with their section, by start (the public schedule, decision 042). */
export async function listPublishedSessionTimes(
  db: Db,
  classId: string,
): Promise<{ sectionId: string; title: string; startsAt: Date; durationMinutes: number }[]> {
  return db
    .select({
      sectionId: classSessions.sectionId,
      title: classSessions.title,
      startsAt: classSessions.startsAt,
      durationMinutes: classSessions.durationMinutes,
    })
    .from(classSessions)
    .where(and(eq(classSessions.classId, classId), isNotNull(classSessions.publishedAt)))
    .orderBy(asc(classSessions.startsAt), asc(classSessions.id));
}

export async function listMaterialsOfClass(
  db: Db,
  classId: string,
  options: { publishedOnly: boolean },
): Promise<MaterialRow[]> {
  return db
    .select()
    .from(classMaterials)
    .where(
      and(
        eq(classMaterials.classId, classId),
        options.publishedOnly ? isNotNull(classMaterials.publishedAt) : undefined,
      ),
    )
    .orderBy(asc(classMaterials.position), asc(classMaterials.id));
}

export async function findSession(db: Db, id: string, options: { lock?: boolean } = {}): Promise<SessionRow | null> {
  const query = db.select().from(classSessions).where(eq(classSessions.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function findMaterial(db: Db, id: string, options: { lock?: boolean } = {}): Promise<MaterialRow | null> {
  const query = db.select().from(classMaterials).where(eq(classMaterials.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Per section of a class (decision 041): how many sessions it holds and when the first starts. */
export async function sessionSpansOfClass(
  db: Db,
  classId: string,
): Promise<{ sectionId: string; n: number; firstStartsAt: Date | null }[]> {
  return db
    .select({ sectionId: classSessions.sectionId, n: count(), firstStartsAt: min(classSessions.startsAt) })
    .from(classSessions)
    .where(eq(classSessions.classId, classId))
    .groupBy(classSessions.sectionId);
}

/** How many sessions (or materials) a class holds and the next free position. */
export async function countSessions(db: Db, classId: string): Promise<{ n: number; nextPosition: number }> {
  const [row] = await db
    .select({ n: count(), last: max(classSessions.position) })
    .from(classSessions)
    .where(eq(classSessions.classId, classId));
  return { n: row?.n ?? 0, nextPosition: (row?.last ?? -1) + 1 };
}

export async function countMaterials(db: Db, classId: string): Promise<{ n: number; nextPosition: number }> {
  const [row] = await db
    .select({ n: count(), last: max(classMaterials.position) })
    .from(classMaterials)
    .where(eq(classMaterials.classId, classId));
  return { n: row?.n ?? 0, nextPosition: (row?.last ?? -1) + 1 };
}

export async function insertSession(
  db: Db,
  values: Omit<typeof classSessions.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>,
): Promise<SessionRow> {
  const [row] = await db.insert(classSessions).values(values).returning();
  return row!;
}

export async function updateSession(
  db: Db,
  id: string,
  values: Partial<Omit<typeof classSessions.$inferInsert, 'id' | 'classId' | 'createdAt'>>,
): Promise<SessionRow> {
  const [row] = await db.update(classSessions).set(values).where(eq(classSessions.id, id)).returning();
  return row!;
}

/** Publishes a class's draft sessions (of one section, when given) at `now`; answers how many. */
export async function publishDraftSessions(
  db: Db,
  classId: string,
  options: { sectionId: string | null; now: Date },
): Promise<number> {
  const rows = await db
    .update(classSessions)
    .set({ publishedAt: options.now, updatedAt: options.now })
    .where(
      and(
        eq(classSessions.classId, classId),
        isNull(classSessions.publishedAt),
        options.sectionId ? eq(classSessions.sectionId, options.sectionId) : undefined,
      ),
    )
    .returning({ id: classSessions.id });
  return rows.length;
}

/** Publishes a class's draft materials at `now`; answers how many. */
export async function publishDraftMaterials(db: Db, classId: string, now: Date): Promise<number> {
  const rows = await db
    .update(classMaterials)
    .set({ publishedAt: now, updatedAt: now })
    .where(and(eq(classMaterials.classId, classId), isNull(classMaterials.publishedAt)))
    .returning({ id: classMaterials.id });
  return rows.length;
}

export async function deleteSession(db: Db, id: string): Promise<number> {
  const rows = await db.delete(classSessions).where(eq(classSessions.id, id)).returning({ id: classSessions.id });
  return rows.length;
}

export async function insertMaterial(
  db: Db,
  values: Omit<typeof classMaterials.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>,
): Promise<MaterialRow> {
  const [row] = await db.insert(classMaterials).values(values).returning();
  return row!;
}

export async function updateMaterial(
  db: Db,
  id: string,
  values: Partial<Omit<typeof classMaterials.$inferInsert, 'id' | 'classId' | 'createdAt'>>,
): Promise<MaterialRow> {
  const [row] = await db.update(classMaterials).set(values).where(eq(classMaterials.id, id)).returning();
  return row!;
}

export async function deleteMaterial(db: Db, id: string): Promise<number> {
  const rows = await db.delete(classMaterials).where(eq(classMaterials.id, id)).returning({ id: classMaterials.id });
  return rows.length;
}

/** Whether any material still points at a stored file (content addresses are shared). */
export async function fileKeyInUse(db: Db, fileKey: string): Promise<boolean> {
  const [row] = await db
    .select({ id: classMaterials.id })
    .from(classMaterials)
    .where(eq(classMaterials.fileKey, fileKey))
    .limit(1);
  return Boolean(row);
}

/** Writes the new order: position i for the i-th id (ids already checked to be the class's). */
export async function setSessionOrder(db: Db, ids: string[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await db.update(classSessions).set({ position }).where(eq(classSessions.id, id));
  }
}

export async function setMaterialOrder(db: Db, ids: string[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await db.update(classMaterials).set({ position }).where(eq(classMaterials.id, id));
  }
}

// ---- Progress -----------------------------------------------------------------------------------

export async function markAttendance(db: Db, sessionId: string, studentId: string, done: boolean): Promise<void> {
  if (done) {
    await db.insert(sessionAttendance).values({ sessionId, studentId }).onConflictDoNothing();
  } else {
    await db
      .delete(sessionAttendance)
      .where(and(eq(sessionAttendance.sessionId, sessionId), eq(sessionAttendance.studentId, studentId)));
  }
}

export async function markCompletion(db: Db, materialId: string, studentId: string, done: boolean): Promise<void> {
  if (done) {
    await db.insert(materialCompletions).values({ materialId, studentId }).onConflictDoNothing();
  } else {
    await db
      .delete(materialCompletions)
      .where(and(eq(materialCompletions.materialId, materialId), eq(materialCompletions.studentId, studentId)));
  }
}

/** Every mark on a class's published items, per student: `{ studentId, sessionId | materialId }`. */
export async function listMarksOfClass(
  db: Db,
  classId: string,
  options: { studentId?: string } = {},
): Promise<{
  attended: { studentId: string; sessionId: string }[];
  done: { studentId: string; materialId: string }[];
}> {
  const [attended, done] = await Promise.all([
    db
      .select({ studentId: sessionAttendance.studentId, sessionId: sessionAttendance.sessionId })
      .from(sessionAttendance)
      .innerJoin(classSessions, eq(classSessions.id, sessionAttendance.sessionId))
      .where(
        and(
          eq(classSessions.classId, classId),
          isNotNull(classSessions.publishedAt),
          options.studentId ? eq(sessionAttendance.studentId, options.studentId) : undefined,
        ),
      ),
    db
      .select({ studentId: materialCompletions.studentId, materialId: materialCompletions.materialId })
      .from(materialCompletions)
      .innerJoin(classMaterials, eq(classMaterials.id, materialCompletions.materialId))
      .where(
        and(
          eq(classMaterials.classId, classId),
          isNotNull(classMaterials.publishedAt),
          options.studentId ? eq(materialCompletions.studentId, options.studentId) : undefined,
        ),
      ),
  ]);
  return { attended, done };
}

/** Whether a class has any published session or material (verified reviews, decision 021). */
export async function hasPublishedContent(db: Db, classId: string): Promise<boolean> {
  const [session] = await db
    .select({ id: classSessions.id })
    .from(classSessions)
    .where(and(eq(classSessions.classId, classId), isNotNull(classSessions.publishedAt)))
    .limit(1);
  if (session) return true;
  const [material] = await db
    .select({ id: classMaterials.id })
    .from(classMaterials)
    .where(and(eq(classMaterials.classId, classId), isNotNull(classMaterials.publishedAt)))
    .limit(1);
  return Boolean(material);
}

// ---- Reminders ------------------------------------------------------------------------------------

/** Published sessions starting in (from, to]: the reminder job's window. */
export async function listSessionsStartingBetween(db: Db, from: Date, to: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(classSessions)
    .where(and(isNotNull(classSessions.publishedAt), gt(classSessions.startsAt, from), lte(classSessions.startsAt, to)))
    .orderBy(asc(classSessions.startsAt))
    .limit(500);
}

/** Records the reminders about to be sent; answers the students not reminded of this start before. */
export async function claimReminders(
  db: Db,
  session: { id: string; startsAt: Date },
  studentIds: string[],
  sentAt: Date,
): Promise<string[]> {
  if (studentIds.length === 0) return [];
  const rows = await db
    .insert(sessionReminders)
    .values(studentIds.map((studentId) => ({ sessionId: session.id, studentId, startsAt: session.startsAt, sentAt })))
    .onConflictDoNothing()
    .returning({ studentId: sessionReminders.studentId });
  return rows.map((r) => r.studentId);
}

/** Sessions of some classes, for the admin's progress figures. */
export async function countHeldSessions(db: Db, classId: string, now: Date): Promise<{ held: number; total: number }> {
  const [row] = await db
    .select({
      total: count(),
      held: sql<number>`count(*) filter (where ${classSessions.startsAt} + make_interval(mins => ${classSessions.durationMinutes}) <= ${now.toISOString()}::timestamptz)`.mapWith(
        Number,
      ),
    })
    .from(classSessions)
    .where(and(eq(classSessions.classId, classId), isNotNull(classSessions.publishedAt)));
  return { held: row?.held ?? 0, total: row?.total ?? 0 };
}

/** Held until the transaction ends: one change at a time to a class's list of sessions and materials. */
export async function lockClassContent(tx: Db, classId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('skillhive:class-content'), hashtext(${classId}))`);
}

export type MoveNoticeRow = typeof sessionMoveNotices.$inferSelect;

const noticeOf = (sessionId: string, studentId: string) =>
  and(eq(sessionMoveNotices.sessionId, sessionId), eq(sessionMoveNotices.studentId, studentId));

/** What a student was last mailed about a session's moves, locked until the transaction ends. */
export async function lockMoveNotice(tx: Db, sessionId: string, studentId: string): Promise<MoveNoticeRow | null> {
  const [row] = await tx.select().from(sessionMoveNotices).where(noticeOf(sessionId, studentId)).for('update');
  return row ?? null;
}

/** A reschedule mail was just queued: what it told and when. */
export async function saveMoveNotice(tx: Db, values: Omit<MoveNoticeRow, 'owedSince'>): Promise<void> {
  const row = { ...values, owedSince: null };
  await tx
    .insert(sessionMoveNotices)
    .values(row)
    .onConflictDoUpdate({ target: [sessionMoveNotices.sessionId, sessionMoveNotices.studentId], set: row });
}

/** A move left unmailed within the hour (or, with null, one that needs no mail any more). */
export async function setMoveOwed(tx: Db, sessionId: string, studentId: string, since: Date | null): Promise<void> {
  await tx
    .update(sessionMoveNotices)
    .set({
      owedSince:
        since === null ? null : sql`coalesce(${sessionMoveNotices.owedSince}, ${since.toISOString()}::timestamptz)`,
    })
    .where(noticeOf(sessionId, studentId));
}

/**
 * Owed notices whose last mail is older than `mailedBefore`, with their session, locked for this
 * transaction; rows another instance holds are skipped (SKIP LOCKED).
 */
export async function claimOwedMoveNotices(
  tx: Db,
  mailedBefore: Date,
  limit: number,
): Promise<{ notice: MoveNoticeRow; session: SessionRow }[]> {
  return tx
    .select({ notice: sessionMoveNotices, session: classSessions })
    .from(sessionMoveNotices)
    .innerJoin(classSessions, eq(classSessions.id, sessionMoveNotices.sessionId))
    .where(and(isNotNull(sessionMoveNotices.owedSince), lte(sessionMoveNotices.mailedAt, mailedBefore)))
    .orderBy(asc(sessionMoveNotices.mailedAt))
    .limit(limit)
    .for('update', { of: sessionMoveNotices, skipLocked: true });
}

/** The published sessions of some classes with their ends: the earnings ledger releases a share per session held (decision 039). */
export async function listSessionEndsOfClasses(
  db: Db,
  classIds: string[],
): Promise<{ classId: string; sectionId: string; sessionId: string; endsAt: Date }[]> {
  if (classIds.length === 0) return [];
  const rows = await db
    .select({
      classId: classSessions.classId,
      sectionId: classSessions.sectionId,
      sessionId: classSessions.id,
      startsAt: classSessions.startsAt,
      durationMinutes: classSessions.durationMinutes,
    })
    .from(classSessions)
    .where(and(inArray(classSessions.classId, classIds), isNotNull(classSessions.publishedAt)))
    .orderBy(asc(classSessions.startsAt), asc(classSessions.id));
  return rows.map((row) => ({
    classId: row.classId,
    sectionId: row.sectionId,
    sessionId: row.sessionId,
    endsAt: new Date(row.startsAt.getTime() + row.durationMinutes * 60_000),
  }));
}
