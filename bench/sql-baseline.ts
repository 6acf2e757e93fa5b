import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from '../apps/server/src/db/client.ts';
import pg from 'pg';
import type { Client } from './http.ts';
import { percentile, type ScenarioResult } from './http.ts';

export const CAPTURE_PRELOAD = fileURLToPath(new URL('./capture-sql.ts', import.meta.url));

export interface CapturedQuery {
  text: string;
  values: unknown[];
  rowMode: 'array' | null;
}

/**
 * The SQL one request made: the server runs with capture-sql.ts preloaded, so whatever its
 * driver sent between the two reads of the capture file belongs to this request (health pings
 * aside).
 */
export async function captureRequestSql(
  client: Client,
  captureFile: string,
  pathname: string,
  /** How long to wait after the answer for late records (the server records before it sends). */
  settleMs = 100,
): Promise<CapturedQuery[]> {
  const sizeOf = () => {
    try {
      return statSync(captureFile).size;
    } catch {
      return 0;
    }
  };
  const before = sizeOf();
  const answer = await client.request('GET', pathname);
  if (answer.status !== 200) throw new Error(`GET ${pathname} answered ${answer.status} during SQL capture`);
  await new Promise((r) => setTimeout(r, settleMs));
  const text = sizeOf() > before ? readFileSync(captureFile).subarray(before).toString('utf8') : '';
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CapturedQuery)
    .filter((q) => !/^\s*select 1\s*$/i.test(q.text));
}

export function describeSql(queries: CapturedQuery[]): string[] {
  return queries.map((q) => `${q.text.replace(/\s+/g, ' ').trim()}  -- params ${JSON.stringify(q.values)}`);
}

/** The server's pg pool size (openPostgres' default in apps/server/src/db/client.ts). */
export const SERVER_POOL_SIZE = 10;

/**
 * The database limit: the captured queries of one catalogue page, replayed in a loop through the
 * same driver the server uses — `connections` concurrent callers on a pg Pool of the server's
 * size on PostgreSQL (50 backends on 2 cores would measure contention, not the limit), one PGlite
 * instance queried sequentially (it is single-connection) on the embedded database. One
 * "request" is the whole sequence of queries of the page.
 */
export async function runSqlBaseline(
  target: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string },
  queries: CapturedQuery[],
  opts: { durationS: number; connections: number },
): Promise<ScenarioResult> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError = '';
  const title = 'raw SQL of catalogue page 1 (same driver)';
  const run = async (exec: (q: CapturedQuery) => Promise<unknown>, concurrency: number) => {
    // Warm-up, as for the HTTP scenarios.
    for (let i = 0; i < 50; i++) for (const q of queries) await exec(q);
    const started = performance.now();
    const deadline = started + opts.durationS * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          try {
            for (const q of queries) await exec(q);
            latencies.push(performance.now() - t0);
          } catch (error) {
            errors++;
            firstError ||= (error as Error).message;
          }
        }
      }),
    );
    return (performance.now() - started) / 1000;
  };

  let elapsedS: number;
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: SERVER_POOL_SIZE });
    try {
      elapsedS = await run(
        (q) =>
          pool.query({
            text: q.text,
            values: q.values,
            ...(q.rowMode === 'array' ? { rowMode: 'array' as const } : {}),
          }),
        opts.connections,
      );
    } finally {
      await pool.end();
    }
  } else {
    const db = await PGlite.create(path.join(target.dataDir, 'pglite'), { extensions: PGLITE_EXTENSIONS });
    try {
      elapsedS = await run((q) => db.query(q.text, q.values, q.rowMode === 'array' ? { rowMode: 'array' } : {}), 1);
    } finally {
      await db.close();
    }
  }
  const sorted = latencies.sort((a, b) => a - b);
  return {
    id: 'baseline-sql',
    title,
    request: `${queries.length} quer${queries.length === 1 ? 'y' : 'ies'} per page`,
    rps: Math.round(sorted.length / elapsedS),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
    requests: sorted.length,
    non2xx: 0,
    errors,
    timeouts: 0,
    durationS: Math.round(elapsedS * 100) / 100,
    connections: target.kind === 'postgres' ? opts.connections : 1,
    extra: { poolSize: target.kind === 'postgres' ? SERVER_POOL_SIZE : 1, ...(firstError ? { firstError } : {}) },
  };
}

/** One connection to the bench database, running captured queries as the server's driver sent them. */
async function oneConnection(
  target: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string },
): Promise<{ exec: (q: CapturedQuery) => Promise<unknown>; close: () => Promise<void> }> {
  if (target.kind === 'postgres') {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    return {
      exec: (q) =>
        client.query({
          text: q.text,
          values: q.values,
          ...(q.rowMode === 'array' ? { rowMode: 'array' as const } : {}),
        }),
      close: () => client.end(),
    };
  }
  const db = await PGlite.create(path.join(target.dataDir, 'pglite'), { extensions: PGLITE_EXTENSIONS });
  return {
    exec: (q) => db.query(q.text, q.values, q.rowMode === 'array' ? { rowMode: 'array' } : {}),
    close: () => db.close(),
  };
}

/**
 * Database time of each captured request on its own: its queries run `iterations` times in a row
 * on one connection (after a few unmeasured runs). The growth table shows it beside the HTTP
 * numbers, because the production server caches public catalogue pages and would hide a plan
 * that degrades with size.
 */
export async function timeQueries(
  target: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string },
  sets: Record<string, CapturedQuery[]>,
  iterations = 100,
): Promise<Record<string, { p50: number; p99: number }>> {
  const { exec, close } = await oneConnection(target);
  const out: Record<string, { p50: number; p99: number }> = {};
  try {
    for (const [name, queries] of Object.entries(sets)) {
      const times: number[] = [];
      for (let i = 0; i < iterations + 10; i++) {
        const t0 = performance.now();
        for (const q of queries) await exec(q);
        if (i >= 10) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      out[name] = { p50: percentile(times, 50), p99: percentile(times, 99) };
    }
  } finally {
    await close();
  }
  return out;
}

/**
 * Each set of queries (one request's SQL) run `repeats` times in turn on one connection, after one
 * unmeasured pass over every set: the time of each run, with the set's label. For many different
 * requests (the search scenario), where timeQueries measures one request many times.
 */
export async function sampleQueries<K extends string>(
  target: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string },
  sets: { kind: K; queries: CapturedQuery[] }[],
  repeats: number,
): Promise<{ kind: K; ms: number }[]> {
  const { exec, close } = await oneConnection(target);
  const out: { kind: K; ms: number }[] = [];
  try {
    for (const set of sets) for (const q of set.queries) await exec(q);
    for (let r = 0; r < repeats; r++) {
      for (const set of sets) {
        const t0 = performance.now();
        for (const q of set.queries) await exec(q);
        out.push({ kind: set.kind, ms: performance.now() - t0 });
      }
    }
  } finally {
    await close();
  }
  return out;
}
