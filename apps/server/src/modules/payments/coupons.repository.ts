import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { couponRedemptions, coupons } from '../../db/schema/payments.ts';

export type CouponRow = typeof coupons.$inferSelect;
export type NewCoupon = Omit<typeof coupons.$inferInsert, 'id' | 'uses' | 'disabledAt' | 'createdAt'>;

/** The new coupon's id, or null when its code is taken (codes are unique whatever their case). */
export async function insertCoupon(db: Db, coupon: NewCoupon): Promise<string | null> {
  const [row] = await db.insert(coupons).values(coupon).onConflictDoNothing().returning({ id: coupons.id });
  return row?.id ?? null;
}

/** `code` as `normaliseCouponCode` gives it. */
export async function findCouponByCode(db: Db, code: string): Promise<CouponRow | null> {
  const [row] = await db.select().from(coupons).where(eq(coupons.code, code));
  return row ?? null;
}

export async function hasRedeemed(db: Db, couponId: string, studentId: string): Promise<boolean> {
  const [row] = await db
    .select({ couponId: couponRedemptions.couponId })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.studentId, studentId)));
  return row !== undefined;
}

/** `unavailable`: used up, or expired or disabled since the coupon was checked. */
export type Redemption = 'redeemed' | 'alreadyUsed' | 'unavailable';

/**
 * Counts one use of a coupon for a payment, exactly once, inside the caller's transaction (the one
 * that records the payment). The redemption row comes first: its primary key (coupon, student)
 * makes a second use by the same student `alreadyUsed`, and a concurrent one waits on that key.
 * Then one conditional update raises `uses` only while the coupon is enabled, unexpired and below
 * `max_uses`; of two checkouts racing for the last use, the second finds the row updated and gets
 * `unavailable`. On anything but `redeemed` the caller must roll its transaction back, which also drops
 * the redemption row just inserted.
 */
export async function redeemCoupon(
  tx: Db,
  input: { couponId: string; studentId: string; paymentId: string; discountCents: number; now: Date },
): Promise<Redemption> {
  const inserted = await tx
    .insert(couponRedemptions)
    .values({
      couponId: input.couponId,
      studentId: input.studentId,
      paymentId: input.paymentId,
      discountCents: input.discountCents,
    })
    .onConflictDoNothing()
    .returning({ couponId: couponRedemptions.couponId });
  if (inserted.length === 0) return 'alreadyUsed';
  const counted = await tx
    .update(coupons)
    .set({ uses: sql`${coupons.uses} + 1` })
    .where(
      and(
        eq(coupons.id, input.couponId),
        isNull(coupons.disabledAt),
        or(isNull(coupons.expiresAt), gt(coupons.expiresAt, input.now)),
        or(isNull(coupons.maxUses), lt(coupons.uses, coupons.maxUses)),
      ),
    )
    .returning({ id: coupons.id });
  return counted.length === 1 ? 'redeemed' : 'unavailable';
}

export async function findCouponById(db: Db, id: string): Promise<CouponRow | null> {
  const [row] = await db.select().from(coupons).where(eq(coupons.id, id));
  return row ?? null;
}

/** Coupons of one teacher, or the site-wide ones (`teacherId` null), newest first. */
export async function listCoupons(
  db: Db,
  options: { teacherId: string | null; limit: number; offset: number },
): Promise<{ rows: CouponRow[]; total: number }> {
  const where = options.teacherId === null ? isNull(coupons.teacherId) : eq(coupons.teacherId, options.teacherId);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(coupons)
      .where(where)
      .orderBy(desc(coupons.createdAt), desc(coupons.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ total: count() }).from(coupons).where(where),
  ]);
  return { rows, total: totals?.total ?? 0 };
}

/** Sets `disabled_at` once; a coupon disabled before keeps its date. */
export async function disableCoupon(db: Db, id: string, now: Date): Promise<CouponRow | null> {
  await db
    .update(coupons)
    .set({ disabledAt: now })
    .where(and(eq(coupons.id, id), isNull(coupons.disabledAt)));
  return findCouponById(db, id);
}
