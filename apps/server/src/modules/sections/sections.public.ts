import { sql } from 'drizzle-orm';
import { SECTION_MESSAGES } from '@skillhive/shared/rules/sections';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, notFound } from '../../lib/app-error.ts';
import * as repo from './sections.repository.ts';

/**
 * What other modules may use of the sections module (decision 041): the section a new session
 * goes into (content), and the section an enrollment is for (enrollments). This file imports no
 * other module, so both may import it without a cycle.
 */

export type { SectionRow } from './sections.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Serialises the creation of a class's sections (the cap, the first section made by a first session). */
export async function lockClassSections(tx: Db, classId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('skillhive:class-sections'), hashtext(${classId}))`);
}

/**
 * The section's row locked FOR UPDATE until the transaction ends (decision 042): seats are held
 * and paid one buyer at a time per section, across instances. Callers lock a payment's classes and
 * lines first, then its sections in id order.
 */
export function lockSection(tx: Db, sectionId: string): Promise<repo.SectionRow | null> {
  return repo.findSection(tx, sectionId, { lock: true });
}

export function findSectionById(db: Db, sectionId: string): Promise<repo.SectionRow | null> {
  return repo.findSection(db, sectionId);
}

/** A section of this class by id: 404 for an unknown id or another class's section. */
export async function findSectionOfClass(
  db: Db,
  classId: string,
  sectionId: string,
  options: { lock?: boolean } = {},
): Promise<repo.SectionRow> {
  const section = UUID.test(sectionId) ? await repo.findSection(db, sectionId, options) : null;
  if (!section || section.classId !== classId) throw notFound('Section');
  return section;
}

/**
 * The section a new session goes into: the one named, or the class's oldest running section; a
 * class's first session makes its first section, in the session's zone and with no seat limit
 * until its teacher sets one (a class sold before sections existed had none either); `isNew` then,
 * and the caller moves the class's enrollments into it, as the migration did. Call in a
 * transaction: the class's sections are locked so two first sessions make one section.
 */
export async function sectionForNewSession(
  tx: Db,
  classId: string,
  options: { sectionId?: string | undefined; timeZone: string },
): Promise<{ section: repo.SectionRow; isNew: boolean }> {
  if (options.sectionId) {
    const section = await findSectionOfClass(tx, classId, options.sectionId);
    if (section.status === 'cancelled') throw conflict(SECTION_MESSAGES.cancelled);
    return { section, isNew: false };
  }
  await lockClassSections(tx, classId);
  const first = await repo.findFirstActiveSection(tx, classId);
  if (first) return { section: first, isNew: false };
  const section = await repo.insertSection(tx, {
    classId,
    timeZone: options.timeZone,
    capacity: null,
    minimum: null,
    enrollOpensAt: null,
    enrollClosesAt: null,
  });
  return { section, isNew: true };
}

/** A session cannot start before its section's enrollment deadline (decision 041). */
export function assertStartsAfterDeadline(section: repo.SectionRow, startsAt: Date): void {
  if (section.enrollClosesAt && startsAt.getTime() < section.enrollClosesAt.getTime()) {
    throw new AppError(ErrorCode.VALIDATION, SECTION_MESSAGES.closesAfterFirstSession, {
      fields: { startsAt: SECTION_MESSAGES.closesAfterFirstSession },
    });
  }
}

/** Whether the section takes enrollments at `now`: running and inside its window. */
export function isEnrollmentOpen(section: repo.SectionRow, now: Date): boolean {
  if (section.status !== 'active') return false;
  if (section.enrollOpensAt && now.getTime() < section.enrollOpensAt.getTime()) return false;
  if (section.enrollClosesAt && now.getTime() >= section.enrollClosesAt.getTime()) return false;
  return true;
}

/**
 * The section a new enrollment is for: null for a class without sections (self-paced), where a
 * named section is a 404. For a live class, the one named (404 if not the class's, 409 when it is
 * not open), or, when none is named, its oldest section open now (409 when none is).
 */
export async function sectionForEnrollment(
  tx: Db,
  classId: string,
  sectionId: string | undefined,
  now: Date,
): Promise<repo.SectionRow | null> {
  if (sectionId) {
    const section = await findSectionOfClass(tx, classId, sectionId);
    if (!isEnrollmentOpen(section, now)) throw conflict(SECTION_MESSAGES.notOpen);
    return section;
  }
  const all = await repo.listSectionsOfClass(tx, classId);
  if (all.length === 0) return null;
  const open = all.find((section) => isEnrollmentOpen(section, now));
  if (!open) throw conflict(SECTION_MESSAGES.notOpen);
  return open;
}

export { scheduleMatchOf, type ScheduleMatch } from './schedule-match.ts';
export {
  fittingSections,
  nextStartsOfClasses,
  refreshPassedSchedules,
  scheduleCondition,
} from './sections.repository.ts';
