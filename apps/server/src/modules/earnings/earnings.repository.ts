import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  connectedAccounts,
  disputes,
  earningLines,
  earningTranches,
  ledgerEntries,
  payoutBatches,
  payoutItems,
  payoutRuns,
  payouts,
  teacherBalances,
  teacherFeeRates,
} from '../../db/schema/earnings.ts';
import { userJoin } from '../users/contact.public.ts';

export type LineRow = typeof earningLines.$inferSelect;
export type TrancheRow = typeof earningTranches.$inferSelect;
export type BalanceRow = typeof teacherBalances.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;
export type PayoutItemRow = typeof payoutItems.$inferSelect;
export type BatchRow = typeof payoutBatches.$inferSelect;
export type AccountRow = typeof connectedAccounts.$inferSelect;
export type DisputeRow = typeof disputes.$inferSelect;
export type LedgerKind = (typeof ledgerEntries.$inferInsert)['kind'];

/** One movement between a teacher's buckets (decision 039); `share` and `clawback` say what crosses the ledger's edge. */
export interface Movement {
  teacherId: string;
  kind: LedgerKind;
  lineId?: string | null;
  payoutId?: string | null;
  disputeId?: string | null;
  pendingCents?: number;
  availableCents?: number;
  frozenCents?: number;
  paidCents?: number;
}

// ---- Fee rates -------------------------------------------------------------------------------

export async function findFeeRates(db: Db, teacherIds: string[]): Promise<Map<string, number>> {
  if (teacherIds.length === 0) return new Map();
  const rows = await db.select().from(teacherFeeRates).where(inArray(teacherFeeRates.teacherId, teacherIds));
  return new Map(rows.map((row) => [row.teacherId, row.basisPoints]));
}

export async function setFeeRate(db: Db, teacherId: string, basisPoints: number | null, setBy: string, now: Date) {
  if (basisPoints === null) {
    await db.delete(teacherFeeRates).where(eq(teacherFeeRates.teacherId, teacherId));
    return;
  }
  await db
    .insert(teacherFeeRates)
    .values({ teacherId, basisPoints, setBy, updatedAt: now })
    .onConflictDoUpdate({ target: teacherFeeRates.teacherId, set: { basisPoints, setBy, updatedAt: now } });
}

// ---- The journal and the balances ---------------------------------------------------------------

/**
 * Writes movements and adds them to the running balances, in the caller's transaction. Teachers
 * are updated in id order, so two transactions touching the same teachers never deadlock.
 */
export async function applyMovements(tx: Db, movements: Movement[], now: Date): Promise<void> {
  if (movements.length === 0) return;
  await tx.insert(ledgerEntries).values(
    movements.map((m) => ({
      teacherId: m.teacherId,
      kind: m.kind,
      lineId: m.lineId ?? null,
      payoutId: m.payoutId ?? null,
      disputeId: m.disputeId ?? null,
      pendingCents: m.pendingCents ?? 0,
      availableCents: m.availableCents ?? 0,
      frozenCents: m.frozenCents ?? 0,
      paidCents: m.paidCents ?? 0,
      createdAt: now,
    })),
  );
  const sums = new Map<string, { p: number; a: number; f: number; d: number; s: number; c: number }>();
  for (const m of movements) {
    const sum = sums.get(m.teacherId) ?? { p: 0, a: 0, f: 0, d: 0, s: 0, c: 0 };
    sum.p += m.pendingCents ?? 0;
    sum.a += m.availableCents ?? 0;
    sum.f += m.frozenCents ?? 0;
    sum.d += m.paidCents ?? 0;
    const net = (m.pendingCents ?? 0) + (m.availableCents ?? 0) + (m.frozenCents ?? 0) + (m.paidCents ?? 0);
    if (net > 0) sum.s += net;
    if (net < 0) sum.c -= net;
    sums.set(m.teacherId, sum);
  }
  for (const teacherId of [...sums.keys()].sort()) {
    const s = sums.get(teacherId)!;
    await tx
      .insert(teacherBalances)
      .values({
        teacherId,
        pendingCents: s.p,
        availableCents: s.a,
        frozenCents: s.f,
        paidCents: s.d,
        sharesCents: s.s,
        clawbacksCents: s.c,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: teacherBalances.teacherId,
        set: {
          pendingCents: sql`${teacherBalances.pendingCents} + ${s.p}`,
          availableCents: sql`${teacherBalances.availableCents} + ${s.a}`,
          frozenCents: sql`${teacherBalances.frozenCents} + ${s.f}`,
          paidCents: sql`${teacherBalances.paidCents} + ${s.d}`,
          sharesCents: sql`${teacherBalances.sharesCents} + ${s.s}`,
          clawbacksCents: sql`${teacherBalances.clawbacksCents} + ${s.c}`,
          updatedAt: now,
        },
      });
  }
}

export async function findBalance(db: Db, teacherId: string): Promise<BalanceRow | null> {
  const [row] = await db.select().from(teacherBalances).where(eq(teacherBalances.teacherId, teacherId));
  return row ?? null;
}

/** The teacher's balance row, locked (the teacher's money lock); null when they never earned. */
export async function lockBalance(tx: Db, teacherId: string, options: { skipLocked: boolean }) {
  const [row] = await tx
    .select()
    .from(teacherBalances)
    .where(eq(teacherBalances.teacherId, teacherId))
    .for('update', options.skipLocked ? { skipLocked: true } : {});
  return row ?? null;
}

/** Teachers with something available, after `after` in id order (a payout run walks them in pages). */
export async function listTeachersWithAvailable(db: Db, options: { after: string | null; limit: number }) {
  return db
    .select({ teacherId: teacherBalances.teacherId, availableCents: teacherBalances.availableCents })
    .from(teacherBalances)
    .where(
      and(
        sql`${teacherBalances.availableCents} > 0`,
        options.after === null ? undefined : sql`${teacherBalances.teacherId} > ${options.after}`,
      ),
    )
    .orderBy(asc(teacherBalances.teacherId))
    .limit(options.limit);
}

export async function listUpcoming(db: Db, limit: number) {
  return db
    .select({
      teacherId: teacherBalances.teacherId,
      availableCents: teacherBalances.availableCents,
      currency: teacherBalances.currency,
      name: userJoin.name,
      email: userJoin.email,
      accountEnabled: connectedAccounts.payoutsEnabled,
      accountId: connectedAccounts.accountId,
    })
    .from(teacherBalances)
    .leftJoin(userJoin.table, eq(userJoin.id, teacherBalances.teacherId))
    .leftJoin(connectedAccounts, eq(connectedAccounts.teacherId, teacherBalances.teacherId))
    .where(sql`${teacherBalances.availableCents} > 0`)
    .orderBy(desc(teacherBalances.availableCents), asc(teacherBalances.teacherId))
    .limit(limit);
}

/** Σ of a teacher's journal, per bucket: the reconciliation tests check the running balances against it. */
export async function sumLedger(db: Db, teacherId: string) {
  const [row] = await db
    .select({
      pending: sql<number>`coalesce(sum(${ledgerEntries.pendingCents}), 0)::int`,
      available: sql<number>`coalesce(sum(${ledgerEntries.availableCents}), 0)::int`,
      frozen: sql<number>`coalesce(sum(${ledgerEntries.frozenCents}), 0)::int`,
      paid: sql<number>`coalesce(sum(${ledgerEntries.paidCents}), 0)::int`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.teacherId, teacherId));
  return row!;
}

// ---- Lines and tranches ------------------------------------------------------------------------

export async function insertLines(tx: Db, rows: (typeof earningLines.$inferInsert)[]): Promise<LineRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(earningLines).values(rows).onConflictDoNothing({ target: earningLines.enrollmentId }).returning();
}

export async function insertTranches(tx: Db, rows: (typeof earningTranches.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(earningTranches).values(rows);
}

/** Lines of these enrollments still live (not refunded), locked for a claw-back or a freeze. */
export async function lockLinesOfEnrollments(tx: Db, enrollmentIds: string[]): Promise<LineRow[]> {
  if (enrollmentIds.length === 0) return [];
  return tx
    .select()
    .from(earningLines)
    .where(and(inArray(earningLines.enrollmentId, enrollmentIds), isNull(earningLines.refundedAt)))
    .orderBy(asc(earningLines.id))
    .for('update');
}

export async function listLinesOfPaymentTx(db: Db, transactionId: string): Promise<LineRow[]> {
  return db.select().from(earningLines).where(eq(earningLines.transactionId, transactionId));
}

export async function listTranchesOfLines(db: Db, lineIds: string[]): Promise<TrancheRow[]> {
  if (lineIds.length === 0) return [];
  return db.select().from(earningTranches).where(inArray(earningTranches.lineId, lineIds));
}

export async function updateLine(db: Db, id: string, values: Partial<typeof earningLines.$inferInsert>) {
  await db.update(earningLines).set(values).where(eq(earningLines.id, id));
}

/** Cancels what is left of a line's share: its held parts and its released parts not yet in a payout. */
export async function cancelOpenTranches(tx: Db, lineId: string): Promise<void> {
  await tx
    .update(earningTranches)
    .set({ state: 'cancelled' })
    .where(
      and(
        eq(earningTranches.lineId, lineId),
        or(
          eq(earningTranches.state, 'pending'),
          and(eq(earningTranches.state, 'released'), isNull(earningTranches.payoutId)),
        ),
      ),
    );
}

/**
 * Claims due held parts of lines not frozen nor refunded (FOR UPDATE SKIP LOCKED): another instance
 * releasing at the same time takes other rows.
 */
export async function claimDueTranches(tx: Db, now: Date, limit: number) {
  return tx
    .select({
      id: earningTranches.id,
      lineId: earningTranches.lineId,
      teacherId: earningTranches.teacherId,
      amountCents: earningTranches.amountCents,
    })
    .from(earningTranches)
    .innerJoin(earningLines, eq(earningLines.id, earningTranches.lineId))
    .where(
      and(
        eq(earningTranches.state, 'pending'),
        lte(earningTranches.dueAt, now),
        isNull(earningLines.frozenBy),
        isNull(earningLines.refundedAt),
      ),
    )
    .orderBy(asc(earningTranches.dueAt))
    .limit(limit)
    .for('update', { of: earningTranches, skipLocked: true });
}

export async function markReleased(tx: Db, ids: string[], now: Date): Promise<void> {
  if (ids.length > 0) {
    await tx
      .update(earningTranches)
      .set({ state: 'released', releasedAt: now })
      .where(and(inArray(earningTranches.id, ids), eq(earningTranches.state, 'pending')));
  }
}

/** A teacher's released parts no payout took yet, with the payment they came from. */
export async function listUnpaidReleased(tx: Db, teacherId: string) {
  return tx
    .select({
      id: earningTranches.id,
      amountCents: earningTranches.amountCents,
      paymentId: earningLines.paymentId,
      transactionId: earningLines.transactionId,
      releasedAt: earningTranches.releasedAt,
    })
    .from(earningTranches)
    .innerJoin(earningLines, eq(earningLines.id, earningTranches.lineId))
    .where(
      and(
        eq(earningTranches.teacherId, teacherId),
        eq(earningTranches.state, 'released'),
        isNull(earningTranches.payoutId),
        isNull(earningLines.frozenBy),
      ),
    )
    .orderBy(asc(earningTranches.releasedAt), asc(earningTranches.id));
}

export async function assignTranches(tx: Db, ids: string[], payoutId: string): Promise<void> {
  if (ids.length > 0) await tx.update(earningTranches).set({ payoutId }).where(inArray(earningTranches.id, ids));
}

export async function unassignTranches(tx: Db, payoutId: string): Promise<void> {
  await tx.update(earningTranches).set({ payoutId: null }).where(eq(earningTranches.payoutId, payoutId));
}

/** A teacher's lines, newest first, with their parts summed. */
export async function listLinesOfTeacher(
  db: Db,
  teacherId: string,
  options: { limit: number; offset: number; from: Date | null; to: Date | null },
) {
  const where = and(
    eq(earningLines.teacherId, teacherId),
    options.from ? gte(earningLines.paidAt, options.from) : undefined,
    options.to ? lt(earningLines.paidAt, options.to) : undefined,
  );
  const rows = await db
    .select()
    .from(earningLines)
    .where(where)
    .orderBy(desc(earningLines.paidAt), desc(earningLines.id))
    .limit(options.limit)
    .offset(options.offset);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(earningLines)
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Platform fee revenue per month (UTC) of payment, since `from`. */
export async function feeRevenueByMonth(db: Db, from: Date) {
  const month = sql<string>`to_char(${earningLines.paidAt} at time zone 'UTC', 'YYYY-MM')`;
  return db
    .select({
      month,
      grossCents: sql<number>`coalesce(sum(${earningLines.grossCents}), 0)::int`,
      feeCents: sql<number>`coalesce(sum(${earningLines.feeCents}), 0)::int`,
      sharesCents: sql<number>`coalesce(sum(${earningLines.shareCents}), 0)::int`,
      clawbacksCents: sql<number>`coalesce(sum(${earningLines.clawbackCents}), 0)::int`,
      lines: sql<number>`count(*)::int`,
    })
    .from(earningLines)
    .where(gte(earningLines.paidAt, from))
    .groupBy(month)
    .orderBy(month);
}

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

// ---- Disputes --------------------------------------------------------------------------------------

export async function insertDispute(tx: Db, values: typeof disputes.$inferInsert): Promise<DisputeRow | null> {
  const [row] = await tx
    .insert(disputes)
    .values(values)
    .onConflictDoNothing({ target: disputes.gatewayDisputeId })
    .returning();
  return row ?? null;
}

export async function findDisputeByGatewayId(
  db: Db,
  gatewayDisputeId: string,
  options: { lock?: boolean } = {},
): Promise<DisputeRow | null> {
  const query = db.select().from(disputes).where(eq(disputes.gatewayDisputeId, gatewayDisputeId));
  const [row] = await (options.lock ? query.for('update') : query);
  return row ?? null;
}

export async function findDispute(db: Db, id: string): Promise<DisputeRow | null> {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id));
  return row ?? null;
}

export async function updateDispute(db: Db, id: string, values: Partial<typeof disputes.$inferInsert>) {
  await db.update(disputes).set(values).where(eq(disputes.id, id));
}

export async function listDisputes(db: Db, options: { status?: DisputeRow['status']; limit: number; offset: number }) {
  const where = options.status ? eq(disputes.status, options.status) : undefined;
  const rows = await db
    .select()
    .from(disputes)
    .where(where)
    .orderBy(desc(disputes.createdAt), desc(disputes.id))
    .limit(options.limit)
    .offset(options.offset);
  const [total] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(disputes)
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function listDisputeLines(db: Db, enrollmentIds: string[]) {
  if (enrollmentIds.length === 0) return [];
  return db
    .select({
      enrollmentId: earningLines.enrollmentId,
      title: earningLines.title,
      teacherName: userJoin.name,
      grossCents: earningLines.grossCents,
      shareCents: earningLines.shareCents,
    })
    .from(earningLines)
    .leftJoin(userJoin.table, eq(userJoin.id, earningLines.teacherId))
    .where(inArray(earningLines.enrollmentId, enrollmentIds));
}
