import { COUPON_MESSAGES, type CouponKind } from '@skillhive/shared/rules/coupons';
import type { PriceAdjustment } from '../checkout/pricing.public.ts';

/**
 * Whether a coupon applies to a cart, and how (decision 019) — pure, so every rule is unit-tested
 * and the preview, the intent and the fulfilment decide alike. Codes are compared after
 * `normaliseCouponCode` (packages/shared/src/rules/coupons.ts), which also holds the messages.
 */

/** Why a code cannot be used, in the student's words. */
export type CouponRefusal = (typeof COUPON_MESSAGES)[
  'unknown' | 'expired' | 'usedUp' | 'alreadyUsed' | 'notForTheseClasses'];

/** A coupon's terms as stored. `value` is a percentage (1–100) or an amount in integer cents. */
export interface CouponTerms {
  code: string;
  kind: CouponKind;
  value: number;
  /** The coupon is refused from this instant on; null: it never expires. */
  expiresAt: Date | null;
  /** null: no limit. */
  maxUses: number | null;
  /**
   * Uses counted against `maxUses` (a use is counted when a payment is recorded); read only when
   * there is a limit — a coupon without one keeps no counter (coupons.repository `redeemCoupon`).
   */
  uses: number;
  /** The teacher whose classes it is limited to; null: an admin's, valid site-wide. */
  teacherId: string | null;
  /** A disabled coupon is refused as if it did not exist. */
  disabledAt: Date | null;
}

/** A cart line as the coupon sees it: the class and who teaches it. */
export interface CouponCartLine {
  classId: string;
  teacherId: string;
}

/**
 * The adjustment a coupon makes to a cart, or why it cannot be used. Checked in this order, so
 * the student hears the most final reason first: unknown (or disabled), expired, used up, already
 * used by this student, not valid for any class in the cart. A teacher's coupon applies only to
 * the lines of that teacher's classes; the others keep their price.
 */
export function applyCoupon(
  coupon: CouponTerms | null,
  context: { now: Date; redeemedByStudent: boolean; cart: readonly CouponCartLine[] },
): { ok: true; adjustment: PriceAdjustment } | { ok: false; message: CouponRefusal } {
  if (!coupon || coupon.disabledAt !== null) return { ok: false, message: COUPON_MESSAGES.unknown };
  if (coupon.expiresAt !== null && context.now.getTime() >= coupon.expiresAt.getTime()) {
    return { ok: false, message: COUPON_MESSAGES.expired };
  }
  if (coupon.maxUses !== null && coupon.uses >= coupon.maxUses) return { ok: false, message: COUPON_MESSAGES.usedUp };
  if (context.redeemedByStudent) return { ok: false, message: COUPON_MESSAGES.alreadyUsed };
  const adjustment = couponAdjustment(coupon, context.cart);
  if (!adjustment) return { ok: false, message: COUPON_MESSAGES.notForTheseClasses };
  return { ok: true, adjustment };
}

/**
 * The adjustment a coupon's terms make to a cart, whatever the coupon's state (the fulfilment
 * prices a charge with the coupon it was made with; `redeemCoupon` decides whether the use still
 * counts). Null when no line of the cart qualifies.
 */
export function couponAdjustment(
  coupon: Pick<CouponTerms, 'kind' | 'value' | 'teacherId'>,
  cart: readonly CouponCartLine[],
): PriceAdjustment | null {
  const { teacherId } = coupon;
  const classIds =
    teacherId === null ? null : [...new Set(cart.filter((l) => l.teacherId === teacherId).map((l) => l.classId))];
  if (cart.length === 0 || classIds?.length === 0) return null;
  return coupon.kind === 'percent'
    ? { kind: 'percent', percent: coupon.value, classIds }
    : { kind: 'fixed', amountCents: coupon.value, classIds };
}
