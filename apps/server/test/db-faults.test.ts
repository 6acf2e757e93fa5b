import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@skillhive/shared/contracts/errors';
import { buildApp } from '../src/app.ts';
import { openPostgres, type Database } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { createLocalStorage } from '../src/modules/uploads/storage.public.ts';
import { hasPostgresBinaries, sleep, startPgCluster, waitFor, type PgCluster } from './fault-helpers.ts';
import { rawRows, signUp } from './harness.ts';

/**
 * PostgreSQL faults on a cluster of this test's own, which it stops,
 * freezes and terminates connections of: the app answers 503 quickly instead of crashing or
 * hanging, /api/ready tells the truth, and everything recovers without a restart.
 */
let cluster: PgCluster;
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>['app'];
let dataDir: string;

beforeAll(async () => {
  cluster = await startPgCluster();
  dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-db-faults-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    DATABASE_URL: cluster.url,
    DB_CONNECT_TIMEOUT_MS: '1000',
    DB_QUERY_TIMEOUT_MS: '1500',
    DB_STATEMENT_TIMEOUT_MS: '1000',
    READY_CHECK_TIMEOUT_MS: '1000',
    // Each request must meet the database, not a page shared from before the fault.
    CATALOGUE_CACHE_TTL_SECONDS: '0',
  });
  database = await openPostgres(cluster.url, {
    poolSize: 4,
    connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: env.DB_QUERY_TIMEOUT_MS,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
  });
  await database.migrate();
  ({ app } = await buildApp({
    env,
    database,
    storage: createLocalStorage(env.uploadDir),
    authSecret: 'test-secret-that-is-long-enough-1234567890',
    logger: false,
  }));
  await app.ready();
}, 60_000);

afterAll(async () => {
  cluster?.thaw();
  await app?.close();
  await database?.close().catch(() => {});
  cluster?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function expectUnavailable(response: Awaited<ReturnType<typeof app.inject>>) {
  expect(response.statusCode).toBe(503);
  const body = ErrorBody.parse(response.json());
  expect(body.error.code).toBe('unavailable');
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

async function catalogueAnswers200() {
  return (await app.inject('/api/classes')).statusCode === 200;
}

describe.skipIf(!hasPostgresBinaries)('PostgreSQL faults', () => {
  it('survives a connection terminated while checked out, and the pool heals', async () => {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      const transaction = database.db.transaction(async (tx) => {
        const [row] = await rawRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
        // The app's connection is idle in transaction, checked out of the pool: terminate it.
        await admin.query('select pg_terminate_backend($1)', [row!.pid]);
        // The client emits 'error' now; before the fix nobody listened and the process crashed.
        await sleep(300);
        await tx.execute(sql`select 1`);
      });
      await expect(transaction).rejects.toThrow();
    } finally {
      await admin.end();
    }
    expect((await app.inject('/api/classes')).statusCode).toBe(200);
    expect((await app.inject('/api/ready')).statusCode).toBe(200);
  });

  it('answers 503 with Retry-After while the server is down, and recovers when it returns', async () => {
    const user = await signUp({ app, db: database.db });
    cluster.stop();
    try {
      expectUnavailable(await app.inject('/api/classes'));
      expectUnavailable(await app.inject({ url: `/api/users/profile/${user.email}`, headers: user.headers }));
      const ready = await app.inject('/api/ready');
      expectUnavailable(ready);
      expect(ready.json().checks.database).not.toBe('ok');
      expect(ready.json().checks.storage).toBe('ok');
    } finally {
      cluster.start();
    }
    await waitFor(catalogueAnswers200, 10_000, 'the catalogue after the restart');
    expect((await app.inject('/api/ready')).json()).toMatchObject({ status: 'ready', checks: { database: 'ok' } });
    expect((await app.inject({ url: `/api/users/profile/${user.email}`, headers: user.headers })).statusCode).toBe(200);
  }, 60_000);

  it('answers 503 within its timeouts while the server is frozen, and recovers when it thaws', async () => {
    cluster.freeze();
    try {
      const started = Date.now();
      const [catalogue, ready] = await Promise.all([app.inject('/api/classes'), app.inject('/api/ready')]);
      expectUnavailable(catalogue);
      expectUnavailable(ready);
      expect(ready.json().checks.database).toBe('timeout');
      // DB_QUERY_TIMEOUT_MS=1500 and READY_CHECK_TIMEOUT_MS=1000, not a hang.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      cluster.thaw();
    }
    await waitFor(catalogueAnswers200, 10_000, 'the catalogue after the thaw');
    expect((await app.inject('/api/ready')).statusCode).toBe(200);
  }, 60_000);
});
