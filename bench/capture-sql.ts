import { appendFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * Preloaded (node --import) into the server of the first growth step only: records the SQL text
 * and parameters the server sends through its driver, one JSON line per query, in the file named
 * by BENCH_CAPTURE_SQL. The bench replays what one catalogue request sent, through the same
 * driver, as the database baseline. Recording stops after MAX_QUERIES (start-up, the three
 * captured requests, and part of the warm-up that follows), so measurements are not disturbed.
 */
const file = process.env.BENCH_CAPTURE_SQL;
/** BENCH_CAPTURE_MAX raises the cap for the search scenario, which captures many requests on purpose. */
const MAX_QUERIES = Number(process.env.BENCH_CAPTURE_MAX ?? 200);
let recorded = 0;

function record(text: unknown, values: unknown, rowMode: unknown): void {
  if (!file || recorded >= MAX_QUERIES || typeof text !== 'string') return;
  recorded++;
  appendFileSync(
    file,
    `${JSON.stringify({ text, values: Array.isArray(values) ? values : [], rowMode: rowMode ?? null })}\n`,
  );
}

type QueryConfig = { text?: unknown; values?: unknown; rowMode?: unknown };

if (file) {
  const pgQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function patchedQuery(this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') record(first, second, null);
    else if (first && typeof first === 'object') {
      const config = first as QueryConfig;
      record(config.text, Array.isArray(second) ? second : config.values, config.rowMode);
    }
    return pgQuery.apply(this, args);
  } as typeof pg.Client.prototype.query;

  const pgliteQuery = PGlite.prototype.query;
  PGlite.prototype.query = function patchedQuery(this: PGlite, ...args: Parameters<PGlite['query']>) {
    const [text, params, options] = args;
    record(text, params, options?.rowMode);
    return pgliteQuery.apply(this, args);
  } as typeof PGlite.prototype.query;
}
