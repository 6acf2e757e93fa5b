import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { schema } from '../../db/client.ts';

const { payments, gatewayEvents, users } = schema;

export type PaymentRow = typeof payments.$inferSelect;

export async function findPaymentByTransactionId(db: Db, transactionId: string): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.transactionId, transactionId));
  return row ?? null;
}

/** Null when a payment with this transaction id exists already (unique index): the caller lost a race. */
export async function insertPayment(db: Db, values: typeof payments.$inferInsert): Promise<string | null> {
  const [row] = await db
    .insert(payments)
    .values(values)
    .onConflictDoNothing({ target: payments.transactionId })
    .returning({ id: payments.id });
  return row?.id ?? null;
}

export async function listPaymentsOfStudent(
  db: Db,
  options: { studentId: string; limit: number; offset: number },
): Promise<{ rows: PaymentRow[]; total: number }> {
  const where = eq(payments.studentId, options.studentId);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.data), desc(payments.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(payments).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function findUserById(db: Db, id: string): Promise<{ id: string; email: string } | null> {
  const [row] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, id));
  return row ?? null;
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
