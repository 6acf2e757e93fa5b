import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import * as schema from '../../db/schema/auth.ts';
import { verifyPassword } from './password.ts';

/** The password hash of the account's e-mail-and-password sign-in; undefined when it has none. */
async function findCredential(db: Db, userId: string): Promise<{ password: string | null } | undefined> {
  const [account] = await db
    .select({ password: schema.accounts.password })
    .from(schema.accounts)
    .where(and(eq(schema.accounts.userId, userId), eq(schema.accounts.providerId, 'credential')));
  return account;
}

/**
 * Checks a signed-in user's own password, for the calls that confirm a person before something
 * that cannot be undone (deleting the account). 'none' when the account signs in only through
 * Google or OIDC and has no password.
 */
export async function checkOwnPassword(db: Db, userId: string, password: string): Promise<'ok' | 'wrong' | 'none'> {
  const account = await findCredential(db, userId);
  if (!account?.password) return 'none';
  return (await verifyPassword({ hash: account.password, password })) ? 'ok' : 'wrong';
}

/** Whether the account has a password at all (else it signs in only through a provider). */
export async function hasPassword(db: Db, userId: string): Promise<boolean> {
  return (await findCredential(db, userId)) !== undefined;
}
