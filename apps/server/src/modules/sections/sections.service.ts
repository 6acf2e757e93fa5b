import type { PublicSection, TeacherSection } from '@skillhive/shared/contracts/sections';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import type { SectionFormBody } from '@skillhive/shared/rules/section-forms';
import { SECTION_MESSAGES, SECTIONS_PER_CLASS_MAX } from '@skillhive/shared/rules/sections';
import { canonicalTimeZone } from '@skillhive/shared/rules/time-zone-names';
import { fromLocalDateTime, toLocalDateTime } from '@skillhive/shared/rules/time-zones';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import { publishedSessionTimesOfClass, sessionSpansOfClass } from '../content/content.service.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { findSectionOfClass, isEnrollmentOpen, lockClassSections } from './sections.public.ts';
import * as repo from './sections.repository.ts';
import { reservedSeatsOfSections } from '../waitlists/waitlists.public.ts';

/**
 * Sections of a live class (decision 041): its teacher makes and edits them. Reviews, revisions and
 * moderation stay on the class, so a new section of an accepted class is on sale at once.
 */

export interface SectionsDeps {
  db: Db;
  now: () => Date;
}

type Span = { n: number; firstStartsAt: Date | null };

function toTeacherSection(row: repo.SectionRow, enrolled: number, span: Span | undefined): TeacherSection {
  const local = (instant: Date | null) => (instant ? toLocalDateTime(instant, row.timeZone) : '');
  return {
    _id: row.id,
    classId: row.classId,
    timeZone: row.timeZone,
    capacity: row.capacity,
    minimum: row.minimum,
    enrollOpensAt: row.enrollOpensAt?.toISOString() ?? null,
    enrollClosesAt: row.enrollClosesAt?.toISOString() ?? null,
    localEnrollOpensAt: local(row.enrollOpensAt),
    localEnrollClosesAt: local(row.enrollClosesAt),
    status: row.status,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    cancelReason: row.cancelReason,
    enrolled,
    sessionCount: span?.n ?? 0,
    firstSessionAt: span?.firstStartsAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The class, for its teacher only: 404 for an unknown class, 403 for anyone else. */
async function loadOwnedClass(db: Db, viewer: Viewer, classId: string) {
  if (!enrollments.isUuid(classId)) throw notFound('Class');
  const cls = await findClassForEnrollment(db, classId);
  if (!cls) throw notFound('Class');
  if (cls.teacherId !== viewer.id) throw forbidden(CONTENT_MESSAGES.notOwner);
  return cls;
}

/**
 * The form's wall-clock window in the section's zone as instants; a time the clocks skip is refused.
 * The zone is stored under its current IANA name, as a session's is (content's sessions.ts says why).
 */
function sectionValues(body: SectionFormBody): repo.SectionValues {
  const instant = (local: string, field: string) => {
    if (!local) return null;
    const at = fromLocalDateTime(local, body.timeZone);
    if (!at) {
      throw new AppError(ErrorCode.VALIDATION, SECTION_MESSAGES.timeSkipped, {
        fields: { [field]: SECTION_MESSAGES.timeSkipped },
      });
    }
    return at;
  };
  return {
    timeZone: canonicalTimeZone(body.timeZone),
    capacity: body.capacity,
    minimum: typeof body.minimum === 'number' ? body.minimum : null,
    enrollOpensAt: instant(body.enrollOpensAt, 'enrollOpensAt'),
    enrollClosesAt: instant(body.enrollClosesAt, 'enrollClosesAt'),
  };
}

/** GET /api/classes/:id/sections: the class's sections with their paid students and sessions. */
export async function listSections(deps: SectionsDeps, viewer: Viewer, classId: string): Promise<TeacherSection[]> {
  await loadOwnedClass(deps.db, viewer, classId);
  const [rows, paid, spans] = await Promise.all([
    repo.listSectionsOfClass(deps.db, classId),
    enrollments.paidCountsOfSections(deps.db, classId),
    sessionSpansOfClass(deps.db, classId),
  ]);
  const spanOf = new Map(spans.map((span) => [span.sectionId, span]));
  return rows.map((row) => toTeacherSection(row, paid.get(row.id) ?? 0, spanOf.get(row.id)));
}

/** POST /api/classes/:id/sections: at most SECTIONS_PER_CLASS_MAX; it has no sessions yet. */
export async function createSection(
  deps: SectionsDeps,
  viewer: Viewer,
  classId: string,
  body: SectionFormBody,
): Promise<TeacherSection> {
  const values = sectionValues(body);
  await loadOwnedClass(deps.db, viewer, classId);
  const row = await deps.db.transaction(async (tx) => {
    await lockClassSections(tx, classId);
    if ((await repo.countSectionsOfClass(tx, classId)) >= SECTIONS_PER_CLASS_MAX) {
      throw conflict(SECTION_MESSAGES.tooMany);
    }
    return repo.insertSection(tx, { ...values, classId });
  });
  return toTeacherSection(row, 0, undefined);
}

/**
 * PATCH /api/sections/:id: the whole form. The capacity cannot drop below the students who paid
 * (409), and the enrollment deadline must come before the section's first session (400).
 */
export async function updateSection(
  deps: SectionsDeps,
  viewer: Viewer,
  id: string,
  body: SectionFormBody,
): Promise<TeacherSection> {
  const values = sectionValues(body);
  const { row, enrolled, span } = await deps.db.transaction(async (tx) => {
    const found = enrollments.isUuid(id) ? await repo.findSection(tx, id) : null;
    if (!found) throw notFound('Section');
    await loadOwnedClass(tx, viewer, found.classId);
    // Locked: two edits of one section apply one after the other.
    const section = await findSectionOfClass(tx, found.classId, id, { lock: true });
    if (section.status === 'cancelled') throw conflict(SECTION_MESSAGES.cancelled);
    const paid = await enrollments.paidCountOfSection(tx, id);
    if (values.capacity !== null && values.capacity !== undefined && values.capacity < paid) {
      throw new AppError(ErrorCode.CONFLICT, SECTION_MESSAGES.capacityBelowEnrolled(paid), {
        fields: { capacity: SECTION_MESSAGES.capacityBelowEnrolled(paid) },
      });
    }
    const first = (await sessionSpansOfClass(tx, section.classId)).find((s) => s.sectionId === id);
    if (values.enrollClosesAt && first?.firstStartsAt && values.enrollClosesAt > first.firstStartsAt) {
      throw new AppError(ErrorCode.VALIDATION, SECTION_MESSAGES.closesAfterFirstSession, {
        fields: { enrollClosesAt: SECTION_MESSAGES.closesAfterFirstSession },
      });
    }
    const updated = await repo.updateSection(tx, id, { ...values, updatedAt: deps.now() });
    return { row: updated, enrolled: paid, span: first };
  });
  return toTeacherSection(row, enrolled, span);
}

/**
 * GET /api/classes/:id/schedule (public, decision 042): an accepted class's upcoming sections —
 * running, with a published session still to start, or none published yet while enrollment has
 * not closed — with their published session times, seats left (paid, held, offered and waited-for
 * seats taken, decision 051) and
 * deadline. No meeting link or material: those stay with paid students. A class that is not
 * accepted is a 404, as its public page is.
 */
export async function publicSchedule(deps: SectionsDeps, classId: string): Promise<PublicSection[]> {
  if (!enrollments.isUuid(classId)) throw notFound('Class');
  const cls = await findClassForEnrollment(deps.db, classId);
  if (!cls || cls.status !== 'accepted') throw notFound('Class');
  const now = deps.now();
  const [rows, taken, sessions] = await Promise.all([
    repo.listSectionsOfClass(deps.db, classId),
    enrollments.seatsTakenOfSections(deps.db, classId, now),
    publishedSessionTimesOfClass(deps.db, classId),
  ]);
  // Live offers and people waiting keep seats too (decision 051): the waiting come first.
  const queued = await reservedSeatsOfSections(
    deps.db,
    rows.map((row) => row.id),
    now,
  );
  return rows.flatMap((row) => {
    if (row.status !== 'active') return [];
    const own = sessions.filter((session) => session.sectionId === row.id);
    const upcoming =
      own.length > 0
        ? own.some((session) => session.startsAt.getTime() > now.getTime())
        : !row.enrollClosesAt || row.enrollClosesAt.getTime() > now.getTime();
    if (!upcoming) return [];
    const seatsLeft =
      row.capacity === null ? null : Math.max(0, row.capacity - (taken.get(row.id) ?? 0) - (queued.get(row.id) ?? 0));
    const full = seatsLeft === 0;
    return [
      {
        _id: row.id,
        timeZone: row.timeZone,
        capacity: row.capacity,
        seatsLeft,
        full,
        enrollOpensAt: row.enrollOpensAt?.toISOString() ?? null,
        enrollClosesAt: row.enrollClosesAt?.toISOString() ?? null,
        open: !full && isEnrollmentOpen(row, now),
        sessions: own.map((session) => ({
          title: session.title,
          startsAt: session.startsAt.toISOString(),
          durationMinutes: session.durationMinutes,
        })),
      },
    ];
  });
}
