import { roleOf, type UserListItem, type UserProfile } from '@skillhive/shared/users';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { forgetStudent } from '../enrollments/enrollments.service.ts';
import { pseudonymisePaymentsOf } from '../payments/payments.service.ts';
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
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
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

/** What a deleted account's kept financial records show instead of its e-mail. */
export const DELETED_ACCOUNT_EMAIL = 'deleted-account';

/**
 * Deletes an account (spec §6). Its sessions and sign-in accounts cascade, so it is signed out
 * everywhere at once, and its API tokens stop resolving because the row is gone. Its payments and
 * paid enrolments are financial records and stay, cut from the person (security issue §10), so
 * teacher and admin figures never change after the fact; its cart and reviews go. An admin cannot
 * delete themself, nor the last admin; a teacher whose classes other students paid for is kept,
 * since deleting them would delete those classes and their paid enrolments.
 */
export async function deleteUser(db: Db, actor: Viewer, id: string): Promise<{ deletedCount: number }> {
  if (id === actor.id) throw conflict('You cannot delete your own account');
  return db.transaction(async (tx) => {
    // Admin rows are locked first, so two admins deleting each other cannot leave none.
    const adminIds = await repo.lockAdminIds(tx);
    if (!adminIds.includes(actor.id)) throw conflict('Your admin rights changed; reload and try again');
    const target = await repo.findUserById(tx, id);
    if (!target) throw notFound('User');
    if (target.isAdmin && adminIds.filter((a) => a !== id).length === 0) {
      throw conflict('The last admin cannot be deleted');
    }
    if (await repo.teachesPaidEnrollments(tx, id)) {
      throw conflict('This teacher has classes that students have paid for, so the account cannot be deleted');
    }
    await forgetStudent(tx, id, DELETED_ACCOUNT_EMAIL);
    await pseudonymisePaymentsOf(tx, id, DELETED_ACCOUNT_EMAIL);
    await deleteReviewsOf(tx, id);
    const deletedCount = await repo.deleteUser(tx, id);
    await recordAudit(tx, actor, {
      action: 'user.delete',
      targetType: 'user',
      targetId: target.id,
      targetLabel: target.email,
      details: { name: target.name, admin: target.isAdmin, teacher: target.isTeacher },
    });
    return { deletedCount };
  });
}
