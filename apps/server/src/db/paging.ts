import { count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * A page of a list with the count of every row of `table` that `where` matches, the two queries
 * run side by side: the `{ rows, total }` each paged repository answers (the route sends the
 * total as X-Total-Count, lib/paging.ts). `where` must be the page query's own filter.
 */
export async function withTotal<T>(
  page: PromiseLike<T[]>,
  { db, table, where }: { db: Db; table: PgTable; where?: SQL | undefined },
): Promise<{ rows: T[]; total: number }> {
  const [rows, totals] = await Promise.all([page, db.select({ n: count() }).from(table).where(where)]);
  return { rows, total: totals[0]?.n ?? 0 };
}
