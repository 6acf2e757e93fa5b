import type { SentMessage, ThreadDetail, ThreadPerson, ThreadSummary } from '@skillhive/shared/contracts/messages';
import { MESSAGE_PREVIEW_MAX } from '@skillhive/shared/rules/constants';
import { toOneLine } from '@skillhive/shared/rules/control-characters';
import { MESSAGE_MESSAGES } from '@skillhive/shared/rules/messages';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { findClassForEnrollment } from '../classes/classes.public.ts';
import { newMessageMail, queueMail } from '../mail/mail.service.ts';
import { flagForReview } from '../moderation/moderation.public.ts';
import { markSeen, notify, type NotificationPublisher } from '../notifications/notifications.public.ts';
import { findModerationSubjects, wantsNotification } from '../users/contact.public.ts';
import * as repo from './messages.repository.ts';

/*
 * Messages between a person and a class's teacher (decision 045). A thread belongs to a class and
 * its two people; only they (and admins, reading) see it. The other side is shown a name and a
 * photo, never an address or a phone number; the recipient gets a mail with a short preview.
 */

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How many of a thread's latest messages one read returns. */
const THREAD_MESSAGES_MAX = 200;
/** How many threads an inbox lists. */
const INBOX_MAX = 100;

/**
 * What moves a conversation (and its payment) off the platform (decision 045): a link, an e-mail
 * address or a phone number. A match is not refused (a link to a book is fine) but flagged to the
 * admins' queue; answers what was found, or null.
 */
const OFF_PLATFORM_SIGNS: [string, RegExp][] = [
  ['a link', /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]+\.(?:com|net|org|io|me|co|app|link|ly|xyz|info|biz)\b/i],
  ['an e-mail address', /[^\s@]+@[^\s@]+\.[^\s@]+/],
  ['a phone number', /(?:\+|\b)\d(?:[\s().-]*\d){8,}/],
];

/** Where a thread is read and answered in the dashboard. */
const threadLink = (threadId: string) => `/dashboard/messages/${threadId}`;

export function offPlatformSignsOf(body: string): string[] {
  return OFF_PLATFORM_SIGNS.filter(([, pattern]) => pattern.test(body)).map(([name]) => name);
}

/** One line of at most MESSAGE_PREVIEW_MAX characters: what an inbox row and a mail may quote. */
export function previewOf(body: string): string {
  const line = toOneLine(body).replace(/\s+/g, ' ').trim();
  return line.length > MESSAGE_PREVIEW_MAX ? `${line.slice(0, MESSAGE_PREVIEW_MAX - 1)}…` : line;
}

/** What sending a message needs besides the database: the clock, the site's address, the notification centre. */
export interface MessageDeps {
  now: Date;
  publicUrl: string;
  notifications: NotificationPublisher;
}

/**
 * Writes a message in the thread, in one transaction with what follows from it: the recipient's
 * notification (decision 047), their mail and, when it carries off-platform contact details, a flag in the report queue. A suspended
 * recipient gets nothing (409); a suspended sender never gets here (their sessions are refused).
 */
async function send(
  db: Db,
  deps: MessageDeps,
  viewer: Viewer,
  thread: repo.ThreadRow,
  classTitle: string,
  body: string,
): Promise<SentMessage> {
  const { now, publicUrl } = deps;
  const recipientId = viewer.id === thread.studentId ? thread.teacherId : thread.studentId;
  const recipient = (await findModerationSubjects(db, [recipientId])).get(recipientId);
  if (!recipient || recipient.suspended) throw conflict(MESSAGE_MESSAGES.recipientUnavailable);
  const signs = offPlatformSignsOf(body);
  const insertedId = await repo.insertMessage(db, thread, {
    senderId: viewer.id,
    body,
    flagged: signs.length > 0,
    now,
  });
  if (signs.length > 0) {
    await flagForReview(db, {
      targetType: 'message',
      targetId: insertedId,
      targetLabel: previewOf(body),
      ownerId: viewer.id,
      reason: 'off-platform-payment',
      details: `Flagged automatically: the message contains ${signs.join(', ')}.`,
    });
  }
  await notify(
    db,
    deps.notifications,
    {
      recipientId,
      kind: 'message',
      title: `${viewer.name} wrote about ${classTitle}`,
      body: previewOf(body),
      link: threadLink(thread.id),
    },
    now,
  );
  // The mail is optional (the profile's e-mail notifications); the message is in the inbox either way.
  if (!(await wantsNotification(db, recipient.email, 'newMessages'))) return { threadId: thread.id, insertedId };
  await queueMail(
    db,
    recipient.email,
    newMessageMail({
      publicUrl,
      name: recipient.name,
      senderName: viewer.name,
      classTitle,
      preview: previewOf(body),
      threadId: thread.id,
    }),
  );
  return { threadId: thread.id, insertedId };
}

/** POST /api/classes/:id/messages: a signed-in person writes to a public class's teacher (before or after buying). */
export async function messageTeacher(
  db: Db,
  deps: MessageDeps,
  viewer: Viewer,
  classId: string,
  body: string,
): Promise<SentMessage> {
  if (!UUID_PATTERN.test(classId)) throw notFound('Class');
  const found = await findClassForEnrollment(db, classId);
  if (!found || found.status !== 'accepted') throw notFound('Class');
  if (found.teacherId === viewer.id) throw conflict(MESSAGE_MESSAGES.ownClass);
  return db.transaction(async (tx) => {
    const thread = await repo.upsertThread(tx, { classId, studentId: viewer.id, teacherId: found.teacherId });
    return send(tx, deps, viewer, thread, found.title, body);
  });
}

/** The thread when the viewer is one of its two people (or, to read, an admin); 404 for anyone else. */
async function threadFor(db: Db, viewer: Viewer, threadId: string, adminMayRead: boolean): Promise<repo.ThreadRow> {
  const thread = UUID_PATTERN.test(threadId) ? await repo.findThread(db, threadId) : null;
  const party = thread && (thread.studentId === viewer.id || thread.teacherId === viewer.id);
  if (!thread || !(party || (adminMayRead && viewer.isAdmin))) throw notFound('Conversation');
  return thread;
}

/** POST /api/messages/threads/:id/messages: either person answers in their thread. */
export async function reply(
  db: Db,
  deps: MessageDeps,
  viewer: Viewer,
  threadId: string,
  body: string,
): Promise<SentMessage> {
  const thread = await threadFor(db, viewer, threadId, false);
  const found = await findClassForEnrollment(db, thread.classId);
  if (!found) throw notFound('Class');
  return db.transaction(async (tx) => send(tx, deps, viewer, thread, found.title, body));
}

function personOf(people: Map<string, { name: string; image: string | null }>, id: string): ThreadPerson {
  const person = people.get(id);
  return { _id: id, name: person?.name ?? 'Former member', image: person?.image ?? null };
}

/** GET /api/messages/threads: the viewer's threads, as the asker or the teacher, latest first. */
export async function listThreads(db: Db, viewer: Viewer): Promise<ThreadSummary[]> {
  const rows = await repo.listThreadsOf(db, viewer.id, INBOX_MAX);
  const [latest, people] = await Promise.all([
    repo.latestMessagesOf(
      db,
      rows.map((row) => row.thread.id),
    ),
    repo.findPeople(db, [...new Set(rows.flatMap((row) => [row.thread.studentId, row.thread.teacherId]))]),
  ]);
  return rows.map(({ thread, classTitle }) => {
    const asTeacher = thread.teacherId === viewer.id;
    const readAt = asTeacher ? thread.teacherReadAt : thread.studentReadAt;
    const last = latest.get(thread.id);
    return {
      _id: thread.id,
      classId: thread.classId,
      classTitle,
      role: asTeacher ? 'teacher' : 'student',
      other: personOf(people, asTeacher ? thread.studentId : thread.teacherId),
      lastMessagePreview: last ? previewOf(last.body) : '',
      lastMessageAt: thread.lastMessageAt.toISOString(),
      unread: readAt === null || readAt < thread.lastMessageAt,
    };
  });
}

/**
 * GET /api/messages/threads/:id: the thread and its latest messages. Reading it marks it read for
 * its person; an admin reading it (decision 043's queue) changes nothing.
 */
export async function readThread(db: Db, viewer: Viewer, threadId: string, now: Date): Promise<ThreadDetail> {
  const thread = await threadFor(db, viewer, threadId, true);
  const [found, rows, people] = await Promise.all([
    findClassForEnrollment(db, thread.classId),
    repo.listMessages(db, thread.id, THREAD_MESSAGES_MAX),
    repo.findPeople(db, [thread.studentId, thread.teacherId]),
  ]);
  if (thread.studentId === viewer.id || thread.teacherId === viewer.id) {
    await repo.markRead(db, thread, viewer.id, now);
    // Its message notifications are read with it (decision 047).
    await markSeen(db, viewer.id, threadLink(thread.id), now);
  }
  return {
    _id: thread.id,
    classId: thread.classId,
    classTitle: found?.title ?? '',
    student: personOf(people, thread.studentId),
    teacher: personOf(people, thread.teacherId),
    messages: rows.map((row) => ({
      _id: row.id,
      senderId: row.senderId,
      body: row.hiddenAt ? '' : row.body,
      hidden: row.hiddenAt !== null,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
