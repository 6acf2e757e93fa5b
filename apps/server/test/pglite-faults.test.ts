import { chmodSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '@skillhive/shared/contracts/errors';
import { buildApp } from '../src/app.ts';
import { openPglite, type Database, type PgliteOptions } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { createLocalStorage } from '../src/modules/uploads/storage.public.ts';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sleep } from './fault-helpers.ts';
import { rawRows } from './harness.ts';

/**
 * Embedded-database faults (decision 011): PGlite in a DATA_DIR of its own that the
 * test makes read-only, keeps busy or breaks. Embedded mode only.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function embeddedApp(options: PgliteOptions = {}, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-pglite-faults-'));
  cleanups.push(() => {
    chmodSync(dataDir, 0o755);
    rmSync(dataDir, { recursive: true, force: true });
  });
  // Migrated by a first process, so that the app below opens files it has not touched yet.
  const first = await openPglite(dataDir);
  await first.migrate();
  await first.close();
  const database = await openPglite(dataDir, options);
  const config = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    READY_CHECK_TIMEOUT_MS: '1000',
    ...env,
  });
  const { app } = await buildApp({
    env: config,
    database,
    storage: createLocalStorage(config.uploadDir),
    authSecret: 'test-secret-that-is-long-enough-1234567890',
    logger: false,
  });
  await app.ready();
  cleanups.push(async () => {
    await app.close();
    await database.close();
  });
  return { app, database, dataDir, pgDir: path.join(dataDir, 'pglite'), uploadDir: config.uploadDir };
}

function chmodTree(dir: string, writable: boolean) {
  // As root the kernel ignores these bits, but PGlite's file system does not: the fault shows either way.
  for (const entry of [dir, ...listTree(dir)]) chmodSync(entry, writable ? 0o755 : 0o555);
}
function listTree(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? [full, ...listTree(full)] : [full];
  });
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('embedded database faults', () => {
  it('serves the catalogue again once a read-only data directory is writable again', async () => {
    const { app, pgDir } = await embeddedApp();
    chmodTree(pgDir, false);
    try {
      // Tables first opened while read-only (whatever this answers, it is not the point).
      await app.inject('/api/classes');
      await app.inject('/api/reviews');
    } finally {
      chmodTree(pgDir, true);
    }
    // Before the fix: 500 "could not open file … Permission denied" until restart, while ready said 200.
    const catalogue = await app.inject('/api/classes');
    expect(catalogue.statusCode).toBe(200);
    expect((await app.inject('/api/reviews')).statusCode).toBe(200);
    expect((await app.inject('/api/ready')).statusCode).toBe(200);
  });

  it('reports an upload directory that cannot be written as degraded, still ready, and recovers', async () => {
    const { app, uploadDir } = await embeddedApp();
    expect((await app.inject('/api/ready')).json().checks.storage).toBe('ok');
    // A file where the directory should be: unwritable even for root.
    rmSync(uploadDir, { recursive: true, force: true });
    writeFileSync(uploadDir, '');
    // Everything but uploads still works: the balancer keeps the instance (decision 029).
    const ready = await app.inject('/api/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'degraded', degraded: ['storage'] });
    expect(ready.json().checks).toMatchObject({
      database: 'ok',
      storage: expect.stringMatching(/EEXIST|ENOTDIR|not writable/),
    });
    expect((await app.inject('/api/reviews')).statusCode).toBe(200);
    rmSync(uploadDir);
    expect((await app.inject('/api/ready')).json()).toMatchObject({ status: 'ready' });
  });

  it('fails a request that waits too long for the single connection with 503, not a hang', async () => {
    const { app, database } = await embeddedApp({ waitTimeoutMs: 300 });
    let release = () => {};
    const held = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await sleep(50);
    const started = Date.now();
    const response = await app.inject('/api/classes');
    expect(response.statusCode).toBe(503);
    expect(ErrorBody.parse(response.json()).error.code).toBe('unavailable');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(2_000);
    release();
    await held;
    expect((await app.inject('/api/classes')).statusCode).toBe(200);
  });

  it('after a PANIC: reports it once, fails fast with 503, and releases the data directory', async () => {
    const fatal: unknown[] = [];
    const { app, database, dataDir, pgDir } = await embeddedApp({ onFatal: (error) => fatal.push(error) });
    await database.db.execute(sql`create table filler (n int)`);
    renameSync(path.join(pgDir, 'pg_wal'), path.join(pgDir, 'pg_wal.away'));
    // Enough WAL to need a new segment file, which cannot be created: PostgreSQL PANICs.
    await expect(database.db.execute(sql`insert into filler select generate_series(1, 400000)`)).rejects.toThrow();
    expect(fatal).toHaveLength(1);
    expect((fatal[0] as { severity?: string }).severity).toBe('PANIC');

    const started = Date.now();
    const catalogue = await app.inject('/api/classes');
    expect(catalogue.statusCode).toBe(503);
    const ready = await app.inject('/api/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database).not.toBe('ok');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(fatal).toHaveLength(1);

    // Closing does not wait for the broken engine and gives the directory up…
    await database.close();
    expect(existsSync(path.join(dataDir, 'skillhive.lock'))).toBe(false);
    // …so a restarted process opens it, with its committed rows.
    renameSync(path.join(pgDir, 'pg_wal.away'), path.join(pgDir, 'pg_wal'));
    const reopened: Database = await openPglite(dataDir);
    cleanups.push(() => reopened.close());
    const rows = await rawRows<{ n: number }>(reopened.db, sql`select count(*)::int as n from filler`);
    expect(rows[0]!.n).toBe(0);
  }, 60_000);

  it('a WAL failure that makes PGlite spin ends the process: logged, lock released, killed', async () => {
    // Before the fix the process spun at 100% CPU for ever, ignoring SIGTERM and keeping the lock.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-pglite-spin-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const src = (file: string) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));
    const script = path.join(dataDir, 'spin.mjs');
    writeFileSync(
      script,
      `
      import { renameSync } from 'node:fs';
      import { openPglite, lockFileOf } from ${JSON.stringify(src('db/client.ts'))};
      import { startStallWatchdog } from ${JSON.stringify(src('lib/stall-watchdog.ts'))};
      const dir = ${JSON.stringify(path.join(dataDir, 'data'))};
      const database = await openPglite(dir);
      startStallWatchdog({ stallMs: 1500, lockFile: lockFileOf(dir) });
      process.on('SIGTERM', () => console.log('SIGTERM handled'));
      const client = database.db.$client;
      await client.exec('create table t (x int)');
      renameSync(dir + '/pglite/pg_wal', dir + '/pglite/pg_wal.away');
      await client.exec('checkpoint').catch(() => {});
      await client.exec('select pg_switch_wal()');
      console.log('breaking');
      await client.exec('insert into t values (1)');
      console.log('not reached');
      `,
    );
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    cleanups.push(() => void child.kill('SIGKILL'));
    const outcome = await Promise.race([exited, sleep(45_000).then(() => 'still running')]);
    expect(output).toContain('breaking');
    expect(outcome).toBe('SIGKILL');
    expect(output).toMatch(/stopped responding for 1500 ms/);
    expect(existsSync(path.join(dataDir, 'data', 'skillhive.lock'))).toBe(false);
  }, 90_000);
});
