import { and, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { messages, messageThreads } from '../../db/schema/messages.ts';
import { classJoin } from '../classes/classes.public.ts';
import { userJoin } from '../users/contact.public.ts';

export type ThreadRow = typeof messageThreads.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

/** The thread of a class and a person, made on their first message (message_threads_class_student_idx). */
export async function upsertThread(
  db: Db,
  values: { classId: string; studentId: string; teacherId: string },
): Promise<ThreadRow> {
  await db.insert(messageThreads).values(values).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(messageThreads)
    .where(and(eq(messageThreads.classId, values.classId), eq(messageThreads.studentId, values.studentId)));
  if (!row) throw new Error('The thread was just written');
  return row;
}

export async function findThread(db: Db, id: string): Promise<ThreadRow | null> {
  const [row] = await db.select().from(messageThreads).where(eq(messageThreads.id, id));
  return row ?? null;
}

/** Adds a message and moves the thread up the inboxes; the sender has read everything up to it. */
export async function insertMessage(
  db: Db,
  thread: ThreadRow,
  values: { senderId: string; body: string; flagged: boolean; now: Date },
): Promise<string> {
  const [row] = await db
    .insert(messages)
    .values({
      threadId: thread.id,
      senderId: values.senderId,
      body: values.body,
      flagged: values.flagged,
      createdAt: values.now,
    })
    .returning({ id: messages.id });
  const readMark = values.senderId === thread.studentId ? { studentReadAt: values.now } : { teacherReadAt: values.now };
  await db
    .update(messageThreads)
    .set({ lastMessageAt: values.now, ...readMark })
    .where(eq(messageThreads.id, thread.id));
  if (!row) throw new Error('The message was just written');
  return row.id;
}

/** A person's threads, as student or teacher, latest first (message_threads_student_idx / _teacher_idx). */
export async function listThreadsOf(db: Db, userId: string, limit: number) {
  return db
    .select({ thread: messageThreads, classTitle: classJoin.title })
    .from(messageThreads)
    .innerJoin(classJoin.table, eq(classJoin.id, messageThreads.classId))
    .where(or(eq(messageThreads.studentId, userId), eq(messageThreads.teacherId, userId)))
    .orderBy(desc(messageThreads.lastMessageAt), desc(messageThreads.id))
    .limit(limit);
}

/** The latest visible message of each thread: the inbox's preview. */
export async function latestMessagesOf(db: Db, threadIds: string[]): Promise<Map<string, MessageRow>> {
  if (threadIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([messages.threadId])
    .from(messages)
    .where(and(inArray(messages.threadId, threadIds), isNull(messages.hiddenAt)))
    .orderBy(messages.threadId, desc(messages.createdAt));
  return new Map(rows.map((row) => [row.threadId, row]));
}

/** A thread's messages, oldest first; the latest `limit` of them. */
export async function listMessages(db: Db, threadId: string, limit: number): Promise<MessageRow[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(eq(messages.threadId, threadId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
  return rows.reverse();
}

export async function markRead(db: Db, thread: ThreadRow, userId: string, now: Date): Promise<void> {
  const mark = userId === thread.studentId ? { studentReadAt: now } : { teacherReadAt: now };
  await db.update(messageThreads).set(mark).where(eq(messageThreads.id, thread.id));
}

/** A message with its thread's two people: what a report of it needs. */
export async function findMessageWithThread(db: Db, id: string) {
  const [row] = await db
    .select({ message: messages, thread: messageThreads })
    .from(messages)
    .innerJoin(messageThreads, eq(messageThreads.id, messages.threadId))
    .where(eq(messages.id, id));
  return row ?? null;
}

/** Hides a message's text from both sides (decision 043's "hide"); answers how many changed. */
export async function hideMessage(db: Db, id: string, now: Date): Promise<number> {
  const rows = await db
    .update(messages)
    .set({ hiddenAt: now })
    .where(and(eq(messages.id, id), isNull(messages.hiddenAt)))
    .returning({ id: messages.id });
  return rows.length;
}

/** Names and photos of the people of threads: never their e-mail address or phone (decision 045). */
export async function findPeople(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, { name: string; image: string | null }>();
  const rows = await db
    .select({ id: userJoin.id, name: userJoin.name, image: userJoin.image })
    .from(userJoin.table)
    .where(inArray(userJoin.id, ids));
  return new Map(rows.map((row) => [row.id, { name: row.name, image: row.image }]));
}
