/**
 * One pass over rows that instances share by claiming them in batches (`FOR UPDATE SKIP LOCKED`
 * and a lease, decision 010): claims until a batch comes back short or brings no row this pass has
 * not handled yet (a row deferred to now is claimed again), and hands each row to `handle` once.
 */
export async function forEachClaimed<Row extends { id: string }>(
  claim: (limit: number) => Promise<Row[]>,
  handle: (row: Row) => Promise<void>,
  batchSize: number,
): Promise<void> {
  const seen = new Set<string>();
  for (;;) {
    const rows = await claim(batchSize);
    const fresh = rows.filter((row) => !seen.has(row.id));
    if (fresh.length === 0) return;
    for (const row of fresh) {
      seen.add(row.id);
      await handle(row);
    }
    if (rows.length < batchSize) return;
  }
}
