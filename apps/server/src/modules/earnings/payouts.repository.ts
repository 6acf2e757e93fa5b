import { and, asc, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { connectedAccounts, payoutBatches, payoutItems, payoutRuns, payouts } from '../../db/schema/earnings.ts';
import { userJoin } from '../users/contact.public.ts';

export type PayoutRow = typeof payouts.$inferSelect;
export type PayoutItemRow = typeof payoutItems.$inferSelect;
export type BatchRow = typeof payoutBatches.$inferSelect;
export type AccountRow = typeof connectedAccounts.$inferSelect;

// ---- Payouts ---------------------------------------------------------------------------------------

export async function insertPayout(tx: Db, values: typeof payouts.$inferInsert): Promise<PayoutRow> {
  const [row] = await tx.insert(payouts).values(values).returning();
  return row!;
}

export async function insertPayoutItems(tx: Db, rows: (typeof payoutItems.$inferInsert)[]): Promise<PayoutItemRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(payoutItems).values(rows).returning();
}

export async function findPayout(db: Db, id: string, options: { lock?: boolean } = {}): Promise<PayoutRow | null> {
  const query = db.select().from(payouts).where(eq(payouts.id, id));
  const [row] = await (options.lock ? query.for('update') : query);
  return row ?? null;
}

export async function hasOpenPayout(tx: Db, teacherId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.teacherId, teacherId), inArray(payouts.status, ['in_flight', 'manual'])))
    .limit(1);
  return Boolean(row);
}

export async function listItemsOfPayout(db: Db, payoutId: string): Promise<PayoutItemRow[]> {
  return db.select().from(payoutItems).where(eq(payoutItems.payoutId, payoutId)).orderBy(asc(payoutItems.paymentId));
}

export async function setItemTransfer(db: Db, itemId: string, transferId: string): Promise<void> {
  await db
    .update(payoutItems)
    .set({ transferId })
    .where(and(eq(payoutItems.id, itemId), isNull(payoutItems.transferId)));
}

export async function findItemByTransfer(db: Db, transferId: string): Promise<PayoutItemRow | null> {
  const [row] = await db.select().from(payoutItems).where(eq(payoutItems.transferId, transferId));
  return row ?? null;
}

export async function setItemReversed(db: Db, itemId: string, reversedCents: number): Promise<void> {
  await db.update(payoutItems).set({ reversedCents }).where(eq(payoutItems.id, itemId));
}

export async function updatePayout(db: Db, id: string, values: Partial<typeof payouts.$inferInsert>) {
  const [row] = await db.update(payouts).set(values).where(eq(payouts.id, id)).returning();
  return row ?? null;
}

/** The payout reconciler's claim (decision 040): in-flight payouts due, FOR UPDATE SKIP LOCKED, then a lease. */
export async function claimDuePayouts(db: Db, options: { now: Date; leaseUntil: Date; limit: number }) {
  const due = db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        eq(payouts.status, 'in_flight'),
        lte(payouts.nextCheckAt, options.now),
        or(isNull(payouts.leaseUntil), lt(payouts.leaseUntil, options.now)),
      ),
    )
    .orderBy(asc(payouts.nextCheckAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db.update(payouts).set({ leaseUntil: options.leaseUntil }).where(inArray(payouts.id, due)).returning();
}

const payoutWithTeacher = {
  payout: payouts,
  name: userJoin.name,
  email: userJoin.email,
};

export async function listPayouts(
  db: Db,
  options: { teacherId?: string; statuses?: PayoutRow['status'][]; limit: number; offset: number },
) {
  const where = and(
    options.teacherId ? eq(payouts.teacherId, options.teacherId) : undefined,
    options.statuses ? inArray(payouts.status, options.statuses) : undefined,
  );
  const rows = await db
    .select(payoutWithTeacher)
    .from(payouts)
    .leftJoin(userJoin.table, eq(userJoin.id, payouts.teacherId))
    .where(where)
    .orderBy(desc(payouts.createdAt), desc(payouts.id))
    .limit(options.limit)
    .offset(options.offset);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payouts)
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findPayoutWithTeacher(db: Db, id: string) {
  const [row] = await db
    .select(payoutWithTeacher)
    .from(payouts)
    .leftJoin(userJoin.table, eq(userJoin.id, payouts.teacherId))
    .where(eq(payouts.id, id));
  return row ?? null;
}

// ---- Manual batches ------------------------------------------------------------------------------

export async function insertBatch(tx: Db, values: typeof payoutBatches.$inferInsert): Promise<BatchRow> {
  const [row] = await tx.insert(payoutBatches).values(values).returning();
  return row!;
}

/** Manual payouts in no batch yet join `batchId`; answers how many. */
export async function batchManualPayouts(tx: Db, batchId: string): Promise<number> {
  const rows = await tx
    .update(payouts)
    .set({ batchId })
    .where(and(eq(payouts.status, 'manual'), isNull(payouts.batchId)))
    .returning({ id: payouts.id });
  return rows.length;
}

export async function findBatch(db: Db, id: string, options: { lock?: boolean } = {}): Promise<BatchRow | null> {
  const query = db.select().from(payoutBatches).where(eq(payoutBatches.id, id));
  const [row] = await (options.lock ? query.for('update') : query);
  return row ?? null;
}

export async function batchTotals(db: Db, batchIds: string[]) {
  if (batchIds.length === 0) return new Map<string, { count: number; totalCents: number }>();
  const rows = await db
    .select({
      batchId: payouts.batchId,
      count: sql<number>`count(*)::int`,
      totalCents: sql<number>`coalesce(sum(${payouts.amountCents}), 0)::int`,
    })
    .from(payouts)
    .where(inArray(payouts.batchId, batchIds))
    .groupBy(payouts.batchId);
  return new Map(rows.map((row) => [row.batchId!, { count: row.count, totalCents: row.totalCents }]));
}

export async function listBatches(db: Db, options: { limit: number; offset: number }) {
  const rows = await db
    .select()
    .from(payoutBatches)
    .orderBy(desc(payoutBatches.createdAt), desc(payoutBatches.id))
    .limit(options.limit)
    .offset(options.offset);
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(payoutBatches);
  return { rows, total: total?.n ?? 0 };
}

export async function listPayoutsOfBatch(db: Db, batchId: string) {
  return db
    .select(payoutWithTeacher)
    .from(payouts)
    .leftJoin(userJoin.table, eq(userJoin.id, payouts.teacherId))
    .where(eq(payouts.batchId, batchId))
    .orderBy(asc(payouts.createdAt), asc(payouts.id));
}

export async function markBatchPaid(tx: Db, batchId: string, paidBy: string, now: Date): Promise<void> {
  await tx.update(payoutBatches).set({ status: 'paid', paidBy, paidAt: now }).where(eq(payoutBatches.id, batchId));
  await tx
    .update(payouts)
    .set({ status: 'paid', paidAt: now, updatedAt: now })
    .where(and(eq(payouts.batchId, batchId), eq(payouts.status, 'manual')));
}

// ---- Runs ------------------------------------------------------------------------------------------

/** Takes the run of `period`: a new one, or one whose lease lapsed unfinished; false when another instance has it. */
export async function claimRun(db: Db, period: string, now: Date, leaseUntil: Date): Promise<boolean> {
  const inserted = await db
    .insert(payoutRuns)
    .values({ period, startedAt: now, leaseUntil })
    .onConflictDoNothing()
    .returning({ period: payoutRuns.period });
  if (inserted.length > 0) return true;
  const taken = await db
    .update(payoutRuns)
    .set({ leaseUntil, startedAt: now })
    .where(and(eq(payoutRuns.period, period), isNull(payoutRuns.finishedAt), lt(payoutRuns.leaseUntil, now)))
    .returning({ period: payoutRuns.period });
  return taken.length > 0;
}

export async function finishRun(db: Db, period: string, now: Date): Promise<void> {
  await db.update(payoutRuns).set({ finishedAt: now }).where(eq(payoutRuns.period, period));
}

// ---- Connected accounts ---------------------------------------------------------------------------

export async function findAccount(db: Db, teacherId: string): Promise<AccountRow | null> {
  const [row] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.teacherId, teacherId));
  return row ?? null;
}

export async function findAccountById(db: Db, accountId: string): Promise<AccountRow | null> {
  const [row] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.accountId, accountId));
  return row ?? null;
}

export async function insertAccount(db: Db, values: typeof connectedAccounts.$inferInsert): Promise<AccountRow> {
  await db.insert(connectedAccounts).values(values).onConflictDoNothing();
  return (await findAccount(db, values.teacherId))!;
}

export async function updateAccount(
  db: Db,
  accountId: string,
  values: { payoutsEnabled: boolean; detailsSubmitted: boolean },
  now: Date,
) {
  await db
    .update(connectedAccounts)
    .set({
      payoutsEnabled: values.payoutsEnabled ? 1 : 0,
      detailsSubmitted: values.detailsSubmitted ? 1 : 0,
      updatedAt: now,
    })
    .where(eq(connectedAccounts.accountId, accountId));
}
