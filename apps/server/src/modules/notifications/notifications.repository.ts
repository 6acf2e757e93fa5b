import { and, asc, count, desc, eq, gt, inArray, isNull, max, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notificationMutes, notifications } from '../../db/schema/notifications.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = Pick<NotificationRow, 'recipientId' | 'kind' | 'title' | 'body' | 'link'>;

export async function insertNotification(db: Db, values: NewNotification & { now: Date }): Promise<number> {
  const [row] = await db
    .insert(notifications)
    .values({
      recipientId: values.recipientId,
      kind: values.kind,
      title: values.title,
      body: values.body,
      link: values.link,
      createdAt: values.now,
    })
    .returning({ id: notifications.id });
  return row!.id;
}

/** A person's items, newest first: one page of them. */
export async function listNotifications(
  db: Db,
  recipientId: string,
  page: { limit: number; offset: number },
): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.recipientId, recipientId))
    .orderBy(desc(notifications.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countNotifications(db: Db, recipientId: string): Promise<{ total: number; unread: number }> {
  const [all, unread] = await Promise.all([
    db.select({ n: count() }).from(notifications).where(eq(notifications.recipientId, recipientId)),
    countUnread(db, recipientId),
  ]);
  return { total: all[0]?.n ?? 0, unread };
}

export async function countUnread(db: Db, recipientId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.recipientId, recipientId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/**
 * What a stream sends next, oldest first: the person's items after `afterId`, and any of `ids`
 * (items committed out of order, after a later one was sent).
 */
export async function listNotificationsAfter(
  db: Db,
  recipientId: string,
  afterId: number,
  ids: number[],
  limit: number,
): Promise<NotificationRow[]> {
  const newer = gt(notifications.id, afterId);
  return db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.recipientId, recipientId),
        ids.length > 0 ? or(newer, inArray(notifications.id, ids)) : newer,
      ),
    )
    .orderBy(asc(notifications.id))
    .limit(limit);
}

/** The id of a person's newest item, 0 without any: where a stream without a cursor starts. */
export async function latestNotificationId(db: Db, recipientId: string): Promise<number> {
  const [row] = await db
    .select({ id: max(notifications.id) })
    .from(notifications)
    .where(eq(notifications.recipientId, recipientId));
  return Number(row?.id ?? 0);
}

/** Marks one of the person's items read (once); answers whether it is theirs. */
export async function markRead(db: Db, recipientId: string, id: number, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ readAt: notifications.readAt })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.recipientId, recipientId)));
  if (!row) return false;
  if (row.readAt === null) {
    await db
      .update(notifications)
      .set({ readAt: now })
      .where(and(eq(notifications.id, id), isNull(notifications.readAt)));
  }
  return true;
}

/** Marks read the person's unread items that link to `link` (what they just opened). */
export async function markReadLinkedTo(db: Db, recipientId: string, link: string, now: Date): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.recipientId, recipientId), eq(notifications.link, link), isNull(notifications.readAt)));
}

export async function markAllRead(db: Db, recipientId: string, now: Date): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.recipientId, recipientId), isNull(notifications.readAt)));
}

export async function findMutedKinds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ kind: notificationMutes.kind })
    .from(notificationMutes)
    .where(eq(notificationMutes.userId, userId));
  return rows.map((row) => row.kind);
}

export async function isMuted(db: Db, userId: string, kind: string): Promise<boolean> {
  const [row] = await db
    .select({ kind: notificationMutes.kind })
    .from(notificationMutes)
    .where(and(eq(notificationMutes.userId, userId), eq(notificationMutes.kind, kind)));
  return row !== undefined;
}

/** Replaces the person's muted kinds with `kinds`. */
export async function setMutedKinds(db: Db, userId: string, kinds: string[], now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(notificationMutes).where(eq(notificationMutes.userId, userId));
    if (kinds.length > 0) {
      await tx.insert(notificationMutes).values(kinds.map((kind) => ({ userId, kind, createdAt: now })));
    }
  });
}
