import { and, asc, eq, gt, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import type { WaitlistStatus } from '@skillhive/shared/rules/waitlists';
import type { Db } from '../../db/client.ts';
import { waitlistEntries } from '../../db/schema/waitlists.ts';
import { userJoin } from '../users/contact.public.ts';

/** Waitlists of full sections (decision 051): Drizzle only. */

export type WaitlistRow = typeof waitlistEntries.$inferSelect;

const LIVE: WaitlistStatus[] = ['waiting', 'offered'];

/** The person's live entry (waiting or offered) of a section; with `lock`, FOR UPDATE. */
export async function findLiveEntry(
  db: Db,
  sectionId: string,
  userId: string,
  options: { lock?: boolean } = {},
): Promise<WaitlistRow | null> {
  const query = db
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.sectionId, sectionId),
        eq(waitlistEntries.userId, userId),
        inArray(waitlistEntries.status, LIVE),
      ),
    );
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The person's newest entry of a section, whatever its state. */
export async function findLatestEntry(db: Db, sectionId: string, userId: string): Promise<WaitlistRow | null> {
  const [row] = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.sectionId, sectionId), eq(waitlistEntries.userId, userId)))
    .orderBy(sql`${waitlistEntries.seq} desc`)
    .limit(1);
  return row ?? null;
}

/** A new waiting entry; null when the person already has a live one (the unique index). */
export async function insertEntry(db: Db, sectionId: string, userId: string, now: Date): Promise<WaitlistRow | null> {
  const [row] = await db
    .insert(waitlistEntries)
    .values({ sectionId, userId, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function setStatus(
  db: Db,
  id: string,
  status: WaitlistStatus,
  now: Date,
  extra: { offeredAt?: Date; offerExpiresAt?: Date } = {},
): Promise<void> {
  await db
    .update(waitlistEntries)
    .set({ status, updatedAt: now, ...extra })
    .where(eq(waitlistEntries.id, id));
}

/**
 * Seats a section's queue keeps from others at `now`, leaving `userId` out: live offers, and people
 * waiting (ahead of `userId` when they wait too, else all of them).
 */
export async function reservedSeats(
  db: Db,
  sectionId: string,
  now: Date,
  userId: string | null,
): Promise<{ offers: number; waiting: number }> {
  const own = userId ? await findLiveEntry(db, sectionId, userId) : null;
  const ahead = own?.status === 'waiting' ? own.seq : null;
  const [row] = await db
    .select({
      offers:
        sql<number>`count(*) filter (where ${waitlistEntries.status} = 'offered' and ${waitlistEntries.offerExpiresAt} > ${now})`.mapWith(
          Number,
        ),
      waiting: sql<number>`count(*) filter (where ${waitlistEntries.status} = 'waiting'${
        ahead === null ? sql`` : sql` and ${waitlistEntries.seq} < ${ahead}`
      })`.mapWith(Number),
    })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.sectionId, sectionId),
        inArray(waitlistEntries.status, LIVE),
        userId ? ne(waitlistEntries.userId, userId) : undefined,
      ),
    );
  return { offers: row?.offers ?? 0, waiting: row?.waiting ?? 0 };
}

/** Live offers plus people waiting, per section (the public schedule's seats left). */
export async function reservedSeatsOfSections(db: Db, sectionIds: string[], now: Date): Promise<Map<string, number>> {
  if (sectionIds.length === 0) return new Map();
  const rows = await db
    .select({
      sectionId: waitlistEntries.sectionId,
      n: sql<number>`count(*) filter (where ${waitlistEntries.status} = 'waiting' or ${waitlistEntries.offerExpiresAt} > ${now})`.mapWith(
        Number,
      ),
    })
    .from(waitlistEntries)
    .where(and(inArray(waitlistEntries.sectionId, sectionIds), inArray(waitlistEntries.status, LIVE)))
    .groupBy(waitlistEntries.sectionId);
  return new Map(rows.map((row) => [row.sectionId, row.n]));
}

/** People waiting per section (the teacher's section list). */
export async function waitingCountsOfSections(db: Db, sectionIds: string[]): Promise<Map<string, number>> {
  if (sectionIds.length === 0) return new Map();
  const rows = await db
    .select({ sectionId: waitlistEntries.sectionId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(waitlistEntries)
    .where(and(inArray(waitlistEntries.sectionId, sectionIds), eq(waitlistEntries.status, 'waiting')))
    .groupBy(waitlistEntries.sectionId);
  return new Map(rows.map((row) => [row.sectionId, row.n]));
}

/** Sections with someone waiting or offered a seat: the ones the offer job looks at. */
export async function listSectionsWithQueue(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ sectionId: waitlistEntries.sectionId })
    .from(waitlistEntries)
    .where(inArray(waitlistEntries.status, LIVE));
  return rows.map((row) => row.sectionId);
}

/** Offers of a section that ran out by `now` become expired; answers them. */
export async function expireOffers(db: Db, sectionId: string, now: Date): Promise<WaitlistRow[]> {
  return db
    .update(waitlistEntries)
    .set({ status: 'expired', updatedAt: now })
    .where(
      and(
        eq(waitlistEntries.sectionId, sectionId),
        eq(waitlistEntries.status, 'offered'),
        lte(waitlistEntries.offerExpiresAt, now),
      ),
    )
    .returning();
}

export async function countLiveOffers(db: Db, sectionId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.sectionId, sectionId),
        eq(waitlistEntries.status, 'offered'),
        gt(waitlistEntries.offerExpiresAt, now),
      ),
    );
  return row?.n ?? 0;
}

/** The first `n` people waiting of a section, in joining order. */
export async function firstWaiting(db: Db, sectionId: string, n: number): Promise<WaitlistRow[]> {
  if (n <= 0) return [];
  return db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.sectionId, sectionId), eq(waitlistEntries.status, 'waiting')))
    .orderBy(asc(waitlistEntries.seq))
    .limit(n);
}

/** Every live entry of a section becomes `status` (a cancelled section); answers them. */
export async function closeLiveEntries(
  db: Db,
  sectionId: string,
  status: WaitlistStatus,
  now: Date,
): Promise<WaitlistRow[]> {
  return db
    .update(waitlistEntries)
    .set({ status, updatedAt: now })
    .where(and(eq(waitlistEntries.sectionId, sectionId), inArray(waitlistEntries.status, LIVE)))
    .returning();
}

/** How many wait ahead of an entry (its position is this plus one). */
export async function countWaitingBefore(db: Db, sectionId: string, seq: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.sectionId, sectionId),
        eq(waitlistEntries.status, 'waiting'),
        lt(waitlistEntries.seq, seq),
      ),
    );
  return row?.n ?? 0;
}

/** A person's live entries, oldest first. */
export async function listLiveEntriesOf(db: Db, userId: string): Promise<WaitlistRow[]> {
  return db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.userId, userId), inArray(waitlistEntries.status, LIVE)))
    .orderBy(asc(waitlistEntries.seq));
}

export type QueueRow = WaitlistRow & { studentName: string | null };

/** A section's live queue in joining order, with each person's current name. */
export async function listQueue(db: Db, sectionId: string, limit: number): Promise<QueueRow[]> {
  const rows = await db
    .select({ entry: waitlistEntries, studentName: userJoin.name })
    .from(waitlistEntries)
    .leftJoin(userJoin.table, eq(userJoin.id, waitlistEntries.userId))
    .where(and(eq(waitlistEntries.sectionId, sectionId), inArray(waitlistEntries.status, LIVE)))
    .orderBy(asc(waitlistEntries.seq))
    .limit(limit);
  return rows.map((row) => ({ ...row.entry, studentName: row.studentName }));
}
