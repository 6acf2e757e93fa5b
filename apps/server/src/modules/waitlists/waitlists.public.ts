import type { Db } from '../../db/client.ts';
import * as repo from './waitlists.repository.ts';

/**
 * What the seat counters of other modules need of the waitlists (decision 051): the seats a
 * section's queue keeps from other buyers, and the caller's own live entry, which carting the
 * section consumes. This file imports only this module's repository, so the enrollments and
 * sections modules may import it without a cycle.
 */

export type { WaitlistRow } from './waitlists.repository.ts';

/**
 * Offers the seats that freed in these sections to the people waiting, at once rather than at the
 * offer job's next run (a refund, a cart line removed). Made by buildApp; it logs and never
 * throws: the job is the guarantee.
 */
export type SeatsFreed = (sectionIds: string[]) => Promise<void>;

/**
 * Seats of a section its queue keeps at `now` from anyone but `userId`: live offers, and the
 * people waiting (those ahead of `userId` when they wait too). People waiting come first: a seat
 * that frees goes to them before anyone new (decision 051).
 */
export function reservedSeatsOfSection(
  db: Db,
  sectionId: string,
  now: Date,
  userId: string | null,
): Promise<{ offers: number; waiting: number }> {
  return repo.reservedSeats(db, sectionId, now, userId);
}

/** Live offers plus people waiting, per section (the public schedule's seats left). */
export function reservedSeatsOfSections(db: Db, sectionIds: string[], now: Date): Promise<Map<string, number>> {
  return repo.reservedSeatsOfSections(db, sectionIds, now);
}

/** The person's live entry of a section (waiting, or offered a seat), locked until the transaction ends. */
export function lockLiveEntry(tx: Db, sectionId: string, userId: string): Promise<repo.WaitlistRow | null> {
  return repo.findLiveEntry(tx, sectionId, userId, { lock: true });
}

/** Whether the person's newest entry of a section is an offer that ran out (what a refusal says). */
export async function hasExpiredOffer(db: Db, sectionId: string, userId: string, now: Date): Promise<boolean> {
  const latest = await repo.findLatestEntry(db, sectionId, userId);
  if (!latest) return false;
  if (latest.status === 'expired') return true;
  return latest.status === 'offered' && latest.offerExpiresAt !== null && latest.offerExpiresAt <= now;
}

/** Whether an entry is an offer still running at `now`. */
export function isLiveOffer(entry: Pick<repo.WaitlistRow, 'status' | 'offerExpiresAt'>, now: Date): boolean {
  return entry.status === 'offered' && entry.offerExpiresAt !== null && entry.offerExpiresAt > now;
}

/** Carting the section consumed the entry: its seat is the cart line's hold from now on. */
export function markClaimed(tx: Db, entryId: string, now: Date): Promise<void> {
  return repo.setStatus(tx, entryId, 'claimed', now);
}

/** People waiting per section (the teacher's section list). */
export function waitingCountsOfSections(db: Db, sectionIds: string[]): Promise<Map<string, number>> {
  return repo.waitingCountsOfSections(db, sectionIds);
}
