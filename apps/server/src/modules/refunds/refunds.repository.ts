import { and, asc, desc, eq, inArray, isNull, lt, lte, ne, or } from 'drizzle-orm';
import type { RefundRequestStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import { refundRequests, refunds } from '../../db/schema/refunds.ts';

export type RefundRow = typeof refunds.$inferSelect;
export type RefundRequestRow = typeof refundRequests.$inferSelect;

/** Refunds of some payments that are not failed (pending or done), oldest first. */
export async function listRefundsOfPayments(db: Db, paymentIds: string[]): Promise<RefundRow[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select()
    .from(refunds)
    .where(and(inArray(refunds.paymentId, paymentIds), ne(refunds.status, 'failed')))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
}

/**
 * A pending refund per line; a line that already has a pending or succeeded refund is skipped
 * (refunds_enrollment_idx), so two concurrent refunds of one line record one. Answers the rows made.
 */
export async function insertPendingRefunds(db: Db, values: (typeof refunds.$inferInsert)[]): Promise<RefundRow[]> {
  if (values.length === 0) return [];
  return db.insert(refunds).values(values).onConflictDoNothing().returning();
}

export async function findRefund(db: Db, id: string): Promise<RefundRow | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id));
  return row ?? null;
}

export async function findRefundForUpdate(db: Db, id: string): Promise<RefundRow | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id)).for('update');
  return row ?? null;
}

export async function findRefundByGatewayId(db: Db, gatewayRefundId: string): Promise<RefundRow | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.gatewayRefundId, gatewayRefundId));
  return row ?? null;
}

/** pending → succeeded or failed, once; false when another call settled it first. */
export async function settleRefund(
  db: Db,
  id: string,
  values: { status: 'succeeded' | 'failed'; gatewayRefundId: string; completedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(refunds)
    .set({ ...values, leaseUntil: null })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'pending')))
    .returning({ id: refunds.id });
  return rows.length > 0;
}

/**
 * The reconciler's claim (decision 031): up to `limit` pending refunds due (`next_check_at`
 * passed) and not claimed by another instance, FOR UPDATE SKIP LOCKED then leased until
 * `leaseUntil`, in one statement, so no transaction is held while the gateway is asked.
 */
export async function claimDueRefunds(
  db: Db,
  options: { now: Date; leaseUntil: Date; limit: number },
): Promise<RefundRow[]> {
  const due = db
    .select({ id: refunds.id })
    .from(refunds)
    .where(
      and(
        eq(refunds.status, 'pending'),
        lte(refunds.nextCheckAt, options.now),
        or(isNull(refunds.leaseUntil), lt(refunds.leaseUntil, options.now)),
      ),
    )
    .orderBy(asc(refunds.nextCheckAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db.update(refunds).set({ leaseUntil: options.leaseUntil }).where(inArray(refunds.id, due)).returning();
}

/** Pending refunds, oldest first (the longest in progress at the top), with their count. */
export async function listPendingRefunds(
  db: Db,
  options: { limit: number; offset: number },
): Promise<{ rows: RefundRow[]; total: number }> {
  const where = eq(refunds.status, 'pending');
  return withTotal(
    db
      .select()
      .from(refunds)
      .where(where)
      .orderBy(asc(refunds.createdAt), asc(refunds.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: refunds, where },
  );
}

/** After an attempt that did not settle it: look again at `nextCheckAt`, and free the claim. */
export async function deferRefund(db: Db, id: string, nextCheckAt: Date): Promise<void> {
  await db.update(refunds).set({ nextCheckAt, leaseUntil: null }).where(eq(refunds.id, id));
}

/** A refund made at the gateway (Stripe's dashboard); null when its gateway id is recorded already. */
export async function insertGatewayRefund(db: Db, values: typeof refunds.$inferInsert): Promise<RefundRow | null> {
  const [row] = await db.insert(refunds).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

// ---- Refund requests ----------------------------------------------------------------------------

/** Null when the line has a request already (one per line). */
export async function insertRefundRequest(
  db: Db,
  values: typeof refundRequests.$inferInsert,
): Promise<RefundRequestRow | null> {
  const [row] = await db
    .insert(refundRequests)
    .values(values)
    .onConflictDoNothing({ target: refundRequests.enrollmentId })
    .returning();
  return row ?? null;
}

export async function findRefundRequest(db: Db, id: string): Promise<RefundRequestRow | null> {
  const [row] = await db.select().from(refundRequests).where(eq(refundRequests.id, id));
  return row ?? null;
}

/** pending → approved or declined, once; null when it was decided already. */
export async function decideRefundRequest(
  db: Db,
  id: string,
  values: {
    status: Exclude<RefundRequestStatus, 'pending'>;
    decidedBy: string;
    decisionReason: string | null;
    decidedAt: Date;
  },
): Promise<RefundRequestRow | null> {
  const [row] = await db
    .update(refundRequests)
    .set(values)
    .where(and(eq(refundRequests.id, id), eq(refundRequests.status, 'pending')))
    .returning();
  return row ?? null;
}

export async function setRequestRefund(db: Db, id: string, refundId: string): Promise<void> {
  await db.update(refundRequests).set({ refundId }).where(eq(refundRequests.id, id));
}

export async function listRefundRequests(
  db: Db,
  options: { status?: RefundRequestStatus | undefined; studentId?: string | undefined; limit: number; offset: number },
): Promise<{ rows: RefundRequestRow[]; total: number }> {
  const where = and(
    options.status ? eq(refundRequests.status, options.status) : undefined,
    options.studentId ? eq(refundRequests.studentId, options.studentId) : undefined,
  );
  return withTotal(
    db
      .select()
      .from(refundRequests)
      .where(where)
      .orderBy(desc(refundRequests.createdAt), desc(refundRequests.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: refundRequests, where },
  );
}
