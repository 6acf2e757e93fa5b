import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { disputes, earningLines } from '../../db/schema/earnings.ts';
import { userJoin } from '../users/contact.public.ts';

export type DisputeRow = typeof disputes.$inferSelect;

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
