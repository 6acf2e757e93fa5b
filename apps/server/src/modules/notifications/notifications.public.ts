import { toOneLine } from '@skillhive/shared/rules/control-characters';
import {
  NOTIFICATION_BODY_MAX,
  NOTIFICATION_TITLE_MAX,
  type NotificationKindName,
} from '@skillhive/shared/rules/notifications';
import type { Db } from '../../db/client.ts';
import type { NotificationPublisher } from './live.ts';
import { insertNotification, isMuted, markReadLinkedTo } from './notifications.repository.ts';

/**
 * What other modules may use of notifications (decision 047): `notify`, called in the transaction
 * of the event it tells about, so the item commits (or not) with it. This file imports only this
 * module's own files, so any module may import it without a cycle.
 */
export type { NotificationPublisher } from './live.ts';

export interface Notification {
  recipientId: string;
  kind: NotificationKindName;
  /** Plain text; one line of at most NOTIFICATION_TITLE_MAX characters is kept. */
  title: string;
  /** Plain text; one line of at most NOTIFICATION_BODY_MAX characters is kept. */
  body: string;
  /** A path inside the app, such as `/dashboard/messages/<id>`. */
  link: string;
}

/**
 * Marks read a person's items that link to what they have just opened (a conversation read is no
 * longer news): the page's owner calls it where it is read.
 */
export async function markSeen(db: Db, recipientId: string, link: string, now: Date): Promise<void> {
  await markReadLinkedTo(db, recipientId, link, now);
}

/** One line of at most `max` characters, cut with an ellipsis. */
export function shortLine(text: string, max: number): string {
  const line = toOneLine(text).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Adds an item to a person's notification centre, unless they turned its kind off, and tells the
 * live streams (live.ts). Called inside the producer's transaction: a stream reads the item only
 * once it is committed. Answers the item's id, or null when the kind is turned off.
 */
export async function notify(
  db: Db,
  publisher: NotificationPublisher,
  notification: Notification,
  now: Date,
): Promise<number | null> {
  if (!notification.link.startsWith('/') || notification.link.startsWith('//')) {
    throw new Error(`A notification links inside the app, not to ${notification.link}`);
  }
  if (await isMuted(db, notification.recipientId, notification.kind)) return null;
  const id = await insertNotification(db, {
    recipientId: notification.recipientId,
    kind: notification.kind,
    title: shortLine(notification.title, NOTIFICATION_TITLE_MAX),
    body: shortLine(notification.body, NOTIFICATION_BODY_MAX),
    link: notification.link,
    now,
  });
  publisher.published(notification.recipientId, id);
  return id;
}
