import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions } from '../../db/schema/auth.ts';
import { isViewerAllowed, userJoin, viewerColumns } from '../users/contact.public.ts';

/*
 * better-auth's sessions, for a person's device list (GET/DELETE /api/users/me/sessions in the
 * users module) and for the caller of a Bearer token (plugins/auth.ts). The auth module owns the sessions table (decision 015); this file is its public
 * API for it, next to credentials.ts for the accounts table.
 */

/** A user's live sessions, most recently active first; tokens are never read out. */
export async function listSessionsOf(db: Db, userId: string, now: Date) {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
      expiresAt: sessions.expiresAt,
      ipAddress: sessions.ipAddress,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.updatedAt));
}

/** Ends one of the user's own sessions (and the API tokens that name it); 0 when it is not theirs. */
export async function deleteSessionOf(db: Db, userId: string, sessionId: string): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return rows.length;
}

/**
 * Ends every session of the user, and with them every API token (tokens name their session,
 * decision 009): a suspension signs the person out everywhere at once (decision 043).
 */
export async function deleteSessionsOfUser(db: Db, userId: string): Promise<number> {
  const rows = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return rows.length;
}

/**
 * The user of an API token, if the better-auth session the token names still exists, is unexpired
 * and is that user's (decision 009), and the user is not suspended (decision 043): sign-out, revocation, a password change and account deletion
 * all delete the row. One query: the session with the users module's viewer columns.
 */
export async function findTokenViewer(db: Db, claims: { sessionId: string; userId: string }, now: Date) {
  const [viewer] = await db
    .select({ ...viewerColumns, sessionId: sessions.id, sessionCreatedAt: sessions.createdAt })
    .from(sessions)
    .innerJoin(userJoin.table, eq(userJoin.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, claims.sessionId),
        eq(sessions.userId, claims.userId),
        gt(sessions.expiresAt, now),
        isViewerAllowed,
      ),
    );
  return viewer ?? null;
}
