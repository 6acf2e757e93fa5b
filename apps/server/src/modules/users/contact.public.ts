import type { NotificationPreferences } from '@skillhive/shared/contracts/users';
import type { Db } from '../../db/client.ts';
import { findNotificationPreferencesByEmail, findUserById } from './users.repository.ts';

/**
 * The users module's read API for other modules (decision 015): who holds an address, whether
 * they want a mail, where to write to them, who is calling (plugins/auth.ts), and the columns
 * their repositories may join on. It
 * imports only the users repository, so any module may import it without a cycle; writes to
 * `users` go through users.service.ts.
 */
export {
  findModerationSubjects,
  findUserIdByEmail,
  findViewerUser,
  isSuspended,
  isViewerAllowed,
  userJoin,
  viewerColumns,
} from './users.repository.ts';

export type NotificationTopic = keyof NotificationPreferences;

/**
 * Whether the holder of an address wants an optional mail (a person may turn those off); when
 * nobody holds it any more (a deleted account), no mail. Modules that send optional mail ask here
 * instead of reading the users table themselves.
 */
export async function wantsNotification(db: Db, email: string, topic: NotificationTopic): Promise<boolean> {
  const prefs = await findNotificationPreferencesByEmail(db, email);
  return prefs !== null && prefs[topic];
}

/** The address to write to about a user's own money (receipts, refunds); null once the account is gone. */
export async function contactEmailOf(
  db: Db,
  userId: string,
): Promise<{ email: string; name: string; timeZone: string | null } | null> {
  const user = await findUserById(db, userId);
  return user ? { email: user.email, name: user.name, timeZone: user.timeZone } : null;
}

/** A user's photo as anyone may see it (a teacher on a public class page); null without one or an account. */
export async function publicImageOf(db: Db, userId: string): Promise<string | null> {
  const user = await findUserById(db, userId);
  return user?.image ?? null;
}
