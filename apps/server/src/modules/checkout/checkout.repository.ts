import { type SQL, and, asc, desc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import { gatewayEvents, paymentIntents, payments } from '../../db/schema/checkout.ts';

export type PaymentRow = typeof payments.$inferSelect;

export async function findPaymentByTransactionId(db: Db, transactionId: string): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.transactionId, transactionId));
  return row ?? null;
}

/** Null when a payment with this transaction id exists already (unique index): the caller lost a race. */
export async function findPaymentById(db: Db, id: string): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row ?? null;
}

export async function insertPayment(db: Db, values: typeof payments.$inferInsert): Promise<string | null> {
  const [row] = await db
    .insert(payments)
    .values(values)
    .onConflictDoNothing({ target: payments.transactionId })
    .returning({ id: payments.id });
  return row?.id ?? null;
}

/**
 * One page of the payments that match `where`, in `orderBy`, and how many match: the student's
 * lists here and in payment-history.repository.ts, and the admin's search in refunds.repository.ts.
 */
export async function pageOfPayments(
  db: Db,
  where: SQL,
  orderBy: SQL[],
  page: { limit: number; offset: number },
): Promise<{ rows: PaymentRow[]; total: number }> {
  return withTotal(
    db
      .select()
      .from(payments)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
    { db, table: payments, where },
  );
}

/** The payment, locked FOR UPDATE: every refund of one payment takes this lock first, so they queue. */
export async function findPaymentForUpdate(db: Db, id: string): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).for('update');
  return row ?? null;
}

/** Several payments locked FOR UPDATE in id order (the order every batch takes them in), as a refund locks one. */
export async function lockPayments(db: Db, ids: string[]): Promise<PaymentRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(payments).where(inArray(payments.id, ids)).orderBy(asc(payments.id)).for('update');
}

/** Payments by exact transaction id or by the e-mail they were paid with, newest first. */
export async function searchPayments(
  db: Db,
  options: { q: string; limit: number; offset: number },
): Promise<{ rows: PaymentRow[]; total: number }> {
  const where = options.q.includes('@')
    ? eq(payments.email, options.q.toLowerCase())
    : eq(payments.transactionId, options.q);
  return pageOfPayments(db, where, [desc(payments.data), desc(payments.id)], options);
}

export async function listPaymentsOfStudent(
  db: Db,
  options: { studentId: string; limit: number; offset: number },
): Promise<{ rows: PaymentRow[]; total: number }> {
  return pageOfPayments(
    db,
    eq(payments.studentId, options.studentId),
    [desc(payments.createdAt), desc(payments.data), desc(payments.id)],
    options,
  );
}

export async function isEventRecorded(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: gatewayEvents.id }).from(gatewayEvents).where(eq(gatewayEvents.id, id));
  return Boolean(row);
}

/** False when the event was recorded already (a concurrent delivery of the same event). */
export async function recordEvent(db: Db, event: { id: string; type: string }): Promise<boolean> {
  const rows = await db.insert(gatewayEvents).values(event).onConflictDoNothing().returning({ id: gatewayEvents.id });
  return rows.length > 0;
}

/** Cuts a deleted account's payments from the person; amounts, classes and dates stay. */
export async function pseudonymisePaymentsOf(db: Db, studentId: string, pseudonym: string): Promise<void> {
  await db.update(payments).set({ email: pseudonym }).where(eq(payments.studentId, studentId));
}

// ---- Our record of the intents we created (decision 010) ----------------------------------------

export type IntentRow = typeof paymentIntents.$inferSelect;
export type IntentState = 'open' | 'succeeded' | 'canceled' | 'refund_pending' | 'refunded';

/** Nothing happens when the row exists already (a retried create answered the same intent). */
export async function insertIntent(db: Db, values: typeof paymentIntents.$inferInsert): Promise<void> {
  await db.insert(paymentIntents).values(values).onConflictDoNothing({ target: paymentIntents.id });
}

/** With `lock`, held FOR UPDATE: fulfilment and refund of one intent exclude each other. */
export async function findIntent(db: Db, id: string, options: { lock: boolean }): Promise<IntentRow | null> {
  const query = db.select().from(paymentIntents).where(eq(paymentIntents.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function listOpenIntentsOfStudent(db: Db, studentId: string): Promise<IntentRow[]> {
  return db
    .select()
    .from(paymentIntents)
    .where(and(eq(paymentIntents.studentId, studentId), eq(paymentIntents.status, 'open')))
    .orderBy(asc(paymentIntents.createdAt));
}

/** Moves an intent on from one of `from`; false when it was not in one of them (someone else moved it). */
export async function setIntentStatus(
  db: Db,
  id: string,
  from: IntentState[],
  to: IntentState,
  extra: { paymentId?: string; now: Date; nextCheckAt?: Date },
): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({
      status: to,
      updatedAt: extra.now,
      leaseUntil: null,
      ...(extra.paymentId ? { paymentId: extra.paymentId } : {}),
      ...(extra.nextCheckAt ? { nextCheckAt: extra.nextCheckAt } : {}),
    })
    .where(and(eq(paymentIntents.id, id), inArray(paymentIntents.status, from)))
    .returning({ id: paymentIntents.id });
  return rows.length > 0;
}

/** After a check that changed nothing: look again at `nextCheckAt`, and free the claim. */
export async function deferIntent(db: Db, id: string, nextCheckAt: Date): Promise<void> {
  await db.update(paymentIntents).set({ nextCheckAt, leaseUntil: null }).where(eq(paymentIntents.id, id));
}

/**
 * The reconciler's claim: up to `limit` open or refund_pending intents that are due and not
 * claimed by another instance (FOR UPDATE SKIP LOCKED, then a lease until `leaseUntil`), in one
 * statement, so no transaction is held while the gateway is asked.
 */
export async function claimDueIntents(
  db: Db,
  options: { now: Date; leaseUntil: Date; limit: number },
): Promise<IntentRow[]> {
  const due = db
    .select({ id: paymentIntents.id })
    .from(paymentIntents)
    .where(
      and(
        inArray(paymentIntents.status, ['open', 'refund_pending']),
        lte(paymentIntents.nextCheckAt, options.now),
        or(isNull(paymentIntents.leaseUntil), lt(paymentIntents.leaseUntil, options.now)),
      ),
    )
    .orderBy(asc(paymentIntents.nextCheckAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(paymentIntents)
    .set({ leaseUntil: options.leaseUntil })
    .where(inArray(paymentIntents.id, due))
    .returning();
}
