import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { schema } from '../../db/client.ts';

type NewUpload = typeof schema.uploads.$inferInsert;

/** Records an upload; the same picture uploaded again keeps its first row (content-addressed keys). */
export async function insertUpload(db: Db, values: NewUpload): Promise<void> {
  await db.insert(schema.uploads).values(values).onConflictDoNothing({ target: schema.uploads.key });
}

export async function uploadExists(db: Db, key: string): Promise<boolean> {
  const [row] = await db
    .select({ key: schema.uploads.key })
    .from(schema.uploads)
    .where(eq(schema.uploads.key, key))
    .limit(1);
  return Boolean(row);
}
