import { and, type AnyColumn, asc, count, desc, eq, getTableColumns, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Category, ClassSort, ClassStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { classes, searchTerms } from '../../db/schema/classes.ts';

/** Every column but the search vector, which only the database reads. */
const { search: _search, ...classColumns } = getTableColumns(classes);

export type ClassRow = Omit<typeof classes.$inferSelect, 'search'>;
type NewClass = typeof classes.$inferInsert;

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

export interface CatalogueFilter {
  /** One status, or null for every status but archived (admins' unfiltered view). */
  status: ClassStatus | null;
  category?: Category | undefined;
  /**
   * A `to_tsquery` expression built by the service from the visitor's words (decision 018), matched
   * against the weighted vector of title, teacher name and description.
   */
  tsquery?: string | undefined;
  minPriceCents?: number | undefined;
  maxPriceCents?: number | undefined;
  /** The lowest average rating (1–5); classes without reviews are left out when set. */
  minRating?: number | undefined;
  sort: ClassSort;
  limit: number;
  offset: number;
}

const tsqueryOf = (expression: string) => sql`to_tsquery('english', ${expression})`;

function catalogueWhere(filter: CatalogueFilter): SQL | undefined {
  return and(
    filter.status ? eq(classes.status, filter.status) : ne(classes.status, 'archived'),
    filter.category ? eq(classes.category, filter.category) : undefined,
    filter.tsquery ? sql`${classes.search} @@ ${tsqueryOf(filter.tsquery)}` : undefined,
    filter.minPriceCents !== undefined ? sql`${classes.priceCents} >= ${filter.minPriceCents}` : undefined,
    filter.maxPriceCents !== undefined ? sql`${classes.priceCents} <= ${filter.maxPriceCents}` : undefined,
    // The average is rating_sum / review_count; compared without a division (and without unrated classes).
    filter.minRating !== undefined
      ? sql`${classes.reviewCount} > 0 and ${classes.ratingSum} >= ${filter.minRating}::numeric * ${classes.reviewCount}`
      : undefined,
  );
}

/**
 * Each order ends with the id so pages are stable, and matches one of the composite indexes
 * exactly, nulls placement included (the migration builds the descending ones NULLS LAST, and
 * PostgreSQL only reads an index for an ORDER BY that matches it that way too):
 * (status, created_at desc nulls last, id desc nulls last), the same within a category,
 * (status, price_cents, id) read forwards or backwards, (status, enrollment_count desc nulls last, id desc nulls last).
 * Relevance has no index: the matches of the query are ranked (ts_rank with the title weighing
 * most), then the more popular first (decision 018).
 */
const descNullsLast = (column: AnyColumn | SQL) => sql`${column} desc nulls last`;
function orderOf(filter: CatalogueFilter): SQL[] {
  const sort = filter.sort === 'relevance' && !filter.tsquery ? 'newest' : filter.sort;
  switch (sort) {
    case 'relevance':
      return [
        sql`ts_rank(${classes.search}, ${tsqueryOf(filter.tsquery!)}) desc`,
        descNullsLast(classes.enrollmentCount),
        descNullsLast(classes.id),
      ];
    case 'newest':
      return [descNullsLast(classes.createdAt), descNullsLast(classes.id)];
    case 'price-asc':
      return [asc(classes.priceCents), asc(classes.id)];
    case 'price-desc':
      return [desc(classes.priceCents), desc(classes.id)];
    case 'popular':
      return [descNullsLast(classes.enrollmentCount), descNullsLast(classes.id)];
  }
}

/**
 * The page query of the catalogue (exported so a test can EXPLAIN exactly what runs). A late row
 * lookup: the page's ids come from the ordering index alone (an index-only scan, so a deep OFFSET
 * skips index entries, not table rows), then only those rows are read. Plain OFFSET read and
 * sorted every skipped row: page 500 cost ~35 ms at 10 000 classes (bench/, BENCHMARKS.md).
 */
export function catalogueQuery(db: Db, filter: CatalogueFilter) {
  const order = orderOf(filter);
  const pageIds = db
    .select({ id: classes.id })
    .from(classes)
    .where(catalogueWhere(filter))
    .orderBy(...order)
    .limit(filter.limit)
    .offset(filter.offset);
  return db
    .select(classColumns)
    .from(classes)
    .where(inArray(classes.id, pageIds))
    .orderBy(...order);
}

/** How many classes match the catalogue filter (X-Total-Count). */
export async function countCatalogue(db: Db, filter: CatalogueFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(classes).where(catalogueWhere(filter));
  return row?.n ?? 0;
}

/** How close a known word must be to a misspelled one to be tried instead (pg_trgm similarity, 0–1). */
export const CORRECTION_SIMILARITY_MIN = 0.25;

/**
 * For each word that begins no known word (a misspelling, not a prefix being typed), the known
 * words nearest to it by trigram similarity (pg_trgm; decision 018), at most `perWord` each,
 * nearest first: the GiST index hands them over nearest first (`<->`), so only `perWord` are read.
 * Words are letters and digits only (the service splits them so), so LIKE sees no pattern in them.
 */
export async function findCorrections(db: Db, words: string[], perWord: number): Promise<Map<string, string[]>> {
  const corrections = new Map<string, string[]>();
  if (words.length === 0) return corrections;
  const list = sql.join(
    words.map((word) => sql`${word}`),
    sql`, `,
  );
  const rows = (await db.execute(sql`
    select w.word, t.term
    from unnest(array[${list}]::text[]) as w(word)
    cross join lateral (
      select ${searchTerms.term} as term, similarity(${searchTerms.term}, w.word) as score from ${searchTerms}
      order by ${searchTerms.term} <-> w.word
      limit ${perWord}
    ) as t
    where t.score >= ${CORRECTION_SIMILARITY_MIN}
      and not exists (select 1 from ${searchTerms} as known where known.term like w.word || '%')
      -- A stop word ("the") is no misspelling: text search ignores it.
      and to_tsvector('english', w.word) <> ''::tsvector
    order by w.word, t.score desc, t.term
  `)) as unknown as { rows: { word: string; term: string }[] };
  for (const { word, term } of rows.rows) corrections.set(word, [...(corrections.get(word) ?? []), term]);
  return corrections;
}

/** The accepted classes a search ranks first, for the suggestions under the search box. */
export async function suggestClasses(db: Db, tsquery: string, limit: number) {
  return db
    .select({ id: classes.id, title: classes.title, teacherName: classes.teacherName, category: classes.category })
    .from(classes)
    .where(and(eq(classes.status, 'accepted'), sql`${classes.search} @@ ${tsqueryOf(tsquery)}`))
    .orderBy(...orderOf({ status: 'accepted', tsquery, sort: 'relevance', limit, offset: 0 }))
    .limit(limit);
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
  const [rows, totals] = await Promise.all([
    db
      .select(classColumns)
      .from(classes)
      .where(where)
      .orderBy(descNullsLast(classes.createdAt), descNullsLast(classes.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(classes).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
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

/** A class with paid enrolments is archived instead of deleted (DESIGN §4). */
export async function archiveClass(tx: Db, id: string, now: Date): Promise<void> {
  await tx.update(classes).set({ status: 'archived', updatedAt: now }).where(eq(classes.id, id));
}

export async function deleteClass(tx: Db, id: string): Promise<void> {
  await tx.delete(classes).where(eq(classes.id, id));
}

/** What an enrolment copies from its class (spec §3), plus who owns the class and whether it is open. */
export type ClassForEnrollment = {
  id: string;
  teacherId: string;
  teacherName: string;
  title: string;
  description: string;
  priceCents: number;
  imageKey: string;
  status: 'pending' | 'accepted' | 'rejected' | 'archived';
};

/**
 * With `lock`, the class row is held FOR KEY SHARE until the transaction ends: deleting the class
 * (which locks it FOR UPDATE first) waits for the enrolment to commit, or the enrolment waits for
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
 * in the transaction that adds or removes the enrolment or review, so the counters never drift.
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
};
