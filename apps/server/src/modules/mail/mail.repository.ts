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

/**
 * Takes up to `limit` due messages for this worker until `lockedUntil`: rows another worker holds
 * (a live lease, or a row lock of a concurrent claim) are skipped, so several instances never
 * send the same message at the same time.
 */
export async function claimDue(db: Db, options: { now: Date; lockedUntil: Date; limit: number }): Promise<MailRow[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, 'pending'),
        lte(mailOutbox.nextAttemptAt, options.now),
        or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, options.now)),
      ),
    )
    .orderBy(mailOutbox.createdAt)
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({ lockedUntil: options.lockedUntil, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(inArray(mailOutbox.id, due))
    .returning();
}

export async function markSent(db: Db, id: string, sentAt: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt, lockedUntil: null, lastError: null })
    .where(eq(mailOutbox.id, id));
}

export async function markFailed(db: Db, id: string, options: { error: string; nextAttemptAt: Date }): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ lockedUntil: null, lastError: options.error, nextAttemptAt: options.nextAttemptAt })
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

export async function oldestPendingCreatedAt(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ createdAt: mailOutbox.createdAt })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'pending'))
    .orderBy(mailOutbox.createdAt)
    .limit(1);
  return row?.createdAt ?? null;
}
