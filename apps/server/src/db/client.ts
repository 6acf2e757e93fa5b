import { fsyncSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { withMigrationLock } from './migration-lock.ts';
import { seedDataDirFromTemplate } from './pglite-template.ts';
import * as schema from './schema/index.ts';

export { schema };

/**
 * The PostgreSQL extensions the migrations create (decision 018). PGlite ships contrib modules as
 * separate bundles: every PGlite that opens a SkillHive database must load them, or a query using
 * them fails.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** One Drizzle type for both drivers; a transaction is assignable to it too. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs every committed migration not yet applied. */
  migrate(): Promise<void>;
  /** Cheap round trip for /api/ready. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Gives up the data-directory lock at once (a process exiting after a fatal database error). */
  releaseLock(): void;
}

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/**
 * PGlite is one process's database: a second process opening the same directory would corrupt
 * it. proper-lockfile keeps the second one out: the lock is a directory created atomically, whose
 * mtime its holder refreshes every second. A lock nobody refreshed for DATA_DIR_LOCK_STALE_MS (its
 * holder was killed) is taken over, so a process starting just after a SIGKILL waits that long
 * at most; one that finds a live holder refuses to start once the wait is over.
 */
export const lockFileOf = (dataDir: string) => path.join(dataDir, 'skillhive.lock');
export const DATA_DIR_LOCK_STALE_MS = 5_000;

async function lockDataDir(dir: string, onLost: (error: Error) => void): Promise<() => void> {
  const options = { realpath: false, lockfilePath: lockFileOf(dir) };
  try {
    await lockfile.lock(dir, {
      ...options,
      stale: DATA_DIR_LOCK_STALE_MS,
      update: 1_000,
      // Long enough for the lock of a process killed just now to go stale.
      retries: { retries: DATA_DIR_LOCK_STALE_MS / 1_000 + 1, factor: 1, minTimeout: 1_000, maxTimeout: 1_000 },
      // Another process took the lock over (this one stalled for longer than the stale time, or
      // the lock directory was removed): this process must not write to the directory any more.
      onCompromised: (error) =>
        onLost(new DataDirLockedError(`Lost the lock on the data directory ${dir}: ${error.message}`)),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new DataDirLockedError(
      `The data directory ${dir} is in use by another SkillHive process. ` +
        'Stop that process, or start this one with a different DATA_DIR or a DATABASE_URL.',
    );
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    try {
      lockfile.unlockSync(dir, options);
    } catch {
      // Already given up (taken over by another process, or released by proper-lockfile at exit).
    }
  };
}

/**
 * The database cannot answer right now (connection lost, timed out, busy, or the embedded engine
 * failed): the error handler answers 503 with Retry-After, never 500.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

export interface PgliteOptions {
  /**
   * Real fsync of the WAL at each commit and of data files at checkpoints (default true; decision
   * 011). PGlite starts with fsync off and its Node file system ignores fsync/fdatasync, so both
   * are turned on here.
   */
  durable?: boolean;
  /** How long a query may wait for the single PGlite connection before failing with 503. */
  waitTimeoutMs?: number;
  /**
   * Called once when PGlite reports a PANIC or its WebAssembly runtime aborts: the engine is
   * unusable until the process restarts (every later query fails, even `select 1` may). Also
   * called, with a DataDirLockedError, when another process took the data-directory lock over.
   */
  onFatal?: (error: unknown) => void;
  /**
   * In-memory only: start from this dump of a cluster (`PGlite.dumpDataDir`) instead of an initdb,
   * which costs seconds; the test suites start every database from a migrated one (decision 006).
   */
  loadDataDir?: Blob;
}

/** A PANIC, a FATAL, or a WebAssembly abort: PGlite cannot recover from these in-process. */
export function isFatalPgliteError(error: unknown): boolean {
  // WebAssembly.RuntimeError (an abort or a trap of the engine).
  if (error instanceof Error && error.name === 'RuntimeError') return true;
  const severity = (error as { severity?: unknown } | null)?.severity;
  if (severity === 'PANIC' || severity === 'FATAL') return true;
  return error instanceof Error && /^Aborted\(/.test(error.message);
}

/**
 * PGlite runs one statement at a time. Callers queue here, not inside PGlite, so that one waiting
 * longer than `waitMs` can leave the queue without its statement ever running (a write that timed
 * out must not happen later behind the caller's back).
 */
function createGate(waitMs: number) {
  let busy = false;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy = false;
  };
  return async function run<T>(work: () => Promise<T>): Promise<T> {
    if (busy) {
      await new Promise<void>((resolve, reject) => {
        const enter = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(enter), 1);
          reject(new DatabaseUnavailableError(`The embedded database stayed busy for ${waitMs} ms`));
        }, waitMs);
        waiting.push(enter);
      });
    } else {
      busy = true;
    }
    try {
      return await work();
    } finally {
      release();
    }
  };
}

/** Turns on real fsync in PGlite's Node file system (Emscripten's NODEFS has none). */
function enableFsync(client: PGlite) {
  const nodefs = (client.Module as unknown as { NODEFS?: { stream_ops: Record<string, unknown> } }).NODEFS;
  if (!nodefs) return;
  nodefs.stream_ops.fsync = (stream: { nfd?: number }) => {
    if (stream.nfd !== undefined) fsyncSync(stream.nfd);
    return 0;
  };
}

/** Embedded PostgreSQL (PGlite) persisted in `dir`, or in memory when dir is undefined. */
export async function openPglite(dir?: string, options: PgliteOptions = {}): Promise<Database> {
  const durable = Boolean(dir) && (options.durable ?? true);
  let fatal: unknown = null;
  const markFatal = (error: unknown) => {
    if (fatal) return;
    fatal = error;
    options.onFatal?.(error);
  };
  let unlock = () => {};
  let client: PGlite;
  if (dir) {
    const pgDir = path.join(dir, 'pglite');
    mkdirSync(pgDir, { recursive: true });
    unlock = await lockDataDir(dir, markFatal);
    try {
      // A new directory starts as a copy of the cluster `npm install` made, skipping initdb.
      seedDataDirFromTemplate(pgDir, undefined, { fsync: durable });
      client = await PGlite.create(
        pgDir,
        durable
          ? {
              extensions: PGLITE_EXTENSIONS,
              // Without -F PostgreSQL fsyncs; wal_sync_method=fsync because PGlite's fdatasync is a no-op.
              startParams: [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'wal_sync_method=fsync'],
            }
          : { extensions: PGLITE_EXTENSIONS },
      );
      if (durable) enableFsync(client);
      // Emscripten's file system checks permissions against the mode each file had when it first
      // looked it up, and keeps it: a file first touched while DATA_DIR was read-only stayed
      // "Permission denied" forever after the directory was writable again (decision 011).
      // The operating system checks the real permissions on every open anyway.
      client.Module.FS.ignorePermissions = true;
    } catch (error) {
      unlock();
      throw error;
    }
  } else {
    client = await PGlite.create({
      extensions: PGLITE_EXTENSIONS,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  }

  let closed = false;
  const gate = createGate(options.waitTimeoutMs ?? 10_000);
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    if (fatal) throw new DatabaseUnavailableError('The embedded database failed; the server must restart');
    try {
      return await gate(work);
    } catch (error) {
      if (isFatalPgliteError(error)) markFatal(error);
      throw error;
    }
  };
  // Drizzle calls only query() and transaction() on the client; both go through the gate. PGlite
  // keeps its state in private fields, so every other member is read from the real instance.
  const gated = new Proxy(client, {
    get(target, property) {
      if (property === 'query' || property === 'transaction' || property === 'exec') {
        const method = Reflect.get(target, property, target) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => guarded(() => method.apply(target, args));
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const db = drizzlePglite({ client: gated, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite({ client: gated, schema }), { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => {
      await gated.query('select 1');
    },
    close: async () => {
      if (closed) return;
      closed = true;
      // After a PANIC the engine may never answer: release the lock without waiting for it.
      if (!fatal) await client.close();
      unlock();
    },
    releaseLock: unlock,
  };
}

export interface PostgresOptions {
  poolSize?: number;
  /** Connecting, and waiting for a free pooled connection (pg's connectionTimeoutMillis). */
  connectTimeoutMs?: number;
  /** Server-side statement_timeout. */
  statementTimeoutMs?: number;
  /** Client-side bound on one query, for a server that stops answering (frozen, network lost). */
  queryTimeoutMs?: number;
}

/** A PostgreSQL server through a pg pool. */
export async function openPostgres(
  connectionString: string,
  poolSizeOrOptions: number | PostgresOptions = 10,
): Promise<Database> {
  const options = typeof poolSizeOrOptions === 'number' ? { poolSize: poolSizeOrOptions } : poolSizeOrOptions;
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    statement_timeout: options.statementTimeoutMs ?? 10_000,
    // No JIT compilation (decision 053): it suits long analytic queries, and compiling a short
    // query whose plan is estimated dear (a schedule filter's correlated look-ups) took 0.4–0.7 s
    // of a 7 ms page on PostgreSQL 16's defaults.
    options: '-c jit=off',
    query_timeout: options.queryTimeoutMs ?? 15_000,
    // TCP keep-alive notices a peer that vanished without closing the connection.
    keepAlive: true,
  });
  // A connection can drop while a client is checked out (between the statements of a transaction,
  // pg_terminate_backend, a server restart). Without a listener on the client itself, its 'error'
  // event would crash the process; the statement in progress fails on its own, and the pool
  // discards the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries surface their own errors.
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: 'postgres',
    // Instances starting together migrate one after another (migration-lock.ts). On a connection
    // of their own: the pool's timeouts bound requests, and a migration that moves data (0016
    // touches every session and enrollment) may run longer than any request should.
    migrate: () =>
      withMigrationLock(connectionString, async () => {
        const client = new pg.Client({ connectionString, connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000 });
        client.on('error', () => {});
        await client.connect();
        try {
          await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await client.end();
        }
      }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
    releaseLock: () => {},
  };
}

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir?: string;
  postgres?: PostgresOptions;
  pglite?: PgliteOptions;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.postgres ?? {})
    : openPglite(options.dataDir, options.pglite ?? {});
}
