import { and, asc, eq, inArray, lt, sql, sum, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
// eslint-disable-next-line no-restricted-imports -- IMAGE_REFERENCES reads the image columns of other modules' tables (decision 015, known exception)
import { schema } from '../../db/client.ts';

type NewUpload = typeof schema.uploads.$inferInsert;

/**
 * Records an upload. The same picture uploaded again keeps its first row and owner
 * (content-addressed keys) but counts as fresh: its grace period before collection restarts.
 */
export async function upsertUpload(db: Db, values: NewUpload & { createdAt: Date }): Promise<void> {
  await db
    .insert(schema.uploads)
    .values(values)
    .onConflictDoUpdate({ target: schema.uploads.key, set: { createdAt: values.createdAt } });
}

export async function uploadExists(db: Db, key: string): Promise<boolean> {
  const [row] = await db
    .select({ key: schema.uploads.key })
    .from(schema.uploads)
    .where(eq(schema.uploads.key, key))
    .limit(1);
  return Boolean(row);
}

/**
 * Bytes of the stored uploads of one kind a user owns (uploads_owner_idx): images and class
 * materials' files ("m-" keys) have quotas of their own (UPLOAD_QUOTA_MB, MATERIAL_QUOTA_MB).
 */
export async function sumOwnerBytes(db: Db, ownerId: string, kind: 'image' | 'material'): Promise<number> {
  const isMaterial = sql`${schema.uploads.key} like 'm-%'`;
  const [row] = await db
    .select({ total: sum(schema.uploads.bytes) })
    .from(schema.uploads)
    .where(and(eq(schema.uploads.ownerId, ownerId), kind === 'material' ? isMaterial : sql`not ${isMaterial}`));
  return Number(row?.total ?? 0);
}

/** Serialises one user's quota check and insert until the transaction ends (several instances too). */
export async function lockOwnerUploads(tx: Db, ownerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('skillhive:upload-quota'), hashtext(${ownerId}))`);
}

/**
 * Every column that keeps an uploaded image alive, in one place. `key` columns hold an image key;
 * `url` columns hold an address (users.image may be ours or a third party's), matched by the
 * 64-hex content hash it contains, so a display or thumbnail URL, on our route or on a CDN, keeps
 * the image (an unrelated URL that happens to carry the same hash only keeps it longer).
 * A new table that stores an image: add one line here.
 */
const IMAGE_REFERENCES: readonly { column: AnyPgColumn; holds: 'key' | 'url' }[] = [
  { column: schema.classes.imageKey, holds: 'key' },
  // A class material's file (decision 027): collected like an image once no material uses it.
  { column: schema.classMaterials.fileKey, holds: 'key' },
  { column: schema.enrollments.imageKey, holds: 'key' },
  { column: schema.teacherRequests.image, holds: 'url' },
  { column: schema.users.image, holds: 'url' },
  { column: schema.classRevisions.imageKey, holds: 'key' },
];

/**
 * The SQL condition "no referencing column uses the image whose key is `key`". Written as
 * NOT EXISTS … AND NOT EXISTS … so PostgreSQL plans each as an anti-join.
 */
export function isUnreferencedImage(key: SQL | AnyPgColumn): SQL {
  const conditions = IMAGE_REFERENCES.map(({ column, holds }) => {
    const match =
      holds === 'key' ? sql`${column} = ${key}` : sql`substring(${column} from '[0-9a-f]{64}') = left(${key}, 64)`;
    return sql`not exists (select 1 from ${column.table} where ${match})`;
  });
  return and(...conditions)!;
}

/** Whether any referencing column uses the image `key` (the same condition the collector uses). */
export async function isImageReferenced(db: Db, key: string): Promise<boolean> {
  const result = (await db.execute(sql`select ${isUnreferencedImage(sql`${key}::text`)} as unused`)) as unknown as {
    rows: { unused: boolean }[];
  };
  return result.rows[0]?.unused === false;
}

/**
 * Takes the collector's lock for the current transaction, or answers false at once when another
 * instance holds it (pg_try_advisory_xact_lock: released at commit or rollback).
 */
export async function tryLockCollector(tx: Db): Promise<boolean> {
  const result = (await tx.execute(
    sql`select pg_try_advisory_xact_lock(hashtext('skillhive:upload-gc')) as locked`,
  )) as unknown as { rows: { locked: boolean }[] };
  return result.rows[0]?.locked === true;
}

/**
 * Deletes up to `limit` uploads created before `cutoff` that nothing references, oldest first,
 * and returns their keys. The delete itself applies the conditions, so running it twice is
 * harmless; a class that starts using an image meanwhile is protected by its foreign key.
 */
export async function deleteUnreferencedUploads(db: Db, cutoff: Date, limit: number): Promise<string[]> {
  const candidates = db
    .select({ key: schema.uploads.key })
    .from(schema.uploads)
    .where(and(lt(schema.uploads.createdAt, cutoff), isUnreferencedImage(schema.uploads.key)))
    .orderBy(asc(schema.uploads.createdAt))
    .limit(limit);
  const rows = await db
    .delete(schema.uploads)
    .where(and(inArray(schema.uploads.key, candidates), lt(schema.uploads.createdAt, cutoff)))
    .returning({ key: schema.uploads.key });
  return rows.map((row) => row.key);
}
