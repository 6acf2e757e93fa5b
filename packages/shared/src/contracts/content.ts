import { z } from 'zod';

/**
 * A class's content (decision 021): sessions, materials and progress. Request bodies are the form
 * schemas of `rules/content-forms.ts`; these are the answers.
 */

export const ContentRole = z.enum(['student', 'teacher', 'admin']);
export type ContentRole = z.infer<typeof ContentRole>;

export const ClassSession = z.object({
  _id: z.string(),
  classId: z.string(),
  /** The section (run of the class) the session belongs to (decision 041). */
  sectionId: z.string(),
  position: z.number().int(),
  title: z.string(),
  /** The start as an instant (ISO 8601, UTC); viewers show it in their own zone. */
  startsAt: z.string(),
  endsAt: z.string(),
  /** The IANA zone the teacher entered the start in, and the wall-clock time there. */
  timeZone: z.string(),
  localStart: z.string(),
  durationMinutes: z.number().int(),
  /**
   * The meeting link: to the teacher always, to a paid student only from MEETING_LINK_OPEN_MINUTES
   * before the start to the end; otherwise null (`hasMeetingUrl` says whether there is one).
   */
  meetingUrl: z.string().nullable(),
  hasMeetingUrl: z.boolean(),
  /** When the link is shown to students. */
  meetingUrlOpensAt: z.string(),
  location: z.string().nullable(),
  published: z.boolean(),
  /** The calling student's own mark; null for the teacher and admins. */
  attended: z.boolean().nullable(),
});
export type ClassSession = z.infer<typeof ClassSession>;

export const ClassMaterial = z.object({
  _id: z.string(),
  classId: z.string(),
  position: z.number().int(),
  title: z.string(),
  kind: z.enum(['link', 'file']),
  /** The link's address, or the download route of a file (GET /api/materials/:id/file). */
  url: z.string(),
  fileName: z.string().nullable(),
  contentType: z.string().nullable(),
  bytes: z.number().int().nullable(),
  published: z.boolean(),
  /** The calling student's own mark; null for the teacher and admins. */
  done: z.boolean().nullable(),
});
export type ClassMaterial = z.infer<typeof ClassMaterial>;

/** GET /api/classes/:id/content */
export const ClassContent = z.object({
  classId: z.string(),
  title: z.string(),
  /** Why the caller may see it: a paid student sees published items only. */
  viewerRole: ContentRole,
  meetingLinkOpenMinutes: z.number().int(),
  calendarUrl: z.string(),
  sessions: z.array(ClassSession),
  materials: z.array(ClassMaterial),
});
export type ClassContent = z.infer<typeof ClassContent>;

/** One student's progress in a class (the teacher's class page). */
export const StudentProgress = z.object({
  studentId: z.string(),
  name: z.string(),
  attendedSessions: z.number().int(),
  completedMaterials: z.number().int(),
  /** Attended sessions and completed materials over the published ones, 0 to 1. */
  completion: z.number(),
});
export type StudentProgress = z.infer<typeof StudentProgress>;

/** GET /api/classes/:id/progress (the teacher or an admin). */
export const ClassProgress = z.object({
  publishedSessions: z.number().int(),
  publishedMaterials: z.number().int(),
  /** Published sessions whose end has passed. */
  sessionsHeld: z.number().int(),
  studentsEnrolled: z.number().int(),
  averageCompletion: z.number(),
  students: z.array(StudentProgress),
});
export type ClassProgress = z.infer<typeof ClassProgress>;

/** The admin's progress figures of a class (ClassStats.progress, spec §2 seeProgressDetails). */
export const ClassProgressSummary = ClassProgress.omit({ students: true });
export type ClassProgressSummary = z.infer<typeof ClassProgressSummary>;

export const DeletedResponse = z.object({ deletedCount: z.number().int() });
export const ProgressMarkResponse = z.object({ done: z.boolean() });

/** PUT /api/class-sessions/:id/attendance/:studentId: a session and one of its class's students. */
export const SessionStudentParams = z.object({ id: z.string().min(1).max(64), studentId: z.string().min(1).max(64) });

/** A teacher's announcement to a class's paid students (decision 050), newest first in its list. */
export const Announcement = z.object({
  _id: z.string(),
  classId: z.string(),
  /** The section it went to, or null for the whole class. */
  sectionId: z.string().nullable(),
  body: z.string(),
  /** How many students it was sent to. */
  recipients: z.number().int(),
  createdAt: z.string(),
});
export type Announcement = z.infer<typeof Announcement>;

/** POST /api/classes/:id/content/publish: how many drafts were published of each kind. */
export const PublishedDrafts = z.object({
  sessions: z.number().int(),
  materials: z.number().int(),
});
export type PublishedDrafts = z.infer<typeof PublishedDrafts>;
