import { z } from 'zod';

/*
 * Messages between a person and a class's teacher (decision 045). The other side is named, never
 * reached: no e-mail address or phone number is in any of these shapes.
 */

/** One side of a thread as the other sees it: a name and a photo. */
export const ThreadPerson = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string().nullable(),
});
export type ThreadPerson = z.infer<typeof ThreadPerson>;

/** A thread in a person's inbox: the class, the other side, the latest message and whether it is unread. */
export const ThreadSummary = z.object({
  _id: z.string(),
  classId: z.string(),
  classTitle: z.string(),
  /** `teacher` when the reader teaches the class, `student` when they asked. */
  role: z.enum(['student', 'teacher']),
  other: ThreadPerson,
  lastMessagePreview: z.string(),
  lastMessageAt: z.string(),
  unread: z.boolean(),
});
export type ThreadSummary = z.infer<typeof ThreadSummary>;

export const ThreadMessage = z.object({
  _id: z.string(),
  senderId: z.string().nullable(),
  /** Plain text: shown as text, never as markup. */
  body: z.string(),
  /** An admin hid it after a report: its text is withheld. */
  hidden: z.boolean(),
  createdAt: z.string(),
});
export type ThreadMessage = z.infer<typeof ThreadMessage>;

/** GET /api/messages/threads/:id: the thread, its two people and its messages, oldest first. */
export const ThreadDetail = z.object({
  _id: z.string(),
  classId: z.string(),
  classTitle: z.string(),
  student: ThreadPerson,
  teacher: ThreadPerson,
  messages: z.array(ThreadMessage),
});
export type ThreadDetail = z.infer<typeof ThreadDetail>;

/** POST /api/classes/:id/messages and POST /api/messages/threads/:id/messages. */
export const SentMessage = z.object({ threadId: z.string(), insertedId: z.string() });
export type SentMessage = z.infer<typeof SentMessage>;
