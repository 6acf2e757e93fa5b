import type { FastifyBaseLogger } from 'fastify';
import type { MyWaitlistEntry, WaitlistQueueEntry } from '@skillhive/shared/contracts/waitlists';
import { DELETED_STUDENT_NAME } from '@skillhive/shared/rules/constants';
import { SECTION_MESSAGES } from '@skillhive/shared/rules/sections';
import { WAITLIST_MESSAGES, WAITLIST_PAGE_MAX } from '@skillhive/shared/rules/waitlists';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { queueMail, waitlistCancelledMail, waitlistOfferMail } from '../mail/mail.service.ts';
import { notify, type NotificationPublisher } from '../notifications/notifications.public.ts';
import * as sections from '../sections/sections.public.ts';
import { contactEmailOf } from '../users/contact.public.ts';
import * as repo from './waitlists.repository.ts';

/**
 * Waitlists of full sections (decision 051). A full section offers "join the waiting list"; when
 * a seat frees (a refund, an expired hold, a line removed from a cart) the first person waiting is
 * offered it for WAITLIST_OFFER_MINUTES, by e-mail and in the notification centre; an offer not
 * claimed in time passes to the next. Every offer is made under the section's row lock (decision
 * 042's), counting paid lines, live holds and live offers there, so offers never exceed free
 * seats, on any number of instances.
 */

export interface WaitlistDeps {
  db: Db;
  now: () => Date;
  publicUrl: string;
  notifications: NotificationPublisher;
  /** WAITLIST_OFFER_MINUTES: how long an offered seat is held for its person. */
  offerMinutes: number;
}

const MINUTE_MS = 60_000;

/** A section by id (404 for an unknown one or an id that is no uuid) with its class. */
async function loadSection(db: Db, sectionId: string, options: { lock?: boolean } = {}) {
  const section = enrollments.isUuid(sectionId)
    ? options.lock
      ? await sections.lockSection(db, sectionId)
      : await sections.findSectionById(db, sectionId)
    : null;
  if (!section) throw notFound('Section');
  const cls = await findClassForEnrollment(db, section.classId);
  if (!cls) throw notFound('Section');
  return { section, cls };
}

async function toMyEntry(db: Db, row: repo.WaitlistRow, classTitle: string, classId: string): Promise<MyWaitlistEntry> {
  const position = row.status === 'waiting' ? (await repo.countWaitingBefore(db, row.sectionId, row.seq)) + 1 : null;
  return {
    _id: row.id,
    sectionId: row.sectionId,
    classId,
    classTitle,
    status: row.status,
    position,
    joinedAt: row.createdAt.toISOString(),
    offerExpiresAt: row.status === 'offered' && row.offerExpiresAt ? row.offerExpiresAt.toISOString() : null,
  };
}

/**
 * POST /api/sections/:id/waitlist: the caller joins a full section's queue, last. 409 when the
 * section still has a seat for them, is not open (its window, a class not on sale, cancelled),
 * they teach the class, already have it in their cart or paid for it, or already wait.
 */
export async function joinWaitlist(deps: WaitlistDeps, viewer: Viewer, sectionId: string): Promise<MyWaitlistEntry> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    // Under the section's lock, as every seat is counted (decision 042).
    const { section, cls } = await loadSection(tx, sectionId, { lock: true });
    if (cls.teacherId === viewer.id) throw conflict(WAITLIST_MESSAGES.ownClass);
    if (section.status === 'cancelled') throw conflict(SECTION_MESSAGES.cancelled);
    if (cls.status !== 'accepted' || !sections.isEnrollmentOpen(section, now)) {
      throw conflict(SECTION_MESSAGES.notOpen);
    }
    const enrolled = await enrollments.findLiveEnrollmentFor(tx, viewer.id, cls.id);
    if (enrolled) {
      throw conflict(enrolled.status === 'paid' ? WAITLIST_MESSAGES.alreadyEnrolled : WAITLIST_MESSAGES.inCart);
    }
    if (await repo.findLiveEntry(tx, section.id, viewer.id)) throw conflict(WAITLIST_MESSAGES.alreadyWaiting);
    if (section.capacity === null) throw conflict(WAITLIST_MESSAGES.notFull);
    const taken = await enrollments.seatsTakenOfSection(tx, section.id, now);
    const reserved = await repo.reservedSeats(tx, section.id, now, null);
    if (taken.paid + taken.held + reserved.offers + reserved.waiting < section.capacity) {
      throw conflict(WAITLIST_MESSAGES.notFull);
    }
    const row = await repo.insertEntry(tx, section.id, viewer.id, now);
    // A concurrent join of the same person won the unique index.
    if (!row) throw conflict(WAITLIST_MESSAGES.alreadyWaiting);
    return toMyEntry(tx, row, cls.title, cls.id);
  });
}

/**
 * DELETE /api/sections/:id/waitlist: the caller leaves the queue (404 when not on it). A seat
 * offered to them passes to the next person at once.
 */
export async function leaveWaitlist(
  deps: WaitlistDeps,
  viewer: Viewer,
  sectionId: string,
): Promise<{ deletedCount: number; freedOffer: boolean }> {
  if (!enrollments.isUuid(sectionId)) throw notFound('Section');
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const entry = await repo.findLiveEntry(tx, sectionId, viewer.id, { lock: true });
    if (!entry) throw notFound('Waiting list entry');
    await repo.setStatus(tx, entry.id, 'left', now);
    return { deletedCount: 1, freedOffer: entry.status === 'offered' };
  });
}

/** GET /api/waitlist: the caller's live entries (waiting, or offered a seat), oldest first. */
export async function listMyEntries(deps: WaitlistDeps, viewer: Viewer): Promise<MyWaitlistEntry[]> {
  const rows = await repo.listLiveEntriesOf(deps.db, viewer.id);
  const items: MyWaitlistEntry[] = [];
  for (const row of rows) {
    const section = await sections.findSectionById(deps.db, row.sectionId);
    const cls = section ? await findClassForEnrollment(deps.db, section.classId) : null;
    if (!section || !cls) continue;
    // An offer that ran out is shown as such before the job marks it.
    const status =
      row.status === 'offered' && row.offerExpiresAt && row.offerExpiresAt <= deps.now() ? 'expired' : row.status;
    items.push(await toMyEntry(deps.db, { ...row, status }, cls.title, cls.id));
  }
  return items;
}

/**
 * GET /api/sections/:id/waitlist: the section's live queue in joining order, for its class's
 * teacher or an admin (403 for anyone else): position, display name, joined at, status. No e-mail
 * address: the teacher reaches students through the class's messages.
 */
export async function listQueue(deps: WaitlistDeps, viewer: Viewer, sectionId: string): Promise<WaitlistQueueEntry[]> {
  const { section, cls } = await loadSection(deps.db, sectionId);
  if (cls.teacherId !== viewer.id && !viewer.isAdmin)
    throw forbidden('Only the teacher of this class can see its waiting list');
  const rows = await repo.listQueue(deps.db, section.id, WAITLIST_PAGE_MAX);
  let position = 0;
  return rows.map((row) => ({
    _id: row.id,
    position: row.status === 'waiting' ? ++position : null,
    studentName: row.studentName ?? DELETED_STUDENT_NAME,
    joinedAt: row.createdAt.toISOString(),
    status: row.status,
    offerExpiresAt: row.status === 'offered' && row.offerExpiresAt ? row.offerExpiresAt.toISOString() : null,
  }));
}

type Teller = Pick<WaitlistDeps, 'publicUrl' | 'notifications'>;

/**
 * One pass over one section, in the caller's transaction: its row is locked FOR UPDATE (decision
 * 042), offers that ran out expire, and each seat neither paid, held nor offered goes to the next
 * person waiting, in joining order. Answers how many offers it made.
 */
export async function offerSeatsOfSection(
  tx: Db,
  deps: Teller & { offerMinutes: number },
  sectionId: string,
  now: Date,
): Promise<number> {
  const section = await sections.lockSection(tx, sectionId);
  if (!section) return 0;
  if (section.status === 'cancelled') {
    await tellWaitlistOfCancellation(tx, deps, sectionId, now);
    return 0;
  }
  await repo.expireOffers(tx, sectionId, now);
  // No limit: nobody needs to wait, so nobody is offered anything; they may enroll as anyone does.
  if (section.capacity === null || !sections.isEnrollmentOpen(section, now)) return 0;
  const cls = await findClassForEnrollment(tx, section.classId);
  if (!cls || cls.status !== 'accepted') return 0;
  const taken = await enrollments.seatsTakenOfSection(tx, sectionId, now);
  const offers = await repo.countLiveOffers(tx, sectionId, now);
  const free = section.capacity - taken.paid - taken.held - offers;
  const next = await repo.firstWaiting(tx, sectionId, free);
  const until = new Date(now.getTime() + deps.offerMinutes * MINUTE_MS);
  for (const entry of next) {
    await repo.setStatus(tx, entry.id, 'offered', now, { offeredAt: now, offerExpiresAt: until });
    const contact = await contactEmailOf(tx, entry.userId);
    if (!contact) continue;
    await notify(
      tx,
      deps.notifications,
      {
        recipientId: entry.userId,
        kind: 'offer',
        title: `A seat is held for you: ${cls.title}`,
        body: `Enroll before ${until.toLocaleString('en-US', {
          timeZone: section.timeZone,
          dateStyle: 'medium',
          timeStyle: 'short',
        })} (${section.timeZone}); then it passes to the next person waiting.`,
        link: `/classes/${cls.id}`,
      },
      now,
    );
    // Always mailed, as a receipt is: the offer runs out.
    await queueMail(
      tx,
      contact.email,
      waitlistOfferMail({
        publicUrl: deps.publicUrl,
        name: contact.name,
        classId: cls.id,
        classTitle: cls.title,
        until,
        timeZone: section.timeZone,
      }),
    );
  }
  return next.length;
}

/**
 * The section was cancelled: everyone waiting or offered a seat leaves its queue (`cancelled`) and
 * hears of it by e-mail and in the notification centre. Call in the cancellation's transaction.
 */
export async function tellWaitlistOfCancellation(tx: Db, deps: Teller, sectionId: string, now: Date): Promise<number> {
  const closed = await repo.closeLiveEntries(tx, sectionId, 'cancelled', now);
  if (closed.length === 0) return 0;
  const section = await sections.findSectionById(tx, sectionId);
  const cls = section ? await findClassForEnrollment(tx, section.classId) : null;
  if (!cls) return closed.length;
  for (const entry of closed) {
    const contact = await contactEmailOf(tx, entry.userId);
    if (!contact) continue;
    await notify(
      tx,
      deps.notifications,
      {
        recipientId: entry.userId,
        kind: 'offer',
        title: `Section cancelled: ${cls.title}`,
        body: 'The section you were waiting for was cancelled; its waiting list is closed.',
        link: `/classes/${cls.id}`,
      },
      now,
    );
    await queueMail(
      tx,
      contact.email,
      waitlistCancelledMail({ publicUrl: deps.publicUrl, name: contact.name, classId: cls.id, classTitle: cls.title }),
    );
  }
  return closed.length;
}

/** Each section in its own transaction; answers the offers made. */
export async function offerSeats(deps: WaitlistDeps, sectionIds: readonly string[]): Promise<number> {
  let made = 0;
  for (const sectionId of [...new Set(sectionIds)].sort()) {
    made += await deps.db.transaction((tx) => offerSeatsOfSection(tx, deps, sectionId, deps.now()));
  }
  return made;
}

/**
 * The offer job's pass (decision 051): every section with someone waiting or offered a seat. The
 * row lock makes two passes at once — on two instances — make each offer once.
 */
export async function offerFreeSeats(deps: WaitlistDeps): Promise<number> {
  return offerSeats(deps, await repo.listSectionsWithQueue(deps.db));
}

/** The SeatsFreed callback buildApp hands to the enrollments and refunds modules. */
export function seatsFreedBy(deps: WaitlistDeps, log: Pick<FastifyBaseLogger, 'error'>) {
  return async (sectionIds: string[]): Promise<void> => {
    try {
      await offerSeats(deps, sectionIds);
    } catch (error) {
      log.error({ err: error, sectionIds }, 'offering freed seats failed; the waitlist job offers them');
    }
  };
}
