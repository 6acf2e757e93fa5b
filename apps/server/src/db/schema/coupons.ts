// Owned by modules/coupons (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// eslint-disable-next-line import-x/no-cycle -- references resolved lazily (see checkout.ts)
import { payments } from './checkout.ts';
import { createdAt } from './columns.ts';

/**
 * Discount codes (decision 019): an admin's are valid site-wide (`teacher_id` null), a teacher's
 * only for that teacher's classes. `code` is stored as the student types it after
 * `normaliseCouponCode` (trimmed, upper-case), so the unique index is case-insensitive. `value` is
 * a whole percentage (1–100) or an amount in integer cents. `uses` is the counter that guards
 * `max_uses`, kept for coupons with a limit only: raised by the conditional update that follows
 * the redemption, it equals the redemption rows and never passes the limit. A coupon without a
 * limit does not keep it (it stays as it was, 0 for a coupon created since): its uses are its
 * redemption rows, and no checkout waits on its row (decision 019 §4; `couponUses` in
 * coupons.repository.ts gives the uses shown for both).
 * No foreign keys to users: coupons and their redemptions are money records (DESIGN §4).
 */
export const coupons = pgTable(
  'coupons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull().unique(),
    kind: text('kind', { enum: ['percent', 'fixed'] }).notNull(),
    value: integer('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    maxUses: integer('max_uses'),
    uses: integer('uses').notNull().default(0),
    /** The teacher whose classes it is for; null: an admin's, site-wide. */
    teacherId: text('teacher_id'),
    /** The admin or teacher who created it. */
    createdBy: text('created_by').notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('coupons_code_normalised', sql`${t.code} = upper(btrim(${t.code})) and length(${t.code}) between 1 and 40`),
    check(
      'coupons_value',
      sql`(${t.kind} = 'percent' and ${t.value} between 1 and 100) or (${t.kind} = 'fixed' and ${t.value} > 0)`,
    ),
    check('coupons_max_uses_positive', sql`${t.maxUses} is null or ${t.maxUses} > 0`),
    check('coupons_uses', sql`${t.uses} >= 0 and (${t.maxUses} is null or ${t.uses} <= ${t.maxUses})`),
    index('coupons_teacher_idx').on(t.teacherId, t.createdAt.desc()),
  ],
);

/**
 * One row per coupon use, written with the payment it discounted: a student uses a coupon once
 * (primary key). These rows are the coupon's uses; for a coupon with a limit `coupons.uses`
 * equals their number.
 */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    couponId: uuid('coupon_id')
      .notNull()
      .references(() => coupons.id),
    studentId: text('student_id').notNull(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    /** What the coupon took off that payment, in integer cents. */
    discountCents: integer('discount_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.couponId, t.studentId] }),
    index('coupon_redemptions_payment_idx').on(t.paymentId),
    check('coupon_redemptions_discount', sql`${t.discountCents} >= 0`),
  ],
);
