import { and, count, desc, eq, getTableColumns, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { couponRedemptions, coupons } from '../../db/schema/coupons.ts';

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

/**
 * A coupon found by its (normalised) code or its id, with whether this student has used it
 * already — one query, for the checks at checkout (the intent and the last check before the card
 * is charged).
 */
export async function findCouponForStudent(
  db: Db,
  by: { code: string } | { id: string },
  studentId: string,
): Promise<{ row: CouponRow; redeemedByStudent: boolean } | null> {
  const redeemed = sql<boolean>`exists (select 1 from ${couponRedemptions}
    where ${couponRedemptions.couponId} = ${coupons.id} and ${couponRedemptions.studentId} = ${studentId})`;
  const [found] = await db
    .select({ row: getTableColumns(coupons), redeemedByStudent: redeemed.mapWith(Boolean) })
    .from(coupons)
    .where('code' in by ? eq(coupons.code, by.code) : eq(coupons.id, by.id));
  return found ?? null;
}

/** `unavailable`: used up, or expired or disabled since the coupon was checked. */
export type Redemption = 'redeemed' | 'alreadyUsed' | 'unavailable';

/**
 * Counts one use of a coupon for a payment, exactly once, inside the caller's transaction (the one
 * that records the payment). The redemption row comes first: its primary key (coupon, student)
 * makes a second use by the same student `alreadyUsed`, and a concurrent one waits on that key.
 * The same statement reads whether the coupon is still enabled and unexpired, and whether it has
 * a limit of uses (decision 019 §4):
 *
 * - without a limit, that is all: its uses are its redemption rows (`couponUses`), and no
 *   checkout waits for another — the coupon's row is not locked, only its key share for the
 *   foreign key, which neither a disable nor another redemption blocks;
 * - with a limit, one conditional update then raises `uses` only while the coupon is enabled,
 *   unexpired and below `max_uses`; of two checkouts racing for the last use, the second waits on
 *   the row's lock, finds it updated and gets `unavailable`.
 *
 * On anything but `redeemed` the caller must roll its transaction back, which also drops the
 * redemption row just inserted.
 */
export async function redeemCoupon(
  tx: Db,
  input: { couponId: string; studentId: string; paymentId: string; discountCents: number; now: Date },
): Promise<Redemption> {
  const result = (await tx.execute(sql`
    with coupon as (
      select ${coupons.maxUses} is not null as limited,
        ${coupons.disabledAt} is null and (${coupons.expiresAt} is null or ${coupons.expiresAt} > ${input.now.toISOString()}::timestamptz)
          as usable
      from ${coupons} where ${coupons.id} = ${input.couponId}
    ), inserted as (
      insert into ${couponRedemptions} (coupon_id, student_id, payment_id, discount_cents)
      values (${input.couponId}, ${input.studentId}, ${input.paymentId}, ${input.discountCents})
      on conflict do nothing
      returning coupon_id
    )
    select (select count(*) from inserted)::int as inserted, coupon.limited, coupon.usable from coupon`)) as unknown as {
    rows: { inserted: number; limited: boolean; usable: boolean }[];
  };
  const [row] = result.rows;
  if (!row) return 'unavailable';
  if (row.inserted === 0) return 'alreadyUsed';
  if (!row.limited) return row.usable ? 'redeemed' : 'unavailable';
  const counted = await tx
    .update(coupons)
    .set({ uses: sql`${coupons.uses} + 1` })
    .where(
      and(
        eq(coupons.id, input.couponId),
        isNull(coupons.disabledAt),
        or(isNull(coupons.expiresAt), gt(coupons.expiresAt, input.now)),
        lt(coupons.uses, coupons.maxUses),
      ),
    )
    .returning({ id: coupons.id });
  return counted.length === 1 ? 'redeemed' : 'unavailable';
}

/** The coupon's terms and state, for checks: `uses` is the counter (kept for coupons with a limit only). */
export async function findCouponById(db: Db, id: string): Promise<CouponRow | null> {
  const [row] = await db.select().from(coupons).where(eq(coupons.id, id));
  return row ?? null;
}

/**
 * How many times a coupon was used, as admins and teachers see it: its redemption rows. A coupon
 * with a limit keeps the same number in `uses` (raised with each redemption, to guard `max_uses`);
 * one without keeps no counter (`redeemCoupon`), so its rows are counted here — off the checkout
 * path, with the primary key's index (coupon, student).
 */
const couponUses = sql<number>`case when ${coupons.maxUses} is null
  then (select count(*) from ${couponRedemptions} where ${couponRedemptions.couponId} = ${coupons.id})
  else ${coupons.uses} end`.mapWith(Number);

/** Every column of a coupon, `uses` as shown (`couponUses`). */
const shownCoupon = { ...getTableColumns(coupons), uses: couponUses };

/** A coupon as admins and teachers see it (`couponUses`). */
export async function findShownCoupon(db: Db, id: string): Promise<CouponRow | null> {
  const [row] = await db.select(shownCoupon).from(coupons).where(eq(coupons.id, id));
  return row ?? null;
}

/** Coupons of one teacher, or the site-wide ones (`teacherId` null), newest first, `uses` as shown. */
export async function listCoupons(
  db: Db,
  options: { teacherId: string | null; limit: number; offset: number },
): Promise<{ rows: CouponRow[]; total: number }> {
  const where = options.teacherId === null ? isNull(coupons.teacherId) : eq(coupons.teacherId, options.teacherId);
  const [rows, [totals]] = await Promise.all([
    db
      .select(shownCoupon)
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
  return findShownCoupon(db, id);
}
