import type {
  NotificationPreferences,
  SessionListItem,
  UserListItem,
  UserProfile,
} from '@skillhive/shared/contracts/users';
import { roleOf } from '@skillhive/shared/rules/roles';
import { canonicalTimeZone } from '@skillhive/shared/rules/time-zone-names';
import type { Db } from '../../db/client.ts';
import { ACCOUNT_MESSAGES } from '@skillhive/shared/rules/messages';
import { AppError, conflict, ErrorCode, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { checkOwnPassword, hasPassword } from '../auth/credentials.public.ts';
import { endEverySession, revokeEmailLinks, takeNotMeToken } from '../auth/email-links.public.ts';
import { deleteSessionOf, listSessionsOf } from '../auth/sessions.public.ts';
import { forgetStudent, teachesPaidEnrollments } from '../enrollments/enrollments.service.ts';
import { pseudonymisePaymentsOf } from '../checkout/payment-history.service.ts';
import { deleteReviewsOf } from '../reviews/reviews.service.ts';
import * as repo from './users.repository.ts';

export function toUserProfile(row: repo.UserRow): UserProfile {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    image: row.image,
    phone: row.phone,
    role: roleOf(row),
    admin: row.isAdmin,
    teacher: row.isTeacher,
  };
}

function toUserListItem(row: repo.UserRow): UserListItem {
  return { ...toUserProfile(row), createdAt: row.createdAt.toISOString() };
}

/** The account behind an e-mail, or 404 (spec §7 routes keyed by e-mail). */
export async function getUserByEmail(db: Db, email: string): Promise<repo.UserRow> {
  const user = await repo.findUserByEmail(db, email.toLowerCase());
  if (!user) throw notFound('User');
  return user;
}

export async function getProfile(db: Db, email: string): Promise<UserProfile> {
  return toUserProfile(await getUserByEmail(db, email));
}

/**
 * POST /api/users (spec §7). better-auth creates the account row at sign-up or at the first
 * third-party sign-in, so this call only completes that profile: it stores name, image and
 * phone where they are still empty and never overwrites one that is set. `insertedId` is the
 * user's id when this call filled the profile in, null when it was complete already — so a
 * repeated call changes nothing and answers null. Role and e-mail are never read from the body
 * (DESIGN §1.1): the route's schema does not even contain them.
 */
export async function saveOwnProfile(
  db: Db,
  viewer: Viewer,
  fields: { name?: string | undefined; image?: string | undefined; phone?: string | undefined },
): Promise<{ insertedId: string | null }> {
  const filled = await repo.fillEmptyProfileFields(db, viewer.id, fields);
  return { insertedId: filled.length > 0 ? viewer.id : null };
}

export async function listUsers(
  db: Db,
  query: { q?: string | undefined; page: number; limit: number },
): Promise<{ items: UserListItem[]; total: number }> {
  const { rows, total } = await repo.listUsers(db, {
    q: query.q || undefined,
    ...limitOffsetOf(query),
  });
  return { items: rows.map(toUserListItem), total };
}

/**
 * Makes a user an admin, keeping their teacher flag (spec §4, DESIGN §1.5). `modifiedCount` is 0
 * when they already were one; only a real change is audited.
 */
export async function promoteToAdmin(db: Db, actor: Viewer, id: string): Promise<{ modifiedCount: number }> {
  return db.transaction(async (tx) => {
    const target = await repo.findUserById(tx, id);
    if (!target) throw notFound('User');
    const modifiedCount = await repo.setAdmin(tx, id);
    if (modifiedCount > 0) {
      await recordAudit(tx, actor, {
        action: 'user.promote',
        targetType: 'user',
        targetId: target.id,
        targetLabel: target.email,
        details: { teacher: target.isTeacher },
      });
    }
    return { modifiedCount };
  });
}

/**
 * Makes a user a teacher when an admin approves their application (teacher-requests module), in
 * the caller's transaction; the admin flag is left as it is (DESIGN §1.5). Returns rows changed.
 */
export function grantTeacher(tx: Db, userId: string, now: Date): Promise<number> {
  return repo.setTeacher(tx, userId, now);
}

/** better-auth's callbacks (auth module): a verification or reset link proved the address. */
export function markEmailVerified(db: Db, userId: string): Promise<void> {
  return repo.setEmailVerified(db, userId);
}

/**
 * ADMIN_EMAILS grants admin only to a verified address (decision 014), called by
 * the auth module after sign-in, verification and reset; the teacher flag is untouched.
 */
export function grantAdminToVerifiedAddress(
  db: Db,
  userId: string,
  isListed: (email: string) => boolean,
): Promise<void> {
  return repo.setAdminIfVerifiedAndListed(db, userId, isListed);
}

/**
 * Suspends the account (`at`) or lifts its suspension (null), in the moderation decision's
 * transaction (decision 043); answers whether anything changed. The sessions, classes and reviews
 * that follow are the moderation module's to act on, through their owners.
 */
export function setSuspension(tx: Db, userId: string, at: Date | null): Promise<boolean> {
  return repo.setSuspendedAt(tx, userId, at);
}

/** What a deleted account's kept financial records show instead of its e-mail. */
export const DELETED_ACCOUNT_EMAIL = 'deleted-account';

/**
 * Deletes an account (spec §6). Its sessions and sign-in accounts cascade, so it is signed out
 * everywhere at once, and its API tokens stop resolving because the row is gone. Its payments and
 * paid enrollments are financial records and stay, cut from the person (DESIGN §4), so
 * teacher and admin figures never change after the fact; its cart and reviews go. An admin cannot
 * delete themself, nor the last admin; a teacher whose classes other students paid for is kept,
 * since deleting them would delete those classes and their paid enrollments.
 */
export async function deleteUser(db: Db, actor: Viewer, id: string): Promise<{ deletedCount: number }> {
  if (id === actor.id) throw conflict('You cannot delete your own account');
  return db.transaction(async (tx) => {
    // Admin rows are locked first, so two admins deleting each other cannot leave none.
    const adminIds = await repo.lockAdminIds(tx);
    if (!adminIds.includes(actor.id)) throw conflict('Your admin rights changed; reload and try again');
    return removeAccount(tx, actor, id, adminIds, 'user.delete');
  });
}

/** How recent a sign-in must be to delete an account that has no password to confirm with. */
export const FRESH_SIGN_IN_MS = 15 * 60 * 1000;

/** Who is confirmed: the signed-in account and when its session began. */
export interface PersonToConfirm {
  id: string;
  email: string;
  sessionCreatedAt: Date;
}

/** What to tell a person asked for a password they did not give, or to sign in again. */
export interface ConfirmMessages {
  passwordRequired: string;
  signInAgain: string;
}

/**
 * The person at the keyboard is the account's owner, before something a stolen session must not
 * do (deleting the account, changing its address; decision 028): their password, counted by the
 * sign-in lockout so a stolen cookie or token is no password oracle, or, for an account that signs
 * in only through a provider, a sign-in within the last 15 minutes. A check that fails for another
 * reason than a wrong password (the database down) gives its lockout point back.
 */
export async function confirmPerson(
  db: Db,
  lockout: Limiter,
  input: { person: PersonToConfirm; ip: string; password: string | undefined; now: Date },
  messages: ConfirmMessages,
): Promise<void> {
  const { person, password } = input;
  const fresh = input.now.getTime() - person.sessionCreatedAt.getTime() < FRESH_SIGN_IN_MS;
  if (password === undefined || password === '') {
    if (await hasPassword(db, person.id)) {
      throw new AppError(ErrorCode.VALIDATION, messages.passwordRequired, {
        fields: { password: ACCOUNT_MESSAGES.passwordField },
      });
    }
    if (fresh) return;
    throw forbidden(messages.signInAgain);
  }
  const key = `${person.email.toLowerCase()}|${input.ip}`;
  await lockout.consume(key);
  let verdict: Awaited<ReturnType<typeof checkOwnPassword>>;
  try {
    verdict = await checkOwnPassword(db, person.id, password);
  } catch (error) {
    await lockout.refund(key).catch(() => {});
    throw error;
  }
  if (verdict === 'wrong') throw forbidden(ACCOUNT_MESSAGES.wrongPassword);
  if (verdict === 'ok') {
    await lockout.reset(key);
    return;
  }
  await lockout.refund(key);
  if (!fresh) throw forbidden(messages.signInAgain);
}

/** Confirming a deletion of one's own account. */
export const DELETE_ACCOUNT_MESSAGES: ConfirmMessages = {
  passwordRequired: ACCOUNT_MESSAGES.passwordRequired,
  signInAgain: ACCOUNT_MESSAGES.signInAgain,
};

/** Confirming a change of one's own e-mail address. */
export const CHANGE_EMAIL_MESSAGES: ConfirmMessages = {
  passwordRequired: ACCOUNT_MESSAGES.emailPasswordRequired,
  signInAgain: ACCOUNT_MESSAGES.emailSignInAgain,
};

/**
 * "This was not me" (decision 028), from the link mailed to an account's address when a change of
 * address was asked for or completed: every session and API token ends, every pending link dies
 * (change, verification, reset), and the address the mail went to is the account's again unless
 * another account holds it now. The link works once. The owner then resets the password.
 */
export async function undoAsNotMe(
  db: Db,
  token: string,
  now: Date,
): Promise<{ signedOut: number; emailRestored: boolean }> {
  return db.transaction(async (tx) => {
    const mailed = await takeNotMeToken(tx, token, now);
    if (!mailed) throw new AppError(ErrorCode.VALIDATION, ACCOUNT_MESSAGES.notMeLinkFailed);
    const user = await repo.findUserById(tx, mailed.userId);
    if (!user) throw new AppError(ErrorCode.VALIDATION, ACCOUNT_MESSAGES.notMeLinkFailed);
    const emailRestored = user.email !== mailed.email && (await repo.restoreEmail(tx, user.id, mailed.email, now)) > 0;
    await revokeEmailLinks(tx, user.id);
    const signedOut = await endEverySession(tx, user.id);
    return { signedOut, emailRestored };
  });
}

/**
 * Deletes the caller's own account (decision 014), under the same rules as an
 * admin's deletion: financial records kept, the last admin and a teacher others paid stay. The
 * route has confirmed the person first (`confirmPerson`).
 */
export async function deleteOwnAccount(db: Db, viewer: Viewer): Promise<{ deletedCount: number }> {
  return db.transaction(async (tx) => {
    const adminIds = await repo.lockAdminIds(tx);
    return removeAccount(tx, viewer, viewer.id, adminIds, 'user.delete_self');
  });
}

async function removeAccount(
  tx: Db,
  actor: Viewer,
  id: string,
  adminIds: string[],
  action: 'user.delete' | 'user.delete_self',
): Promise<{ deletedCount: number }> {
  const target = await repo.findUserById(tx, id);
  if (!target) throw notFound('User');
  if (target.isAdmin && adminIds.filter((a) => a !== id).length === 0) {
    throw conflict('The last admin cannot be deleted');
  }
  if (await teachesPaidEnrollments(tx, id)) {
    throw conflict('This teacher has classes that students have paid for, so the account cannot be deleted');
  }
  await forgetStudent(tx, id, DELETED_ACCOUNT_EMAIL);
  await pseudonymisePaymentsOf(tx, id, DELETED_ACCOUNT_EMAIL);
  await deleteReviewsOf(tx, id);
  // Recorded before the row goes: a self-deletion's entry then keeps its actor's e-mail, its id set null.
  await recordAudit(tx, actor, {
    action,
    targetType: 'user',
    targetId: target.id,
    targetLabel: target.email,
    details: { name: target.name, admin: target.isAdmin, teacher: target.isTeacher },
  });
  const deletedCount = await repo.deleteUser(tx, id);
  return { deletedCount };
}

export async function getNotificationPreferences(db: Db, viewer: Viewer): Promise<NotificationPreferences> {
  const prefs = await repo.findNotificationPreferences(db, viewer.id);
  if (!prefs) throw notFound('User');
  return prefs;
}

export async function setNotificationPreferences(
  db: Db,
  viewer: Viewer,
  prefs: NotificationPreferences,
  now: Date,
): Promise<NotificationPreferences> {
  const saved = await repo.updateNotificationPreferences(db, viewer.id, prefs, now);
  if (!saved) throw notFound('User');
  return saved;
}

/**
 * PUT /api/users/me/time-zone (decision 053): stored under the zone's current IANA name, as
 * sessions' zones are, so a mail names it as the person's clock does.
 */
export async function setOwnTimeZone(
  db: Db,
  viewer: Viewer,
  timeZone: string,
  now: Date,
): Promise<{ timeZone: string }> {
  const canonical = canonicalTimeZone(timeZone);
  if (!(await repo.updateTimeZone(db, viewer.id, canonical, now))) throw notFound('User');
  return { timeZone: canonical };
}

export async function listOwnSessions(db: Db, viewer: Viewer, now: Date): Promise<SessionListItem[]> {
  const rows = await listSessionsOf(db, viewer.id, now);
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    current: row.id === viewer.sessionId,
  }));
}

export async function endOwnSession(db: Db, viewer: Viewer, sessionId: string): Promise<{ deletedCount: number }> {
  const deletedCount = await deleteSessionOf(db, viewer.id, sessionId);
  if (deletedCount === 0) throw notFound('Session');
  return { deletedCount };
}
