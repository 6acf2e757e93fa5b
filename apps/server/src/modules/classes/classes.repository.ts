import {
  and,
  type AnyColumn,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  ne,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Category, ClassSort, ClassStatus } from '@skillhive/shared/constants';
import type { Db } from '../../db/client.ts';
import { schema } from '../../db/client.ts';

const { classes, enrollments, users } = schema;

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

/**
 * An accepted class by id, or null (unknown, not an id, or not accepted): the one way the
 * enrolment service loads a class a student may enrol in (DESIGN §1.4 "only accepted classes").
 */
export async function findEnrollableClass(db: Db, id: string): Promise<ClassRow | null> {
  if (!isClassId(id)) return null;
  const [row] = await db
    .select(classColumns)
    .from(classes)
    .where(and(eq(classes.id, id), eq(classes.status, 'accepted')));
  return row ?? null;
}

export interface CatalogueFilter {
  /** One status, or null for every status but archived (admins' unfiltered view). */
  status: ClassStatus | null;
  category?: Category | undefined;
  /** Full-text query (websearch syntax) over title, description and teacher name. */
  q?: string | undefined;
  sort: ClassSort;
  limit: number;
  offset: number;
}

function catalogueWhere(filter: CatalogueFilter): SQL | undefined {
  return and(
    filter.status ? eq(classes.status, filter.status) : ne(classes.status, 'archived'),
    filter.category ? eq(classes.category, filter.category) : undefined,
    filter.q ? sql`${classes.search} @@ websearch_to_tsquery('english', ${filter.q})` : undefined,
  );
}

/**
 * Each order ends with the id so pages are stable, and matches one of the composite indexes
 * exactly, nulls placement included (the migration builds the descending ones NULLS LAST, and
 * PostgreSQL only reads an index for an ORDER BY that matches it that way too):
 * (status, created_at desc nulls last, id desc nulls last), the same within a category,
 * (status, price_cents, id) read forwards or backwards, (status, enrollment_count desc nulls last, id desc nulls last).
 */
const descNullsLast = (column: AnyColumn) => sql`${column} desc nulls last`;
const ORDER_BY: Record<ClassSort, SQL[]> = {
  newest: [descNullsLast(classes.createdAt), descNullsLast(classes.id)],
  'price-asc': [asc(classes.priceCents), asc(classes.id)],
  'price-desc': [desc(classes.priceCents), desc(classes.id)],
  popular: [descNullsLast(classes.enrollmentCount), descNullsLast(classes.id)],
};

/**
 * The page query of the catalogue (exported so a test can EXPLAIN exactly what runs). A late row
 * lookup: the page's ids come from the ordering index alone (an index-only scan, so a deep OFFSET
 * skips index entries, not table rows), then only those rows are read. Plain OFFSET read and
 * sorted every skipped row: page 500 cost ~35 ms at 10 000 classes (bench/, BENCHMARKS.md).
 */
export function catalogueQuery(db: Db, filter: CatalogueFilter) {
  const order = ORDER_BY[filter.sort];
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

/** A teacher's classes by the teacher's e-mail, newest first, archived ones left out. */
export async function listClassesOfTeacher(
  db: Db,
  email: string,
  page: { limit: number; offset: number },
): Promise<{ rows: ClassRow[]; total: number }> {
  const where = and(eq(users.email, email), ne(classes.status, 'archived'));
  const [rows, totals] = await Promise.all([
    db
      .select(classColumns)
      .from(classes)
      .innerJoin(users, eq(users.id, classes.teacherId))
      .where(where)
      .orderBy(descNullsLast(classes.createdAt), descNullsLast(classes.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(classes).innerJoin(users, eq(users.id, classes.teacherId)).where(where),
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

/**
 * Removes a class inside the caller's transaction: archived when any enrolment is paid (its
 * students keep their record, DESIGN §4), deleted otherwise. The class's enrolments are locked
 * first, so a payment cannot turn one to paid between the check and the delete.
 */
export async function removeClass(tx: Db, id: string, now: Date): Promise<'deleted' | 'archived' | 'missing'> {
  const [locked] = await tx.select({ id: classes.id }).from(classes).where(eq(classes.id, id)).for('update');
  if (!locked) return 'missing';
  const enrolled = await tx
    .select({ status: enrollments.status })
    .from(enrollments)
    .where(eq(enrollments.classId, id))
    .for('update');
  if (enrolled.some((e) => e.status === 'paid')) {
    await tx.update(classes).set({ status: 'archived', updatedAt: now }).where(eq(classes.id, id));
    return 'archived';
  }
  await tx.delete(classes).where(eq(classes.id, id));
  return 'deleted';
}

export async function enrollmentTotals(
  db: Db,
  classId: string,
): Promise<{ enrolled: number; paid: number; revenueCents: number }> {
  const isPaid = sql`${enrollments.status} = 'paid'`;
  const [row] = await db
    .select({
      enrolled: count(),
      paid: sql<number>`count(*) filter (where ${isPaid})`.mapWith(Number),
      revenueCents: sql<number>`coalesce(sum(${enrollments.priceCents}) filter (where ${isPaid}), 0)`.mapWith(Number),
    })
    .from(enrollments)
    .where(eq(enrollments.classId, classId));
  return row ?? { enrolled: 0, paid: 0, revenueCents: 0 };
}

/** Enrolments per ISO week (Monday start, UTC) since `since`, as { week: 'YYYY-MM-DD', n }. */
export async function enrollmentsPerWeek(db: Db, classId: string, since: Date): Promise<{ week: string; n: number }[]> {
  const week = sql<string>`to_char(date_trunc('week', ${enrollments.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  return db
    .select({ week, n: count() })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), gte(enrollments.createdAt, since)))
    .groupBy(week);
}
