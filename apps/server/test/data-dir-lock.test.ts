import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DATA_DIR_LOCK_STALE_MS,
  DatabaseUnavailableError,
  DataDirLockedError,
  lockFileOf,
  openPglite,
  type Database,
} from '../src/db/client.ts';
import { sleep, waitFor } from './fault-helpers.ts';

/**
 * The embedded data directory is one process's (db/client.ts, proper-lockfile): a live holder
 * keeps everyone else out, the lock of a killed one is taken over once stale, and a process whose
 * lock was taken over stops using the directory. Runs on PGlite only: it is about the embedded mode.
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skillhive-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function open(dir: string, onFatal?: (error: unknown) => void): Promise<Database> {
  const database = await openPglite(dir, { durable: false, ...(onFatal ? { onFatal } : {}) });
  cleanups.push(() => database.close());
  return database;
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the data-directory lock', () => {
  it('keeps a second opener out while the holder lives, then lets it in once released', async () => {
    const dir = tempDataDir();
    const first = await open(dir);
    const started = Date.now();
    const second = openPglite(dir, { durable: false });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(/data directory .* is in use by another SkillHive process/);
    // It waited out the stale time first: a holder that had just been killed would have been replaced.
    expect(Date.now() - started).toBeGreaterThanOrEqual(DATA_DIR_LOCK_STALE_MS);
    await first.ping();

    await first.close();
    expect(existsSync(lockFileOf(dir))).toBe(false);
    const reopened = await open(dir);
    await reopened.ping();
  }, 30_000);

  it('takes over the lock of a process killed with SIGKILL', async () => {
    const dir = tempDataDir();
    const script = path.join(dir, 'holder.mjs');
    const client = fileURLToPath(new URL('../src/db/client.ts', import.meta.url));
    writeFileSync(
      script,
      `import { openPglite } from ${JSON.stringify(client)};
      await openPglite(${JSON.stringify(path.join(dir, 'data'))}, { durable: false });
      console.log('holding');
      setInterval(() => {}, 1_000);`,
    );
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(() => child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    await waitFor(async () => output.includes('holding'), 20_000, `the holder to start (${output})`);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(lockFileOf(path.join(dir, 'data')))).toBe(true);

    const database = await open(path.join(dir, 'data'));
    await database.ping();
  }, 40_000);

  it('takes over at once a lock nobody refreshed for long (a machine that lost power)', async () => {
    const dir = tempDataDir();
    const lock = lockFileOf(dir);
    mkdirSync(lock);
    const past = new Date(Date.now() - 10 * DATA_DIR_LOCK_STALE_MS);
    utimesSync(lock, past, past);
    const started = Date.now();
    const database = await open(dir);
    await database.ping();
    expect(Date.now() - started).toBeLessThan(DATA_DIR_LOCK_STALE_MS);
  }, 30_000);

  it('stops using the directory when its lock is taken away: fatal once, every query 503', async () => {
    const dir = tempDataDir();
    const fatal: unknown[] = [];
    const database = await open(dir, (error) => fatal.push(error));
    await database.db.execute(sql`select 1`);
    rmSync(lockFileOf(dir), { recursive: true });
    await waitFor(async () => fatal.length > 0, 10_000, 'the lost lock to be noticed');
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toBeInstanceOf(DataDirLockedError);
    expect(String((fatal[0] as Error).message)).toMatch(/Lost the lock on the data directory/);
    await expect(database.ping()).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await sleep(1_500);
    expect(fatal).toHaveLength(1);
  }, 30_000);
});
