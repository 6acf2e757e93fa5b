import { and, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { TeacherRequestStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import * as schema from '../../db/schema/teacher-requests.ts';

export type TeacherRequestRow = typeof schema.teacherRequests.$inferSelect;
type NewTeacherRequest = typeof schema.teacherRequests.$inferInsert;

const ONE_PENDING_INDEX = 'teacher_requests_one_pending_idx';

/**
 * True when `error` (or its cause: Drizzle wraps driver errors) is PostgreSQL's unique violation
 * of the one-pending-request index. pg and PGlite both carry the SQLSTATE in `code`.
 */
export function isOnePendingViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505') {
      return constraint === ONE_PENDING_INDEX || (typeof message === 'string' && message.includes(ONE_PENDING_INDEX));
    }
  }
  return false;
}

export async function insertTeacherRequest(db: Db, values: NewTeacherRequest): Promise<string> {
  const [row] = await db.insert(schema.teacherRequests).values(values).returning({ id: schema.teacherRequests.id });
  return row!.id;
}

export async function findPendingRequestOfUser(db: Db, userId: string): Promise<TeacherRequestRow | null> {
  const [row] = await db
    .select()
    .from(schema.teacherRequests)
    .where(and(eq(schema.teacherRequests.userId, userId), eq(schema.teacherRequests.status, 'pending')))
    .limit(1);
  return row ?? null;
}

/** The user's newest request (teacher_requests_user_created_idx). */
export async function findLatestRequestOfUser(db: Db, userId: string): Promise<TeacherRequestRow | null> {
  const [row] = await db
    .select()
    .from(schema.teacherRequests)
    .where(eq(schema.teacherRequests.userId, userId))
    .orderBy(desc(schema.teacherRequests.createdAt), desc(schema.teacherRequests.id))
    .limit(1);
  return row ?? null;
}

/** The user's newest approved request: what they told us about themselves when applying. */
export async function findLatestApprovedRequestOfUser(db: Db, userId: string): Promise<TeacherRequestRow | null> {
  const [row] = await db
    .select()
    .from(schema.teacherRequests)
    .where(and(eq(schema.teacherRequests.userId, userId), eq(schema.teacherRequests.status, 'approved')))
    .orderBy(desc(schema.teacherRequests.createdAt), desc(schema.teacherRequests.id))
    .limit(1);
  return row ?? null;
}

export async function findTeacherRequestById(db: Db, id: string): Promise<TeacherRequestRow | null> {
  const [row] = await db.select().from(schema.teacherRequests).where(eq(schema.teacherRequests.id, id));
  return row ?? null;
}

/** `%`, `_` and `\` in a search term are literal characters, not patterns. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page, newest first (teacher_requests_status_created_idx when filtered by status). `q` matches
 * part of the name, e-mail or title: the moderation queue is small (pending requests), so a
 * scan of it is cheap; no search index.
 */
export async function listTeacherRequests(
  db: Db,
  options: { status?: TeacherRequestStatus | undefined; q?: string | undefined; limit: number; offset: number },
): Promise<{ rows: TeacherRequestRow[]; total: number }> {
  const pattern = options.q ? containsPattern(options.q) : null;
  const where: SQL | undefined = and(
    options.status ? eq(schema.teacherRequests.status, options.status) : undefined,
    pattern
      ? or(
          ilike(schema.teacherRequests.name, pattern),
          ilike(schema.teacherRequests.email, pattern),
          ilike(schema.teacherRequests.title, pattern),
        )
      : undefined,
  );
  return withTotal(
    db
      .select()
      .from(schema.teacherRequests)
      .where(where)
      .orderBy(desc(schema.teacherRequests.createdAt), desc(schema.teacherRequests.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: schema.teacherRequests, where },
  );
}

/**
 * Decides a request only if it is still pending: one conditional UPDATE, so of two admins racing
 * exactly one gets the row back (spec §4). Null when it was not pending (or does not exist).
 */
export async function decidePendingRequest(
  db: Db,
  id: string,
  decision: { status: 'approved' | 'rejected'; decidedBy: string; decidedAt: Date },
): Promise<TeacherRequestRow | null> {
  const [row] = await db
    .update(schema.teacherRequests)
    .set(decision)
    .where(and(eq(schema.teacherRequests.id, id), eq(schema.teacherRequests.status, 'pending')))
    .returning();
  return row ?? null;
}
