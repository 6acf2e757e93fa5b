import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  connectedAccounts,
  earningLines,
  earningTranches,
  ledgerEntries,
  teacherBalances,
  teacherFeeRates,
} from '../../db/schema/earnings.ts';
import { userJoin } from '../users/contact.public.ts';

export type LineRow = typeof earningLines.$inferSelect;
export type TrancheRow = typeof earningTranches.$inferSelect;
export type BalanceRow = typeof teacherBalances.$inferSelect;
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

/** A held part of a sale's line, named by the line's enrollment (the line's id is the database's). */
export interface SaleTranche {
  enrollmentId: string;
  amountCents: number;
  dueAt: Date;
  sessionId: string | null;
}

/**
 * A payment's ledger in one statement (decision 039): its lines (a line already recorded for an
 * enrollment is skipped, with its parts and movement), their held parts, one `share` movement per
 * line into pending, and the running balance of each teacher, upserted in teacher id order (the
 * order every writer of balances takes, so none deadlock).
 */
export async function insertSale(
  tx: Db,
  sale: { lines: (typeof earningLines.$inferInsert & { paidAt: Date })[]; tranches: SaleTranche[] },
): Promise<void> {
  const [first] = sale.lines;
  if (!first) return;
  const at = first.paidAt;
  const lineRows = sale.lines.map(
    (l) =>
      sql`(${l.enrollmentId}::uuid, ${l.paymentId}::uuid, ${l.transactionId}, ${l.teacherId}, ${l.classId}::uuid, ${l.title}, ${l.studentInitials}, ${l.currency}, ${l.listCents}::int, ${l.discountCents}::int, ${l.couponSource ?? null}, ${l.grossCents}::int, ${l.feeCents}::int, ${l.shareCents}::int, ${l.feeBasisPoints}::int, ${l.paidAt.toISOString()}::timestamptz)`,
  );
  const trancheRows = sale.tranches.map(
    (t) =>
      sql`(${t.enrollmentId}::uuid, ${t.amountCents}::int, ${t.dueAt.toISOString()}::timestamptz, ${t.sessionId}::uuid)`,
  );
  await tx.execute(sql`
    with line as (
      insert into ${earningLines} (enrollment_id, payment_id, transaction_id, teacher_id, class_id, title,
        student_initials, currency, list_cents, discount_cents, coupon_source, gross_cents, fee_cents,
        share_cents, fee_basis_points, paid_at)
      values ${sql.join(lineRows, sql`, `)}
      on conflict (enrollment_id) do nothing
      returning id, enrollment_id, teacher_id, share_cents
    ), part as (
      insert into ${earningTranches} (line_id, teacher_id, amount_cents, due_at, session_id)
      select line.id, line.teacher_id, v.amount_cents, v.due_at, v.session_id
      from (values ${sql.join(trancheRows, sql`, `)}) as v (enrollment_id, amount_cents, due_at, session_id)
      join line on line.enrollment_id = v.enrollment_id
    ), entry as (
      insert into ${ledgerEntries} (teacher_id, kind, line_id, pending_cents, created_at)
      select teacher_id, 'share', id, share_cents, ${at.toISOString()}::timestamptz from line
    )
    insert into ${teacherBalances} (teacher_id, pending_cents, shares_cents, updated_at)
    select teacher_id, sum(share_cents), sum(share_cents), ${at.toISOString()}::timestamptz
    from line group by teacher_id order by teacher_id
    on conflict (teacher_id) do update set
      pending_cents = ${teacherBalances}.pending_cents + excluded.pending_cents,
      shares_cents = ${teacherBalances}.shares_cents + excluded.shares_cents,
      updated_at = excluded.updated_at
  `);
}

/** Which of these enrollments have a line in the ledger already (decision 039 §10). */
export async function listRecordedEnrollmentIds(db: Db, enrollmentIds: string[]): Promise<Set<string>> {
  if (enrollmentIds.length === 0) return new Set();
  const rows = await db
    .select({ enrollmentId: earningLines.enrollmentId })
    .from(earningLines)
    .where(inArray(earningLines.enrollmentId, enrollmentIds));
  return new Set(rows.map((r) => r.enrollmentId));
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
