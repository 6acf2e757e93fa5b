import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, like, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, verifications } from '../../db/schema/auth.ts';

/*
 * Server-side records of the links mailed about an account (decision 028), in better-auth's
 * `verifications` table, which this module owns (decision 015). better-auth's verification and
 * change-of-address links are stateless JWTs; a record per link makes them revocable: the identity
 * gate refuses a link without one, and a password reset or change, "sign out everywhere" and
 * "this was not me" delete them all. Tokens are stored as digests, never as themselves.
 */

const EMAIL_LINK = 'email-link:';
const NOT_ME = 'not-me:';
/** better-auth's own reset tokens: `reset-password:<token>`, value the user id. */
const RESET_PASSWORD = 'reset-password:';

/** How long a "this was not me" link works: long enough to read the mail after a holiday. */
export const NOT_ME_SECONDS = 14 * 24 * 60 * 60;

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Records a verification or change-of-address link better-auth is about to mail. */
export async function recordEmailLink(db: Db, token: string, userId: string, expiresAt: Date): Promise<void> {
  await db
    .insert(verifications)
    .values({ id: randomUUID(), identifier: `${EMAIL_LINK}${digest(token)}`, value: userId, expiresAt });
}

/** The user a mailed link was recorded for, or null: never recorded, revoked, or expired. */
export async function findEmailLink(db: Db, token: string, now: Date): Promise<string | null> {
  const [row] = await db
    .select({ userId: verifications.value })
    .from(verifications)
    .where(and(eq(verifications.identifier, `${EMAIL_LINK}${digest(token)}`), gt(verifications.expiresAt, now)));
  return row?.userId ?? null;
}

/**
 * Revokes every verification, change-of-address and password-reset link of a user: after a
 * password reset or change, "sign out everywhere", a completed change, or "this was not me".
 */
export async function revokeEmailLinks(db: Db, userId: string): Promise<void> {
  await db
    .delete(verifications)
    .where(
      and(
        eq(verifications.value, userId),
        or(like(verifications.identifier, `${EMAIL_LINK}%`), like(verifications.identifier, `${RESET_PASSWORD}%`)),
      ),
    );
}

/** A new "this was not me" link's token for a mail to `email`, the account's address at the time. */
export async function issueNotMeToken(db: Db, userId: string, email: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(verifications).values({
    id: randomUUID(),
    identifier: `${NOT_ME}${digest(token)}`,
    value: JSON.stringify({ userId, email }),
    expiresAt: new Date(now.getTime() + NOT_ME_SECONDS * 1000),
  });
  return token;
}

/** Uses up a "this was not me" token: whose it was and the address it was mailed to, or null. */
export async function takeNotMeToken(
  db: Db,
  token: string,
  now: Date,
): Promise<{ userId: string; email: string } | null> {
  const [row] = await db
    .delete(verifications)
    .where(and(eq(verifications.identifier, `${NOT_ME}${digest(token)}`), gt(verifications.expiresAt, now)))
    .returning({ value: verifications.value });
  return row ? (JSON.parse(row.value) as { userId: string; email: string }) : null;
}

/** Ends every session of a user, and with them the API tokens that name them (decision 009). */
export async function endEverySession(db: Db, userId: string): Promise<number> {
  const rows = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return rows.length;
}
