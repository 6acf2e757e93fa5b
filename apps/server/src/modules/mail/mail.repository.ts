import { and, count, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import * as schema from '../../db/schema/mail.ts';

const { mailOutbox } = schema;

export type MailRow = typeof mailOutbox.$inferSelect;

export async function insertMail(
  db: Db,
  values: { kind: string; to: string; subject: string; text: string; html: string },
): Promise<string> {
  const [row] = await db.insert(mailOutbox).values(values).returning({ id: mailOutbox.id });
  return row!.id;
}

/** A claim of one row: the row's `attempts` after the claim, which the next claim changes. */
export interface MailClaim {
  id: string;
  attempts: number;
}

const leaseEnd = (leaseMs: number) => sql`now() + make_interval(secs => ${leaseMs / 1000}::double precision)`;

/** The rows of `claims` still held by them: pending, and not claimed again since. */
function heldBy(claims: MailClaim[]) {
  return and(
    eq(mailOutbox.status, 'pending'),
    or(...claims.map((claim) => and(eq(mailOutbox.id, claim.id), eq(mailOutbox.attempts, claim.attempts)))),
  );
}

/**
 * Takes up to `limit` due messages for this worker for `leaseMs`: rows another worker holds (a
 * live lease, or a row lock of a concurrent claim) are skipped, so several instances never send
 * the same message at the same time. "Due" and the lease are measured on the database's clock
 * (`now()`), the one clock every instance shares (decision 032). Each claim adds one to `attempts`,
 * which identifies the claim for renewLeases, release and the marks.
 */
export async function claimDue(db: Db, options: { leaseMs: number; limit: number }): Promise<MailRow[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, 'pending'),
        lte(mailOutbox.nextAttemptAt, sql`now()`),
        or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(mailOutbox.createdAt)
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({ lockedUntil: leaseEnd(options.leaseMs), attempts: sql`${mailOutbox.attempts} + 1` })
    .where(inArray(mailOutbox.id, due))
    .returning();
}

/**
 * Extends the leases of `claims` to `leaseMs` from now (database clock); returns the ids still held.
 * A claim whose lease ran out is kept only while no other worker has claimed its row since.
 */
export async function renewLeases(db: Db, claims: MailClaim[], leaseMs: number): Promise<string[]> {
  if (claims.length === 0) return [];
  const rows = await db
    .update(mailOutbox)
    .set({ lockedUntil: leaseEnd(leaseMs) })
    .where(heldBy(claims))
    .returning({ id: mailOutbox.id });
  return rows.map((row) => row.id);
}

/** Gives claimed, unsent rows back at once (a stop, a lost race), as if this claim never happened. */
export async function release(db: Db, claims: MailClaim[]): Promise<void> {
  if (claims.length === 0) return;
  await db
    .update(mailOutbox)
    .set({ lockedUntil: null, attempts: sql`${mailOutbox.attempts} - 1` })
    .where(heldBy(claims));
}

export async function markSent(db: Db, id: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null })
    .where(eq(mailOutbox.id, id));
}

export async function markFailed(db: Db, id: string, options: { error: string; retryInMs: number }): Promise<void> {
  await db
    .update(mailOutbox)
    .set({
      lockedUntil: null,
      lastError: options.error,
      nextAttemptAt: sql`now() + make_interval(secs => ${options.retryInMs / 1000}::double precision)`,
    })
    .where(eq(mailOutbox.id, id));
}

export async function listMail(
  db: Db,
  options: { limit: number; offset: number },
): Promise<{ rows: MailRow[]; total: number }> {
  return withTotal(
    db
      .select()
      .from(mailOutbox)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: mailOutbox },
  );
}

export async function countPending(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'pending'));
  return row?.n ?? 0;
}

/**
 * How long the oldest unsent mail has waited, in seconds (0 when none waits), measured on the
 * database's clock that wrote its `created_at`: an instance whose clock is off reports the same lag
 * (decision 032).
 */
export async function oldestPendingAgeSeconds(db: Db): Promise<number> {
  const [row] = await db
    .select({
      seconds: sql<string | number | null>`extract(epoch from now() - min(${mailOutbox.createdAt}))`,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'pending'));
  const seconds = Number(row?.seconds ?? 0);
  return Number.isFinite(seconds) ? Math.max(0, seconds) : 0;
}
