// Owned by modules/content (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { classes } from './classes.ts';
import { createdAt, updatedAt } from './columns.ts';
import { sections } from './sections.ts';
import { users } from './users.ts';

/**
 * A class's live sessions (decision 021), in the teacher's order. The start is an instant; the zone
 * it was entered in is kept so the editor shows the teacher's wall-clock time back. A draft
 * (published_at null) is seen only by its teacher and admins.
 */
export const classSessions = pgTable(
  'class_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    /** The section the session belongs to (decision 041); always one of the class's. */
    sectionId: uuid('section_id')
      .notNull()
      .references(() => sections.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    timeZone: text('time_zone').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    meetingUrl: text('meeting_url'),
    location: text('location'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('class_sessions_class_idx').on(t.classId, t.position),
    index('class_sessions_section_start_idx').on(t.sectionId, t.startsAt),
    // The reminder job looks for published sessions starting soon.
    index('class_sessions_published_start_idx')
      .on(t.startsAt)
      .where(sql`${t.publishedAt} is not null`),
    check('class_sessions_duration', sql`${t.durationMinutes} between 1 and 1440`),
    check('class_sessions_meeting_https', sql`${t.meetingUrl} is null or ${t.meetingUrl} like 'https://%'`),
    check('class_sessions_place', sql`${t.meetingUrl} is not null or ${t.location} is not null`),
  ],
);

/**
 * A class's materials, in the teacher's order: a link (https) or an uploaded file kept in the
 * storage under a content address (`file_key`), served only through GET /api/materials/:id/file.
 */
export const classMaterials = pgTable(
  'class_materials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    url: text('url'),
    fileKey: text('file_key'),
    fileName: text('file_name'),
    contentType: text('content_type'),
    bytes: integer('bytes'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('class_materials_class_idx').on(t.classId, t.position),
    index('class_materials_file_idx').on(t.fileKey),
    check('class_materials_link_or_file', sql`(${t.url} is null) <> (${t.fileKey} is null)`),
    check('class_materials_url_https', sql`${t.url} is null or ${t.url} like 'https://%'`),
  ],
);

/** A student's own mark that they attended a session (decision 021). */
export const sessionAttendance = pgTable(
  'session_attendance',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => classSessions.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.studentId] }), index('session_attendance_student_idx').on(t.studentId)],
);

/** A student's own mark that they finished a material (decision 021). */
export const materialCompletions = pgTable(
  'material_completions',
  {
    materialId: uuid('material_id')
      .notNull()
      .references(() => classMaterials.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.materialId, t.studentId] }),
    index('material_completions_student_idx').on(t.studentId),
  ],
);

/**
 * Reminders sent (decision 021): one per session, student and start time, written in the
 * transaction that queues the mail, so the job sends each reminder once on any number of
 * instances, and a session moved to another time is reminded of again.
 */
export const sessionReminders = pgTable(
  'session_reminders',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => classSessions.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.studentId, t.startsAt] })],
);

/**
 * What each paid student was last mailed about a moved session (decision 027): reschedule mails
 * are coalesced to one per session and student per hour. A move within the hour of the last mail
 * only marks one as owed; the reminder job sends it when the hour is over, from the time last told
 * to the session's time then (nothing when it moved back).
 */
export const sessionMoveNotices = pgTable(
  'session_move_notices',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => classSessions.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The start, zone and length the last mail gave. */
    toldStartsAt: timestamp('told_starts_at', { withTimezone: true }).notNull(),
    toldTimeZone: text('told_time_zone').notNull(),
    toldDurationMinutes: integer('told_duration_minutes').notNull(),
    mailedAt: timestamp('mailed_at', { withTimezone: true }).notNull(),
    /** The session moved again after that mail: one more is due once the hour is over. */
    owedSince: timestamp('owed_since', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.studentId] }),
    index('session_move_notices_owed_idx')
      .on(t.mailedAt)
      .where(sql`${t.owedSince} is not null`),
  ],
);

/**
 * A teacher's announcement to the students who paid for a class, or for one of its sections
 * (decision 050). `recipients` is how many it was mailed to when it was posted.
 */
export const classAnnouncements = pgTable(
  'class_announcements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    sectionId: uuid('section_id').references(() => sections.id, { onDelete: 'cascade' }),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    recipients: integer('recipients').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('class_announcements_class_idx').on(t.classId, t.createdAt.desc()),
    check('class_announcements_body_length', sql`char_length(${t.body}) between 1 and 5000`),
  ],
);
