import ical, { escape } from 'ical-generator';
import { toOneLine } from '@skillhive/shared/rules/control-characters';
import type { Viewer } from '../../lib/authorize.ts';
import { type ContentDeps, loadViewableClass, sectionsReadBy } from './content-access.ts';
import { endOf, visibleMeetingUrl } from './content-views.ts';
import * as repo from './content.repository.ts';

/** A published session as the calendar file shows it (`calendarOf`). */
export interface CalendarSession {
  id: string;
  title: string;
  start: Date;
  end: Date;
  location: string | null;
  meetingUrl: string | null;
  url: string;
  updatedAt: Date;
}

/**
 * A value on one line of text: every run of control characters becomes one space. Titles and
 * places are single-line fields, but rows stored before that rule (or written another way) may
 * still hold a line break, which in iCalendar would start a property or a component of its own.
 */
const oneLine = toOneLine;

/**
 * The class's published sessions as one iCalendar file (RFC 5545, times in UTC). ical-generator
 * escapes the event properties (`\`, `;`, `,`, line breaks) but writes the calendar's NAME and
 * X-WR-CALNAME as given, so that one is escaped here; every text is made one line first.
 */
export function classCalendar(classTitle: string, sessions: readonly CalendarSession[]): string {
  const title = oneLine(classTitle);
  const calendar = ical({
    name: escape(title, false),
    prodId: { company: 'SkillHive', product: 'class-content' },
  });
  for (const s of sessions) {
    const meetingUrl = s.meetingUrl === null ? null : oneLine(s.meetingUrl);
    calendar.createEvent({
      id: `${s.id}@skillhive`,
      start: s.start,
      end: s.end,
      summary: `${oneLine(s.title)} — ${title}`,
      location: s.location ? oneLine(s.location) : (meetingUrl ?? undefined),
      url: s.url,
      description: meetingUrl ? `Meeting link: ${meetingUrl}` : `Class page: ${s.url}`,
      lastModified: s.updatedAt,
      stamp: s.updatedAt,
    });
  }
  return calendar.toString();
}

/** The published sessions for GET /api/classes/:id/calendar.ics (same access as the content; a student's sections only). */
export async function calendarOf(deps: ContentDeps, viewer: Viewer, classId: string) {
  const { cls, role } = await loadViewableClass(deps.db, viewer, classId);
  const sectionIds = await sectionsReadBy(deps.db, viewer, classId, role);
  const sessions = await repo.listSessionsOfClass(deps.db, classId, { publishedOnly: true, sectionIds });
  const now = deps.now();
  return {
    classTitle: cls.title,
    sessions: sessions.map((s) => ({
      id: s.id,
      title: s.title,
      start: s.startsAt,
      end: endOf(s),
      timeZone: s.timeZone,
      location: s.location,
      // The calendar file outlives the window, so it carries the class page, not the link.
      url: `${deps.publicUrl}/dashboard/myEnrollClass/${classId}`,
      updatedAt: s.updatedAt,
      meetingUrl: role === 'teacher' ? s.meetingUrl : visibleMeetingUrl(s, role, now, deps.meetingLinkOpenMinutes),
    })),
  };
}
