import { and, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import { users } from '../../db/schema/users.ts';

const userColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  image: users.image,
  phone: users.phone,
  isAdmin: users.isAdmin,
  isTeacher: users.isTeacher,
  timeZone: users.timeZone,
  createdAt: users.createdAt,
};

export type UserRow = {
  id: string;
  name: string;
  email: string;
  image: string | null;
  phone: string | null;
  isAdmin: boolean;
  isTeacher: boolean;
  /** As the person's browser last reported it (decision 053); null until one has. */
  timeZone: string | null;
  createdAt: Date;
};

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select(userColumns).from(users).where(eq(users.email, email));
  return row ?? null;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select(userColumns).from(users).where(eq(users.id, id));
  return row ?? null;
}

/** `%`, `_` and `\` in a search term are literal characters, not patterns. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listUsers(
  db: Db,
  options: { q?: string | undefined; limit: number; offset: number },
): Promise<{ rows: UserRow[]; total: number }> {
  const pattern = options.q ? containsPattern(options.q) : null;
  const where = pattern ? or(ilike(users.name, pattern), ilike(users.email, pattern)) : undefined;
  return withTotal(
    db
      .select(userColumns)
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: users, where },
  );
}

/**
 * Fills in the profile fields that are still empty, never overwriting one that is set.
 * Returns the names of the fields it stored.
 */
export async function fillEmptyProfileFields(
  db: Db,
  id: string,
  fields: { name?: string | undefined; image?: string | undefined; phone?: string | undefined },
): Promise<string[]> {
  const current = await findUserById(db, id);
  if (!current) return [];
  const patch: { name?: string; image?: string; phone?: string } = {};
  if (fields.name && current.name.trim() === '') patch.name = fields.name;
  if (fields.image && !current.image) patch.image = fields.image;
  if (fields.phone && !current.phone) patch.phone = fields.phone;
  const names = Object.keys(patch);
  if (names.length === 0) return [];
  // Only while those fields are still empty: of two concurrent calls, one fills them.
  const updated = await db
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(
      and(
        eq(users.id, id),
        patch.name !== undefined ? sql`trim(${users.name}) = ''` : undefined,
        patch.image !== undefined ? sql`coalesce(${users.image}, '') = ''` : undefined,
        patch.phone !== undefined ? sql`coalesce(${users.phone}, '') = ''` : undefined,
      ),
    )
    .returning({ id: users.id });
  return updated.length > 0 ? names : [];
}

/** Sets the admin flag; the teacher flag is untouched (DESIGN §1.5). Returns rows changed. */
export async function setAdmin(db: Db, id: string): Promise<number> {
  const rows = await db
    .update(users)
    .set({ isAdmin: true, updatedAt: new Date() })
    .where(and(eq(users.id, id), eq(users.isAdmin, false)))
    .returning({ id: users.id });
  return rows.length;
}

/** Locks every admin row for the rest of the transaction and returns their ids. */
export async function lockAdminIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).for('update');
  return rows.map((r) => r.id);
}

/** Deletes the user; sessions, accounts and their own records go with it (foreign keys cascade). */
export async function deleteUser(db: Db, id: string): Promise<number> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length;
}

export interface NotificationPreferencesRow {
  teacherApplication: boolean;
  classReviews: boolean;
  newMessages: boolean;
  sessionReminders: boolean;
}

const PREFERENCE_COLUMNS = {
  teacherApplication: users.notifyTeacherApplication,
  classReviews: users.notifyClassReviews,
  newMessages: users.notifyNewMessages,
  sessionReminders: users.notifySessionReminders,
};

export async function findNotificationPreferences(db: Db, id: string): Promise<NotificationPreferencesRow | null> {
  const [row] = await db.select(PREFERENCE_COLUMNS).from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function updateNotificationPreferences(
  db: Db,
  id: string,
  prefs: NotificationPreferencesRow,
  now: Date,
): Promise<NotificationPreferencesRow | null> {
  const [row] = await db
    .update(users)
    .set({
      notifyTeacherApplication: prefs.teacherApplication,
      notifyClassReviews: prefs.classReviews,
      notifyNewMessages: prefs.newMessages,
      notifySessionReminders: prefs.sessionReminders,
      updatedAt: now,
    })
    .where(eq(users.id, id))
    .returning(PREFERENCE_COLUMNS);
  return row ?? null;
}

/** The person's time zone as their browser reported it (decision 053); false when there is no such user. */
export async function updateTimeZone(db: Db, id: string, timeZone: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ timeZone, updatedAt: now })
    .where(eq(users.id, id))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** The preferences of whoever holds this address; null when nobody does (a deleted account). */
export async function findNotificationPreferencesByEmail(
  db: Db,
  email: string,
): Promise<NotificationPreferencesRow | null> {
  const [row] = await db.select(PREFERENCE_COLUMNS).from(users).where(eq(users.email, email.toLowerCase()));
  return row ?? null;
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id ?? null;
}

/** Makes the user a teacher; the admin flag is left as it is (DESIGN §1.5). Returns rows changed. */
export async function setTeacher(db: Db, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(users)
    .set({ isTeacher: true, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return rows.length;
}

/**
 * The columns of `users` other modules may join on, read only (decision 015): a person's current
 * name and picture next to their enrollments or reviews. Their repositories never import the table.
 */
export const userJoin = { table: users, id: users.id, name: users.name, image: users.image, email: users.email };

/** What a request needs to know of its caller (lib/authorize.ts `Viewer`, without the session). */
export const viewerColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  image: users.image,
  phone: users.phone,
  isAdmin: users.isAdmin,
  isTeacher: users.isTeacher,
  emailVerified: users.emailVerified,
};

/**
 * The condition a caller's user row must meet: not suspended (decision 043). Exported for the one
 * join that resolves a Bearer token's caller (auth's sessions.public.ts).
 */
export const isViewerAllowed = isNull(users.suspendedAt);

/** The caller's user row, read again on every request so a deleted or suspended user is anonymous at once. */
export async function findViewerUser(db: Db, id: string) {
  const [user] = await db
    .select(viewerColumns)
    .from(users)
    .where(and(eq(users.id, id), isViewerAllowed));
  return user ?? null;
}

/** Whether the account is suspended now (decision 043); false for an account that does not exist. */
export async function isSuspended(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, id));
  return Boolean(row?.suspendedAt);
}

/** Names and suspension of these users, for a moderation queue's page (decision 043). */
export async function findModerationSubjects(
  db: Db,
  ids: string[],
): Promise<Map<string, { name: string; email: string; isAdmin: boolean; suspended: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      isAdmin: users.isAdmin,
      suspendedAt: users.suspendedAt,
    })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(
    rows.map((row) => [
      row.id,
      { name: row.name, email: row.email, isAdmin: row.isAdmin, suspended: row.suspendedAt !== null },
    ]),
  );
}

/** Sets or lifts the suspension; answers whether the row changed (the user exists and was not already so). */
export async function setSuspendedAt(db: Db, id: string, at: Date | null): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ suspendedAt: at, updatedAt: at ?? new Date() })
    .where(and(eq(users.id, id), at ? isNull(users.suspendedAt) : sql`${users.suspendedAt} is not null`))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Gives an account back an address it had ("this was not me", decision 028), verified (the link
 * was mailed to it); nothing when another account holds that address now. Returns rows changed.
 */
export async function restoreEmail(db: Db, id: string, email: string, now: Date): Promise<number> {
  const rows = await db
    .update(users)
    .set({ email, emailVerified: true, updatedAt: now })
    .where(
      and(
        eq(users.id, id),
        sql`not exists (select 1 from ${users} as holder where holder.email = ${email} and holder.id <> ${id})`,
      ),
    )
    .returning({ id: users.id });
  return rows.length;
}

/** A verification or reset link proved the address. */
export async function setEmailVerified(db: Db, id: string): Promise<void> {
  await db.update(users).set({ emailVerified: true }).where(eq(users.id, id));
}

/**
 * Sets the admin flag when the address is verified and `isListed` (ADMIN_EMAILS) says so; the
 * update repeats the verified condition, so an address unverified meanwhile gets nothing.
 */
export async function setAdminIfVerifiedAndListed(
  db: Db,
  id: string,
  isListed: (email: string) => boolean,
): Promise<void> {
  const [user] = await db
    .select({ email: users.email, isAdmin: users.isAdmin, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, id));
  if (user && user.emailVerified && !user.isAdmin && isListed(user.email)) {
    await db
      .update(users)
      .set({ isAdmin: true })
      .where(and(eq(users.id, id), eq(users.emailVerified, true)));
  }
}
