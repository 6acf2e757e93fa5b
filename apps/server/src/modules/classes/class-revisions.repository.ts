import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import * as schema from '../../db/schema/classes.ts';
import { type ClassRow, isClassId } from './classes.repository.ts';

const { classes, classRevisions } = schema;

const { search: _search, ...classColumns } = getTableColumns(classes);

export type RevisionRow = typeof classRevisions.$inferSelect;

/** The moderated fields as stored: null means "not changed by this revision". */
export type RevisionFields = Pick<RevisionRow, 'title' | 'description' | 'priceCents' | 'imageKey' | 'category'>;

export const REVISION_FIELD_NAMES = ['title', 'description', 'priceCents', 'imageKey', 'category'] as const;

/** Revision ids are UUIDs like class ids; anything else names no revision. */
export const isRevisionId = isClassId;

/**
 * Locks a class row for the rest of the transaction. Every revision write (propose, decide)
 * locks the class first, so edits and decisions of one class run one after the other.
 */
export async function lockClass(tx: Db, id: string): Promise<ClassRow | null> {
  const [row] = await tx.select(classColumns).from(classes).where(eq(classes.id, id)).for('update');
  return row ?? null;
}

export async function findPendingRevision(db: Db, classId: string): Promise<RevisionRow | null> {
  const [row] = await db
    .select()
    .from(classRevisions)
    .where(and(eq(classRevisions.classId, classId), eq(classRevisions.status, 'pending')));
  return row ?? null;
}

export async function insertRevision(db: Db, classId: string, fields: RevisionFields, now: Date): Promise<string> {
  const [row] = await db
    .insert(classRevisions)
    .values({ classId, ...fields, status: 'pending', createdAt: now, updatedAt: now })
    .returning({ id: classRevisions.id });
  return row!.id;
}

/** Replaces the proposed fields of a pending revision (a further edit of the same class). */
export async function updatePendingRevision(db: Db, id: string, fields: RevisionFields, now: Date): Promise<void> {
  await db
    .update(classRevisions)
    .set({ ...fields, updatedAt: now })
    .where(and(eq(classRevisions.id, id), eq(classRevisions.status, 'pending')));
}

export async function deletePendingRevisions(db: Db, classId: string): Promise<void> {
  await db.delete(classRevisions).where(and(eq(classRevisions.classId, classId), eq(classRevisions.status, 'pending')));
}

export async function findRevisionById(db: Db, id: string): Promise<RevisionRow | null> {
  if (!isRevisionId(id)) return null;
  const [row] = await db.select().from(classRevisions).where(eq(classRevisions.id, id));
  return row ?? null;
}

/**
 * Decides a revision only while it is pending: one conditional UPDATE, so of two admins racing
 * one wins. Null when it was not pending.
 */
export async function decidePendingRevision(
  db: Db,
  id: string,
  decision: { status: 'approved' | 'rejected'; rejectionReason: string | null; decidedBy: string; now: Date },
): Promise<RevisionRow | null> {
  const [row] = await db
    .update(classRevisions)
    .set({
      status: decision.status,
      rejectionReason: decision.rejectionReason,
      decidedBy: decision.decidedBy,
      decidedAt: decision.now,
      updatedAt: decision.now,
    })
    .where(and(eq(classRevisions.id, id), eq(classRevisions.status, 'pending')))
    .returning();
  return row ?? null;
}

/** Writes the approved fields onto the class: from now on they are what is on sale. */
export async function applyToClass(
  db: Db,
  classId: string,
  patch: Partial<Pick<ClassRow, 'title' | 'description' | 'priceCents' | 'imageKey' | 'category'>>,
  now: Date,
): Promise<void> {
  await db
    .update(classes)
    .set({ ...patch, updatedAt: now })
    .where(eq(classes.id, classId));
}

/** Pending revisions with their classes, oldest first (the admin's review queue). */
export async function listPendingRevisions(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ rows: { revision: RevisionRow; cls: ClassRow }[]; total: number }> {
  const where = eq(classRevisions.status, 'pending');
  return withTotal(
    db
      .select({ revision: classRevisions, cls: classColumns })
      .from(classRevisions)
      .innerJoin(classes, eq(classes.id, classRevisions.classId))
      .where(where)
      .orderBy(asc(classRevisions.createdAt), asc(classRevisions.id))
      .limit(page.limit)
      .offset(page.offset),
    { db, table: classRevisions, where },
  );
}

/**
 * The revision a teacher should see on a class: the pending one, else the latest one when it was
 * rejected (its reason), else null (none, or the latest was approved and is live).
 */
export async function findCurrentRevision(db: Db, classId: string): Promise<RevisionRow | null> {
  const [row] = await db
    .select()
    .from(classRevisions)
    .where(eq(classRevisions.classId, classId))
    .orderBy(sql`${classRevisions.status} = 'pending' desc`, desc(classRevisions.createdAt), desc(classRevisions.id))
    .limit(1);
  return row && row.status !== 'approved' ? row : null;
}

/** findCurrentRevision for a page of classes at once (the teacher's class list). */
export async function findCurrentRevisions(db: Db, classIds: string[]): Promise<Map<string, RevisionRow>> {
  if (classIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([classRevisions.classId])
    .from(classRevisions)
    .where(inArray(classRevisions.classId, classIds))
    .orderBy(
      classRevisions.classId,
      sql`${classRevisions.status} = 'pending' desc`,
      desc(classRevisions.createdAt),
      desc(classRevisions.id),
    );
  return new Map(rows.filter((r) => r.status !== 'approved').map((r) => [r.classId, r]));
}
