import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { SECTION_MESSAGES } from '@skillhive/shared/rules/sections';
import type { Db } from '../../db/client.ts';
import { conflict } from '../../lib/app-error.ts';
import { lockClassesKeyShare } from '../classes/classes.public.ts';
import * as sections from '../sections/sections.public.ts';
import * as waitlists from '../waitlists/waitlists.public.ts';
import { WAITLIST_MESSAGES } from '@skillhive/shared/rules/waitlists';
import { type CartLine, findEnrollmentsOfStudent, listClassIdsOfLines } from './cart.repository.ts';
import { seatsTakenOfSection, setSeatHolds } from './section-enrollments.repository.ts';

/**
 * Seats that cannot oversell (decision 042). A section with a capacity never has more paid lines
 * than seats, and never more paid lines plus live holds than seats when a hold is given: every
 * hold and every payment of a seat takes the section's row FOR UPDATE first and counts under that
 * lock, so buyers of one section queue there, on any number of instances. An expired hold is
 * simply not counted: nothing has to run for it to be released.
 */

const MINUTE_MS = 60_000;

export function holdUntil(now: Date, holdMinutes: number): Date {
  return new Date(now.getTime() + holdMinutes * MINUTE_MS);
}

function holds(line: Pick<CartLine, 'seatHeldUntil'>, now: Date): boolean {
  return line.seatHeldUntil !== null && line.seatHeldUntil.getTime() > now.getTime();
}

/**
 * A new cart line's seat (POST /api/enrolled): null for a section without a limit (or no section),
 * else the end of its hold; 409 when every seat is paid, held, offered to someone waiting or kept
 * for the people waiting (decision 051). A student offered a seat takes it here even though the
 * section shows as full to others: carting consumes the offer, whose seat becomes the line's hold;
 * one whose offer ran out hears so. Call in the enrollment's transaction after its class is locked.
 */
export async function holdSeatForNewLine(
  tx: Db,
  sectionId: string | null,
  studentId: string,
  now: Date,
  holdMinutes: number,
): Promise<Date | null> {
  if (!sectionId) return null;
  const section = await sections.lockSection(tx, sectionId);
  if (!section || section.capacity === null) return null;
  const entry = await waitlists.lockLiveEntry(tx, sectionId, studentId);
  const taken = await seatsTakenOfSection(tx, sectionId, now);
  const reserved = await waitlists.reservedSeatsOfSection(tx, sectionId, now, studentId);
  // An offer is a seat already counted as taken: only a capacity lowered since could take it away.
  const offered = entry !== null && waitlists.isLiveOffer(entry, now);
  const used = taken.paid + taken.held + reserved.offers + (offered ? 0 : reserved.waiting);
  if (used >= section.capacity) {
    if (await waitlists.hasExpiredOffer(tx, sectionId, studentId, now)) throw conflict(WAITLIST_MESSAGES.offerExpired);
    throw conflict(SECTION_MESSAGES.full);
  }
  // Whoever waited and now has a seat leaves the queue with it.
  if (entry) await waitlists.markClaimed(tx, entry.id, now);
  return holdUntil(now, holdMinutes);
}

/** The distinct sections of some lines, in id order: the order their rows are locked in. */
function sectionIdsOf(lines: readonly CartLine[]): string[] {
  return [...new Set(lines.flatMap((line) => (line.sectionId ? [line.sectionId] : [])))].sort();
}

/**
 * Whether each line of a limited section may have a seat at `now`: a line whose hold is live
 * keeps its seat (unless the paid lines alone fill the section, after its teacher lowered it);
 * one whose hold expired needs a seat nobody paid for or holds. With `lock`, each section's row is
 * locked first (the caller locked the lines); the answer then stands until the transaction ends.
 */
async function assertSeats(
  tx: Db,
  lines: readonly CartLine[],
  now: Date,
  options: { lock: boolean; message: string },
): Promise<CartLine[]> {
  const limited: CartLine[] = [];
  for (const sectionId of sectionIdsOf(lines)) {
    const section = options.lock
      ? await sections.lockSection(tx, sectionId)
      : await sections.findSectionById(tx, sectionId);
    // A cancelled section sells nothing (decision 052): a line carted before is refused here, and
    // a charge already made for it is refunded in full by the fulfilment.
    if (section?.status === 'cancelled') throw conflict(options.message);
    const capacity = section?.capacity ?? null;
    if (capacity === null) continue;
    for (const line of lines.filter((l) => l.sectionId === sectionId)) {
      const taken = await seatsTakenOfSection(tx, sectionId, now, line.id);
      // A lapsed hold takes a seat again only if nobody holds, is offered or waits for it (decision 051).
      const queue = holds(line, now) ? null : await waitlists.reservedSeatsOfSection(tx, sectionId, now, null);
      const kept = queue ? queue.offers + queue.waiting : 0;
      const full = taken.paid >= capacity || (!holds(line, now) && taken.paid + taken.held + kept >= capacity);
      if (full) throw conflict(options.message);
      limited.push(line);
    }
  }
  return limited;
}

/**
 * POST /api/create-payment-intent: every line of a limited section holds a seat for another
 * `holdMinutes` from now, or the whole cart is refused (409) before anything is charged. Its own
 * transaction: the lines (after their classes) and then the sections are locked, the order the
 * fulfilment takes them in.
 */
export async function holdSeatsForCart(
  db: Db,
  options: { studentId: string; ids: string[]; now: Date; holdMinutes: number },
): Promise<void> {
  await db.transaction(async (tx) => {
    // Classes, then lines, then sections: the order of the fulfilment (enrollments.getCartLines).
    await lockClassesKeyShare(tx, await listClassIdsOfLines(tx, options.studentId, options.ids));
    const lines = await findEnrollmentsOfStudent(tx, options.studentId, options.ids, true);
    const pending = lines.filter((line) => line.status === 'pending');
    const limited = await assertSeats(tx, pending, options.now, {
      lock: true,
      message: SECTION_MESSAGES.fullWhilePaying,
    });
    await setSeatHolds(
      tx,
      options.studentId,
      limited.map((line) => line.id),
      holdUntil(options.now, options.holdMinutes),
    );
  });
}

/**
 * In the fulfilment's transaction, after its lines were locked: each line of a limited section
 * gets its seat, or the payment is refused with PAYMENT_MESSAGES.sectionFull, which the caller
 * settles by refunding the charge in full.
 */
export async function claimSeats(tx: Db, lines: readonly CartLine[], now: Date): Promise<void> {
  await assertSeats(tx, lines, now, { lock: true, message: PAYMENT_MESSAGES.sectionFull });
}

/** Before a card is charged (the test gateway's form): refused while the cart's seats are gone. */
export async function assertSeatsFree(db: Db, lines: readonly CartLine[], now: Date): Promise<void> {
  await assertSeats(db, lines, now, { lock: false, message: SECTION_MESSAGES.fullWhilePaying });
}

/** A declined card frees the seats its cart held (decision 042); paying again holds them again. */
export function releaseSeatHolds(db: Db, studentId: string, ids: string[]): Promise<void> {
  return setSeatHolds(db, studentId, ids, null);
}
