import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openPglite, type Database, type Db } from '../src/db/client.ts';
import { exportDatabase, importDatabase, tablesInDependencyOrder, type ExportManifest } from '../src/db/portable.ts';
import { DEMO_PASSWORD, seedIfEmpty, type SeedResult } from '../src/db/seed.ts';
import { loadEnv } from '../src/env.ts';
import { createLocalStorage } from '../src/modules/uploads/storage.public.ts';
import { createTestDatabase, rawRows } from './harness.ts';

/**
 * npm run db:export / db:import (docs/OPERATIONS.md "Back up and restore"): an embedded database
 * with the demo data moves to a fresh database — another PGlite on the PGlite pass, a PostgreSQL
 * database of its own when TEST_DATABASE_URL is set — with every row, the money and the passwords.
 */

async function tableCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of await tablesInDependencyOrder(db)) {
    const [row] = await rawRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(name)}`);
    counts[name] = row?.n ?? 0;
  }
  return counts;
}

async function paymentsTotal(db: Db): Promise<number> {
  const [row] = await rawRows<{ total: number }>(
    db,
    sql`select coalesce(sum(amount_cents), 0)::int as total from payments`,
  );
  return row?.total ?? 0;
}

describe('db:export then db:import', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'skillhive-portable-'));
  const archive = path.join(work, 'export');
  let source: Database;
  let target: Database;
  let seeded: SeedResult;
  let manifest: ExportManifest;

  beforeAll(async () => {
    source = await openPglite(path.join(work, 'source-data'));
    await source.migrate();
    const result = await seedIfEmpty(source.db, createLocalStorage(path.join(work, 'source-uploads')), []);
    if (!result) throw new Error('the source database was not empty');
    seeded = result;
    manifest = await exportDatabase(
      source.db,
      createLocalStorage(path.join(work, 'source-uploads')),
      archive,
      'pglite',
    );
    target = await createTestDatabase();
    await importDatabase(target.db, createLocalStorage(path.join(work, 'target-uploads')), archive);
  }, 180_000);

  afterAll(async () => {
    await source?.close();
    await target?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('writes a manifest with a format version, counts, and tables in foreign-key order', async () => {
    expect(manifest.formatVersion).toBe(1);
    const names = manifest.tables.map((t) => t.name);
    expect(names.indexOf('users')).toBeLessThan(names.indexOf('classes'));
    expect(names.indexOf('uploads')).toBeLessThan(names.indexOf('classes'));
    expect(names.indexOf('payments')).toBeLessThan(names.indexOf('enrollments'));
    expect(names.indexOf('classes')).toBeLessThan(names.indexOf('reviews'));
    const counts = await tableCounts(source.db);
    expect(Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]))).toEqual(counts);
    expect(counts.users).toBeGreaterThan(0);
    expect(counts.payments).toBeGreaterThan(0);
    expect(manifest.images.missing).toEqual([]);
    expect(readdirSync(path.join(archive, 'images'))).toHaveLength(manifest.images.count);
    // Display image and thumbnail of every image upload; one object per class material file (the
    // demo's live classes have a PDF and a picture each, decision 021).
    const [kinds] = await rawRows<{ materials: number; images: number }>(
      source.db,
      sql`select count(*) filter (where key like 'm-%')::int as materials, count(*) filter (where key not like 'm-%')::int as images from uploads`,
    );
    expect(kinds!.materials).toBeGreaterThan(0);
    expect(manifest.images.count).toBe(2 * kinds!.images + kinds!.materials);
  });

  it('moves every row and the money unchanged', async () => {
    expect(await tableCounts(target.db)).toEqual(await tableCounts(source.db));
    expect(await paymentsTotal(target.db)).toBe(await paymentsTotal(source.db));
    expect(await paymentsTotal(target.db)).toBeGreaterThan(0);
    const ids = sql`select id, email, image from users order by id`;
    expect(await rawRows(target.db, ids)).toEqual(await rawRows(source.db, ids));
    // The generated search column is computed again on the target.
    const search = sql`select id, search::text as search from classes order by id`;
    const sourceSearch = await rawRows<{ search: string }>(source.db, search);
    expect(sourceSearch.length).toBeGreaterThan(0);
    expect(sourceSearch.every((r) => r.search.length > 0)).toBe(true);
    expect(await rawRows(target.db, search)).toEqual(sourceSearch);
  });

  it('moves the images into the target storage', () => {
    for (const key of readdirSync(path.join(archive, 'images'))) {
      expect(existsSync(path.join(work, 'target-uploads', key.slice(0, 2), key)), key).toBe(true);
    }
  });

  it('lets a demo account sign in on the target with the same password', async () => {
    const dataDir = path.join(work, 'app-data');
    const env = loadEnv({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://localhost:3000',
      LOG_LEVEL: 'silent',
    });
    const { app } = await buildApp({
      env,
      database: target,
      storage: createLocalStorage(path.join(work, 'target-uploads')),
      authSecret: 'test-secret-that-is-long-enough-1234567890',
      logger: false,
    });
    try {
      const email = seeded.logins.find((l) => l.role === 'student')?.email;
      const ok = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email, password: DEMO_PASSWORD },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      const wrong = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email, password: `${DEMO_PASSWORD}x` },
      });
      expect(wrong.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('refuses a database that is not empty, an occupied export directory and a foreign archive', async () => {
    await expect(importDatabase(target.db, createLocalStorage(path.join(work, 'x')), archive)).rejects.toThrow(
      /not empty/,
    );
    await expect(
      exportDatabase(source.db, createLocalStorage(path.join(work, 'x')), archive, 'pglite'),
    ).rejects.toThrow(/not empty/);
    const foreign = path.join(work, 'foreign');
    rmSync(foreign, { recursive: true, force: true });
    await exportDatabase(source.db, createLocalStorage(path.join(work, 'source-uploads')), foreign, 'pglite');
    writeFileSync(path.join(foreign, 'manifest.json'), JSON.stringify({ format: 'other', formatVersion: 9 }));
    await expect(importDatabase(target.db, createLocalStorage(path.join(work, 'x')), foreign)).rejects.toThrow(
      /format version/,
    );
  });
});
