import { and, type AnyColumn, asc, count, eq, getTableColumns, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Category, ClassStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import { classes } from '../../db/schema/classes.ts';

/** Every column but the search vectors, which only the database reads. */
const { search: _search, searchPrimary: _searchPrimary, ...classColumns } = getTableColumns(classes);

export type ClassRow = Omit<typeof classes.$inferSelect, 'search' | 'searchPrimary'>;
type NewClass = typeof classes.$inferInsert;
export { classColumns };

export const descNullsLast = (column: AnyColumn | SQL) => sql`${column} desc nulls last`;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Class ids are UUIDs; anything else names no class (and must not reach a uuid column). */
export function isClassId(id: string): boolean {
  return UUID_PATTERN.test(id);
}

export async function insertClass(db: Db, values: NewClass): Promise<string> {
  const [row] = await db.insert(classes).values(values).returning({ id: classes.id });
  return row!.id;
}

export async function findClassById(db: Db, id: string): Promise<ClassRow | null> {
  if (!isClassId(id)) return null;
  const [row] = await db.select(classColumns).from(classes).where(eq(classes.id, id));
  return row ?? null;
}

/** Accepted classes per category (classes_status_category_created_idx). */
export async function countAcceptedByCategory(db: Db): Promise<{ category: Category; total: number }[]> {
  return db
    .select({ category: classes.category, total: count() })
    .from(classes)
    .where(eq(classes.status, 'accepted'))
    .groupBy(classes.category);
}

/** A teacher's other accepted classes, newest first (classes_teacher_created_idx). */
export async function listOtherAcceptedClasses(
  db: Db,
  teacherId: string,
  exceptId: string,
  limit: number,
): Promise<ClassRow[]> {
  return db
    .select(classColumns)
    .from(classes)
    .where(and(eq(classes.teacherId, teacherId), eq(classes.status, 'accepted'), ne(classes.id, exceptId)))
    .orderBy(descNullsLast(classes.createdAt), descNullsLast(classes.id))
    .limit(limit);
}

/** A teacher's classes, newest first, archived ones left out (classes_teacher_created_idx). */
export async function listClassesOfTeacher(
  db: Db,
  teacherId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: ClassRow[]; total: number }> {
  const where = and(eq(classes.teacherId, teacherId), ne(classes.status, 'archived'));
  return withTotal(
    db
      .select(classColumns)
      .from(classes)
      .where(where)
      .orderBy(descNullsLast(classes.createdAt), descNullsLast(classes.id))
      .limit(page.limit)
      .offset(page.offset),
    { db, table: classes, where },
  );
}

export type ClassPatch = Partial<Pick<NewClass, 'title' | 'description' | 'priceCents' | 'imageKey' | 'category'>>;

/**
 * Applies its teacher's edit in one statement: only the teacher's own class while it is pending or
 * rejected (an accepted one is live and gets a revision instead); a rejected class goes back to
 * pending and loses its rejection reason (DESIGN §1.7, §4).
 */
export async function updateOwnClass(
  db: Db,
  id: string,
  teacherId: string,
  patch: ClassPatch,
  now: Date,
): Promise<number> {
  const rows = await db
    .update(classes)
    .set({
      ...patch,
      status: sql`case when ${classes.status} = 'rejected' then 'pending'::class_status else ${classes.status} end`,
      rejectionReason: sql`case when ${classes.status} = 'rejected' then null else ${classes.rejectionReason} end`,
      updatedAt: now,
    })
    .where(and(eq(classes.id, id), eq(classes.teacherId, teacherId), inArray(classes.status, ['pending', 'rejected'])))
    .returning({ id: classes.id });
  return rows.length;
}

/**
 * Decides a class only while it is pending: one conditional UPDATE, so of two admins racing one
 * wins (spec §4). Null when it was not pending (or does not exist).
 */
export async function decidePendingClass(
  db: Db,
  id: string,
  decision: { status: 'accepted' | 'rejected'; rejectionReason: string | null; now: Date },
): Promise<ClassRow | null> {
  const [row] = await db
    .update(classes)
    .set({ status: decision.status, rejectionReason: decision.rejectionReason, updatedAt: decision.now })
    .where(and(eq(classes.id, id), eq(classes.status, 'pending')))
    .returning(classColumns);
  return row ?? null;
}

/** Locks a class FOR UPDATE before it is removed; false when it is gone. */
export async function lockClassForRemoval(tx: Db, id: string): Promise<boolean> {
  const [locked] = await tx.select({ id: classes.id }).from(classes).where(eq(classes.id, id)).for('update');
  return locked !== undefined;
}

/** A class with paid enrollments is archived instead of deleted (DESIGN §4). */
export async function archiveClass(tx: Db, id: string, now: Date): Promise<void> {
  await tx.update(classes).set({ status: 'archived', updatedAt: now }).where(eq(classes.id, id));
}

export async function deleteClass(tx: Db, id: string): Promise<void> {
  await tx.delete(classes).where(eq(classes.id, id));
}

/** What an enrollment copies from its class (spec §3), plus who owns the class and whether it is open. */
export type ClassForEnrollment = {
  id: string;
  teacherId: string;
  teacherName: string;
  title: string;
  description: string;
  priceCents: number;
  imageKey: string;
  status: ClassStatus;
};

/**
 * With `lock`, the class row is held FOR KEY SHARE until the transaction ends: deleting the class
 * (which locks it FOR UPDATE first) waits for the enrollment to commit, or the enrollment waits for
 * the deletion and then finds no class — never a foreign-key violation (a 500) in between.
 */
export async function findClassForEnrollment(
  db: Db,
  classId: string,
  options: { lock: boolean } = { lock: false },
): Promise<ClassForEnrollment | null> {
  const query = db
    .select({
      id: classes.id,
      teacherId: classes.teacherId,
      teacherName: classes.teacherName,
      title: classes.title,
      description: classes.description,
      priceCents: classes.priceCents,
      imageKey: classes.imageKey,
      status: classes.status,
    })
    .from(classes)
    .where(eq(classes.id, classId));
  const [row] = options.lock ? await query.for('key share') : await query;
  return row ?? null;
}

/** Locks these classes FOR KEY SHARE, in id order, until the transaction ends (a payment's lines). */
export async function lockClassesKeyShare(tx: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .select({ id: classes.id })
    .from(classes)
    .where(inArray(classes.id, ids))
    .orderBy(asc(classes.id))
    .for('key share');
}

/** A change of the denormalised counters (decision 003); a field left out is not touched. */
export type CounterChange = { enrollments?: 1 | -1; ratingSum?: number; reviews?: 1 | 0 | -1 };

/**
 * The one writer of classes.enrollment_count, rating_sum and review_count (decision 003). Call it
 * in the transaction that adds or removes the enrollment or review, so the counters never drift.
 */
export async function adjustCounters(db: Db, classId: string, change: CounterChange): Promise<void> {
  const set: { enrollmentCount?: SQL; ratingSum?: SQL; reviewCount?: SQL } = {};
  if (change.enrollments !== undefined) {
    set.enrollmentCount = sql`greatest(${classes.enrollmentCount} + ${change.enrollments}, 0)`;
  }
  if (change.ratingSum !== undefined) set.ratingSum = sql`${classes.ratingSum} + ${change.ratingSum}`;
  if (change.reviews !== undefined) set.reviewCount = sql`greatest(${classes.reviewCount} + ${change.reviews}, 0)`;
  if (Object.keys(set).length === 0) return;
  await db.update(classes).set(set).where(eq(classes.id, classId));
}

/** Why a class is hidden (decision 043): an admin took it down, or its teacher is suspended. */
export type HiddenReason = 'content' | 'suspension';

/**
 * Takes classes off every public list (decision 043): status `hidden`, remembering the status to
 * go back to. Every public read asks for `accepted`, so none of them (nor the catalogue's indexes)
 * needs to know. Archived classes are already off them; hidden ones stay as they are. Answers the
 * ids hidden.
 */
export async function hideClasses(
  tx: Db,
  which: { classId: string } | { teacherId: string },
  reason: HiddenReason,
  now: Date,
): Promise<string[]> {
  const target = 'classId' in which ? eq(classes.id, which.classId) : eq(classes.teacherId, which.teacherId);
  const rows = await tx
    .update(classes)
    .set({ status: 'hidden', hiddenFromStatus: sql`${classes.status}`, hiddenReason: reason, updatedAt: now })
    .where(and(target, inArray(classes.status, ['pending', 'accepted', 'rejected'])))
    .returning({ id: classes.id });
  return rows.map((row) => row.id);
}

/** Gives a lifted suspension's teacher back the classes it hid, each in its earlier status (decision 043). */
export async function restoreClassesOfTeacher(tx: Db, teacherId: string, now: Date): Promise<string[]> {
  const rows = await tx
    .update(classes)
    .set({
      status: sql`coalesce(${classes.hiddenFromStatus}, 'pending')`,
      hiddenFromStatus: null,
      hiddenReason: null,
      updatedAt: now,
    })
    .where(and(eq(classes.teacherId, teacherId), eq(classes.status, 'hidden'), eq(classes.hiddenReason, 'suspension')))
    .returning({ id: classes.id });
  return rows.map((row) => row.id);
}

/** Whether a class with this id exists, whatever its status. */
export async function classExists(db: Db, classId: string): Promise<boolean> {
  const [row] = await db.select({ id: classes.id }).from(classes).where(eq(classes.id, classId));
  return Boolean(row);
}

/**
 * The columns of `classes` other modules may join on, read only (decision 015): their
 * repositories never import the table itself.
 */
export const classJoin = {
  table: classes,
  id: classes.id,
  title: classes.title,
  status: classes.status,
  teacherId: classes.teacherId,
  /** The approved price on sale now: what a pending cart line is priced at (DESIGN §1.3). */
  priceCents: classes.priceCents,
};
