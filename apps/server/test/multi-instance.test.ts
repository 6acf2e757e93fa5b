import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openPostgres, type Database } from '../src/db/client.ts';
import { createClass } from './commerce-fixtures.ts';
import { createTestApp, createUser, rawRows, type TestContext, type TestUser } from './harness.ts';
import { sql } from 'drizzle-orm';

/**
 * Several instances on one database (docs/OPERATIONS.md "Scale out"): each keeps its own 1 s
 * catalogue cache, so a class approved or deleted through one instance shows on another within
 * the cache's staleness (1 s, plus the one page query that fills it); and migrations run once
 * when instances start together.
 */

const TTL_MS = 1_000;
const PRODUCTION = {
  NODE_ENV: 'production',
  CATALOGUE_CACHE_TTL_SECONDS: '1',
  AUTH_SECRET: 'multi-instance-test-secret-0123456789',
  PAYMENTS_GATEWAY: 'test',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two instances on one database: the public catalogue cache', () => {
  let a: TestContext;
  let b: Awaited<ReturnType<typeof buildApp>>['app'];
  let admin: TestUser;
  let teacher: TestUser;

  beforeAll(async () => {
    a = await createTestApp(PRODUCTION);
    ({ app: b } = await buildApp({
      env: a.env,
      database: a.database,
      storage: a.storage,
      authSecret: 'test-secret-that-is-long-enough-1234567890',
      logger: false,
      webRoot: path.join(a.dataDir, 'no-web'),
    }));
    await b.ready();
    admin = await createUser(a, 'admin');
    teacher = await createUser(a, 'teacher');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const titlesOnB = async () => {
    const res = await b.inject({ method: 'GET', url: '/api/classes?limit=50' });
    expect(res.statusCode).toBe(200);
    return (res.json() as { title: string }[]).map((c) => c.title);
  };

  it('shows a class approved on A on B at most the cache TTL later', async () => {
    const pending = await createClass(a, teacher, { status: 'pending', title: 'Approved elsewhere' });
    const warmedAt = Date.now();
    expect(await titlesOnB()).not.toContain(pending.title);

    const shown = await a.app.inject({ method: 'GET', url: `/api/classes/${pending.id}`, headers: admin.headers });
    const approve = await a.app.inject({
      method: 'PATCH',
      url: `/api/classes/class-requests/${pending.id}/approve`,
      headers: admin.headers,
      payload: { version: shown.json().version },
    });
    expect(approve.statusCode).toBe(200);
    const approvedAt = Date.now();

    // Within the TTL of B's cached page, B may still serve the page without the class.
    const within = await titlesOnB();
    if (Date.now() < warmedAt + TTL_MS) expect(within).not.toContain(pending.title);

    // After the TTL (counted from the approval), B shows it.
    await sleep(Math.max(0, approvedAt + TTL_MS + 50 - Date.now()));
    expect(await titlesOnB()).toContain(pending.title);
  });

  it('stops showing a class deleted on A on B at most the cache TTL later', async () => {
    const doomed = await createClass(a, teacher, { title: 'Deleted elsewhere' });
    await sleep(TTL_MS + 50);
    const warmedAt = Date.now();
    expect(await titlesOnB()).toContain(doomed.title);

    const del = await a.app.inject({ method: 'DELETE', url: `/api/classes/${doomed.id}`, headers: admin.headers });
    expect(del.statusCode).toBe(200);
    const deletedAt = Date.now();

    const within = await titlesOnB();
    if (Date.now() < warmedAt + TTL_MS) expect(within).toContain(doomed.title);
    // The class page itself is never cached: B answers 404 at once.
    expect((await b.inject({ method: 'GET', url: `/api/classes/${doomed.id}` })).statusCode).toBe(404);

    await sleep(Math.max(0, deletedAt + TTL_MS + 50 - Date.now()));
    expect(await titlesOnB()).not.toContain(doomed.title);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;

// Concurrent migrations need a PostgreSQL server (PGlite is one process's database, and its
// data directory is locked against a second one): this part runs on the PostgreSQL pass.
describe.runIf(serverUrl)('instances starting together on a fresh PostgreSQL database', () => {
  const name = `skillhive_migrate_${process.pid}_${randomBytes(4).toString('hex')}`;
  let url: string;
  const opened: Database[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const target = new URL(serverUrl!);
    target.pathname = `/${name}`;
    url = target.toString();
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it('applies every migration exactly once when four instances migrate at the same time', async () => {
    const instances = await Promise.all([1, 2, 3, 4].map(() => openPostgres(url, 3)));
    opened.push(...instances);
    // database.migrate() takes the advisory lock itself (db/client.ts openPostgres).
    const results = await Promise.allSettled(instances.map((d) => d.migrate()));
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
    const applied = await rawRows<{ hash: string }>(
      instances[0]!.db,
      sql`select hash from drizzle.__drizzle_migrations`,
    );
    expect(new Set(applied.map((m) => m.hash)).size).toBe(applied.length);
    expect(applied.length).toBeGreaterThan(0);
    // The schema is whole: a query over the last tables works.
    await expect(instances[1]!.ping()).resolves.toBeUndefined();
    await rawRows(instances[2]!.db, sql`select count(*) from payments join enrollments on true`);
  });
});
