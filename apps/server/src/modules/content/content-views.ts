import type { ClassMaterial, ClassSession, ContentRole } from '@skillhive/shared/contracts/content';
import { toLocalDateTime } from '@skillhive/shared/rules/time-zones';
import { type ContentDeps, MINUTE_MS } from './content-access.ts';
import type * as repo from './content.repository.ts';

/** How sessions and materials are answered, by who is asking (teacher, paid student, admin). */

export function endOf(session: repo.SessionRow): Date {
  return new Date(session.startsAt.getTime() + session.durationMinutes * MINUTE_MS);
}

function opensAt(session: repo.SessionRow, openMinutes: number): Date {
  return new Date(session.startsAt.getTime() - openMinutes * MINUTE_MS);
}

/**
 * The meeting link is for the teacher at any time and for a paid student from
 * MEETING_LINK_OPEN_MINUTES before the start to the end; an admin moderates, and does not join.
 */
export function visibleMeetingUrl(session: repo.SessionRow, role: ContentRole, now: Date, openMinutes: number) {
  if (!session.meetingUrl) return null;
  if (role === 'teacher') return session.meetingUrl;
  if (role !== 'student') return null;
  const t = now.getTime();
  return t >= opensAt(session, openMinutes).getTime() && t <= endOf(session).getTime() ? session.meetingUrl : null;
}

export function toSession(
  row: repo.SessionRow,
  options: { role: ContentRole; now: Date; openMinutes: number; attended: Set<string> | null },
): ClassSession {
  return {
    _id: row.id,
    classId: row.classId,
    sectionId: row.sectionId,
    position: row.position,
    title: row.title,
    startsAt: row.startsAt.toISOString(),
    endsAt: endOf(row).toISOString(),
    timeZone: row.timeZone,
    localStart: toLocalDateTime(row.startsAt, row.timeZone),
    durationMinutes: row.durationMinutes,
    meetingUrl: visibleMeetingUrl(row, options.role, options.now, options.openMinutes),
    hasMeetingUrl: row.meetingUrl !== null,
    meetingUrlOpensAt: opensAt(row, options.openMinutes).toISOString(),
    location: row.location,
    published: row.publishedAt !== null,
    attended: options.attended ? options.attended.has(row.id) : null,
  };
}

export function materialFileUrl(id: string): string {
  return `/api/materials/${id}/file`;
}

export function toMaterial(row: repo.MaterialRow, done: Set<string> | null): ClassMaterial {
  return {
    _id: row.id,
    classId: row.classId,
    position: row.position,
    title: row.title,
    kind: row.fileKey ? 'file' : 'link',
    url: row.fileKey ? materialFileUrl(row.id) : (row.url ?? ''),
    fileName: row.fileName,
    contentType: row.contentType,
    bytes: row.bytes,
    published: row.publishedAt !== null,
    done: done ? done.has(row.id) : null,
  };
}

export function teacherView(deps: ContentDeps) {
  return { role: 'teacher' as const, now: deps.now(), openMinutes: deps.meetingLinkOpenMinutes, attended: null };
}
