/*
 * Above the modules, unlike the rest of db/ (decision 015): an export carries the images with the
 * rows, so it reads the storage and the thumbnail width of the uploads module.
 */
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, writeFile, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';
import { THUMB_WIDTH } from '../modules/uploads/image-processing.ts';
import { IMAGE_KEY_PATTERN, MATERIAL_KEY_PATTERN, type ImageStorage } from '../modules/uploads/storage.public.ts';

/**
 * A portable copy of a SkillHive database and its images (docs/OPERATIONS.md "Back up and
 * restore"): a directory with manifest.json, one JSON-lines file per table (rows as PostgreSQL's
 * row_to_json writes them, tables in foreign-key order) and images/<key>. It moves between
 * embedded PGlite and a PostgreSQL server either way; ids and password hashes move unchanged.
 */
export const EXPORT_FORMAT = 'skillhive-export';
export const EXPORT_FORMAT_VERSION = 1;
const BATCH = 500;

export interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  formatVersion: number;
  createdAt: string;
  source: string;
  /** drizzle's applied migrations: the importing database must be at the same one. */
  migrations: { count: number; lastHash: string | null };
  /** In foreign-key order: a table comes after every table it references. */
  tables: { name: string; file: string; rows: number }[];
  images: { count: number; missing: string[] };
}

export class PortableError extends Error {
  override name = 'PortableError';
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The public schema's tables, each after the tables it references (self-references ignored). */
export async function tablesInDependencyOrder(db: Db): Promise<string[]> {
  const tables = (
    await rows<{ name: string }>(db, sql`select tablename as name from pg_tables where schemaname = 'public'`)
  ).map((t) => t.name);
  const edges = await rows<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent
        from pg_constraint k
        join pg_class c on c.oid = k.conrelid
        join pg_class p on p.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of edges) if (child !== parent) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const remaining = new Set([...tables].sort());
  while (remaining.size > 0) {
    const ready = [...remaining].filter((t) => [...(parents.get(t) ?? [])].every((p) => !remaining.has(p)));
    if (ready.length === 0) throw new PortableError(`foreign keys form a cycle among: ${[...remaining].join(', ')}`);
    for (const t of ready) {
      ordered.push(t);
      remaining.delete(t);
    }
  }
  return ordered;
}

async function appliedMigrations(db: Db): Promise<ExportManifest['migrations']> {
  try {
    const list = await rows<{ hash: string }>(
      db,
      sql`select hash from drizzle.__drizzle_migrations order by created_at, id`,
    );
    return { count: list.length, lastHash: list.at(-1)?.hash ?? null };
  } catch {
    return { count: 0, lastHash: null };
  }
}

/** The stored keys of an upload: the display image and its thumbnail. */
function imageKeys(key: string): string[] {
  // A class material's file (decision 021) is one object; an upload has a display image and a thumbnail.
  if (MATERIAL_KEY_PATTERN.test(key)) return [key];
  return [key, key.replace(/\.webp$/, `-${THUMB_WIDTH}.webp`)];
}

/** Writes the database and its images into `dir` (created; must be empty or absent). */
export async function exportDatabase(
  db: Db,
  storage: ImageStorage,
  dir: string,
  source: string,
): Promise<ExportManifest> {
  await mkdir(dir, { recursive: true });
  if ((await readdir(dir)).length > 0) throw new PortableError(`${dir} is not empty`);
  await mkdir(path.join(dir, 'tables'));
  await mkdir(path.join(dir, 'images'));
  // One snapshot for every table, so the copy is consistent while the app keeps writing.
  const { tables, migrations, uploadKeys } = await db.transaction(
    async (tx) => {
      const order = await tablesInDependencyOrder(tx);
      const written: ExportManifest['tables'] = [];
      for (const name of order) {
        const file = `tables/${name}.jsonl`;
        await writeFile(path.join(dir, file), '');
        let count = 0;
        for (;;) {
          const batch = await rows<{ r: string }>(
            tx,
            sql`select row_to_json(t)::text as r from ${sql.identifier(name)} t order by ctid limit ${BATCH} offset ${count}`,
          );
          if (batch.length === 0) break;
          await appendFile(path.join(dir, file), batch.map((b) => `${b.r}\n`).join(''));
          count += batch.length;
          if (batch.length < BATCH) break;
        }
        written.push({ name, file, rows: count });
      }
      const keys = order.includes('uploads')
        ? (await rows<{ key: string }>(tx, sql`select key from uploads order by key`)).map((r) => r.key)
        : [];
      if (order.includes('class_materials')) {
        const files = await rows<{ key: string }>(
          tx,
          sql`select distinct file_key as key from class_materials where file_key is not null order by 1`,
        );
        keys.push(...files.map((r) => r.key));
      }
      // A material file uploaded since decision 027 is both an upload and a material's file: once.
      return { tables: written, migrations: await appliedMigrations(tx), uploadKeys: [...new Set(keys)] };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );

  const missing: string[] = [];
  let images = 0;
  for (const upload of uploadKeys) {
    for (const key of imageKeys(upload)) {
      const stored = await storage.get(key);
      if (!stored) {
        missing.push(key);
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Uint8Array));
      await writeFile(path.join(dir, 'images', key), Buffer.concat(chunks));
      images += 1;
    }
  }
  const manifest: ExportManifest = {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    source,
    migrations,
    tables,
    images: { count: images, missing },
  };
  await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

export async function readManifest(dir: string): Promise<ExportManifest> {
  let manifest: ExportManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as ExportManifest;
  } catch (error) {
    throw new PortableError(`${dir} has no readable manifest.json (${String(error)})`);
  }
  if (manifest.format !== EXPORT_FORMAT || manifest.formatVersion !== EXPORT_FORMAT_VERSION) {
    throw new PortableError(
      `${dir} is not a SkillHive export of format version ${EXPORT_FORMAT_VERSION} ` +
        `(found ${String(manifest.format)} ${String(manifest.formatVersion)})`,
    );
  }
  return manifest;
}

/** Columns an insert may set: generated columns (classes.search) are computed again. */
async function insertableColumns(db: Db, table: string): Promise<string[]> {
  const list = await rows<{ name: string }>(
    db,
    sql`select a.attname as name from pg_attribute a
        join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relname = ${table} and a.attnum > 0 and not a.attisdropped
          and a.attgenerated = ''
        order by a.attnum`,
  );
  return list.map((c) => c.name);
}

/**
 * Loads an export into `db`, which must be migrated to the export's migration and hold no rows,
 * then puts the images into `storage`. All rows go in one transaction: a failure leaves the
 * database empty.
 */
export async function importDatabase(db: Db, storage: ImageStorage, dir: string): Promise<ExportManifest> {
  const manifest = await readManifest(dir);
  const target = await appliedMigrations(db);
  if (target.count !== manifest.migrations.count || target.lastHash !== manifest.migrations.lastHash) {
    throw new PortableError(
      `the target database has ${target.count} migrations applied, the export ${manifest.migrations.count}: ` +
        'run the same SkillHive version (npm run db:migrate) on both sides',
    );
  }
  const present = new Set(await tablesInDependencyOrder(db));
  for (const { name } of manifest.tables) {
    if (!present.has(name)) throw new PortableError(`the target database has no table ${name}`);
  }
  for (const name of present) {
    const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(name)}`);
    if ((row?.n ?? 0) > 0) throw new PortableError(`the target database is not empty: ${name} has rows`);
  }

  await db.transaction(async (tx) => {
    for (const { name, file, rows: expected } of manifest.tables) {
      const columns = await insertableColumns(tx, name);
      const list = sql.join(
        columns.map((c) => sql.identifier(c)),
        sql`, `,
      );
      let batch: string[] = [];
      let loaded = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const json = `[${batch.join(',')}]`;
        await tx.execute(
          sql`insert into ${sql.identifier(name)} (${list})
              select ${list} from jsonb_populate_recordset(null::${sql.identifier(name)}, ${json}::jsonb)`,
        );
        loaded += batch.length;
        batch = [];
      };
      const lines = createInterface({ input: createReadStream(path.join(dir, file)), crlfDelay: Infinity });
      for await (const line of lines) {
        if (line.trim() === '') continue;
        batch.push(line);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      if (loaded !== expected) throw new PortableError(`${name}: the export lists ${expected} rows, ${loaded} read`);
    }
  });

  for (const key of await readdir(path.join(dir, 'images'))) {
    if (IMAGE_KEY_PATTERN.test(key)) {
      await storage.put(key, await readFile(path.join(dir, 'images', key)), 'image/webp');
    } else if (MATERIAL_KEY_PATTERN.test(key)) {
      // Served with the type its row recorded at upload; the stored object's own type is not read.
      await storage.put(key, await readFile(path.join(dir, 'images', key)), 'application/octet-stream');
    }
  }
  return manifest;
}
