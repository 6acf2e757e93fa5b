import type {
  InAppPreferences,
  NotificationItem,
  NotificationListQuery,
  NotificationPage,
} from '@skillhive/shared/contracts/notifications';
import { NOTIFICATION_KINDS, type NotificationKindName } from '@skillhive/shared/rules/notifications';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import * as repo from './notifications.repository.ts';

/** The notification centre (decision 047): a person's items, their read marks and which kinds show. */

export function toItem(row: repo.NotificationRow): NotificationItem {
  return {
    _id: String(row.id),
    kind: row.kind as NotificationKindName,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  };
}

/** GET /api/notifications: a page of the viewer's items, newest first, with the total and the unread count. */
export async function listNotifications(
  db: Db,
  viewer: Viewer,
  query: NotificationListQuery,
): Promise<{ page: NotificationPage; total: number }> {
  const [rows, counts] = await Promise.all([
    repo.listNotifications(db, viewer.id, limitOffsetOf(query)),
    repo.countNotifications(db, viewer.id),
  ]);
  return { page: { items: rows.map(toItem), unread: counts.unread }, total: counts.total };
}

/**
 * Where a stream starts: after the item a reconnecting browser names (Last-Event-ID or ?after=), or,
 * for a new stream, after the viewer's newest item, so that only new ones are sent.
 */
export async function streamCursor(db: Db, viewer: Viewer, resume: string | undefined): Promise<number> {
  return resume !== undefined ? Number(resume) : repo.latestNotificationId(db, viewer.id);
}

/** POST /api/notifications/:id/read: 404 for an item that is not the viewer's. */
export async function markRead(db: Db, viewer: Viewer, id: string, now: Date): Promise<{ unread: number }> {
  const found = await repo.markRead(db, viewer.id, Number(id), now);
  if (!found) throw notFound('Notification');
  return { unread: await repo.countUnread(db, viewer.id) };
}

/** POST /api/notifications/read: every item of the viewer read. */
export async function markAllRead(db: Db, viewer: Viewer, now: Date): Promise<{ unread: number }> {
  await repo.markAllRead(db, viewer.id, now);
  return { unread: await repo.countUnread(db, viewer.id) };
}

export async function getPreferences(db: Db, viewer: Viewer): Promise<InAppPreferences> {
  const muted = new Set(await repo.findMutedKinds(db, viewer.id));
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !muted.has(kind)])) as InAppPreferences;
}

/** PUT /api/notifications/preferences: a kind turned off is no longer added; what was added stays. */
export async function setPreferences(
  db: Db,
  viewer: Viewer,
  prefs: InAppPreferences,
  now: Date,
): Promise<InAppPreferences> {
  await repo.setMutedKinds(
    db,
    viewer.id,
    NOTIFICATION_KINDS.filter((kind) => !prefs[kind]),
    now,
  );
  return getPreferences(db, viewer);
}
