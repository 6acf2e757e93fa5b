import { describe, expect, it } from 'vitest';
import { COUPON_MESSAGES, normaliseCouponCode } from '@skillhive/shared/rules/coupons';
import { applyCoupon, type CouponTerms } from './coupon-rules.ts';
import { priceCart } from '../checkout/pricing.public.ts';

const NOW = new Date('2026-11-24T12:00:00Z');

const coupon = (terms: Partial<CouponTerms> = {}): CouponTerms => ({
  code: 'SPRING',
  kind: 'percent',
  value: 20,
  expiresAt: null,
  maxUses: null,
  uses: 0,
  teacherId: null,
  disabledAt: null,
  ...terms,
});

const cart = [
  { classId: 'c1', teacherId: 't1', priceCents: 1000 },
  { classId: 'c2', teacherId: 't2', priceCents: 2500 },
  { classId: 'c3', teacherId: 't1', priceCents: 333 },
];

const context = { now: NOW, redeemedByStudent: false, cart };

/** The cart's paid amounts once the coupon's adjustment is priced. */
function pricedWith(terms: Partial<CouponTerms>) {
  const answer = applyCoupon(coupon(terms), context);
  if (!answer.ok) throw new Error(answer.message);
  return priceCart(cart, [answer.adjustment]);
}

describe('normaliseCouponCode', () => {
  it('matches codes whatever their case and surrounding spaces', () => {
    expect(normaliseCouponCode('  spring-25 ')).toBe('SPRING-25');
    expect(normaliseCouponCode('Spring-25')).toBe(normaliseCouponCode('SPRING-25'));
  });
});

describe('applyCoupon', () => {
  it('takes a site-wide percentage off every line, rounded per line', () => {
    const priced = pricedWith({ kind: 'percent', value: 20 });
    expect(priced.lines.map((l) => l.paidCents)).toEqual([800, 2000, 266]); // 20% of 333 = 66.6 → 67 off
    expect(priced.totalCents).toBe(3066);
  });

  it('takes a fixed amount once per cart, shared by the lines', () => {
    const priced = pricedWith({ kind: 'fixed', value: 500 });
    expect(priced.lines.reduce((sum, l) => sum + l.discountCents, 0)).toBe(500);
    expect(priced.totalCents).toBe(3833 - 500);
  });

  it("limits a teacher's coupon to that teacher's classes", () => {
    const priced = pricedWith({ kind: 'percent', value: 50, teacherId: 't1' });
    expect(priced.lines.map((l) => l.paidCents)).toEqual([500, 2500, 166]); // 166.5 off → 167
    const fixed = pricedWith({ kind: 'fixed', value: 10_000, teacherId: 't2' });
    expect(fixed.lines.map((l) => l.paidCents)).toEqual([1000, 0, 333]);
  });

  it('refuses an unknown or disabled code', () => {
    expect(applyCoupon(null, context)).toEqual({ ok: false, message: COUPON_MESSAGES.unknown });
    expect(applyCoupon(coupon({ disabledAt: NOW }), context)).toEqual({ ok: false, message: COUPON_MESSAGES.unknown });
  });

  it('refuses a coupon from the instant it expires', () => {
    expect(applyCoupon(coupon({ expiresAt: NOW }), context)).toEqual({ ok: false, message: COUPON_MESSAGES.expired });
    expect(applyCoupon(coupon({ expiresAt: new Date(NOW.getTime() + 1) }), context).ok).toBe(true);
  });

  it('refuses a used-up coupon, and allows the last use', () => {
    expect(applyCoupon(coupon({ maxUses: 3, uses: 3 }), context)).toEqual({
      ok: false,
      message: COUPON_MESSAGES.usedUp,
    });
    expect(applyCoupon(coupon({ maxUses: 3, uses: 2 }), context).ok).toBe(true);
  });

  it('refuses a second use by the same student', () => {
    expect(applyCoupon(coupon(), { ...context, redeemedByStudent: true })).toEqual({
      ok: false,
      message: COUPON_MESSAGES.alreadyUsed,
    });
  });

  it("refuses a teacher's coupon for a cart without that teacher's classes, and any coupon for an empty cart", () => {
    expect(applyCoupon(coupon({ teacherId: 't9' }), context)).toEqual({
      ok: false,
      message: COUPON_MESSAGES.notForTheseClasses,
    });
    expect(applyCoupon(coupon(), { ...context, cart: [] })).toEqual({
      ok: false,
      message: COUPON_MESSAGES.notForTheseClasses,
    });
  });

  it('gives the most final reason first when several apply', () => {
    const everything = coupon({ expiresAt: NOW, maxUses: 1, uses: 1, teacherId: 't9' });
    expect(applyCoupon(everything, { ...context, redeemedByStudent: true })).toMatchObject({
      message: COUPON_MESSAGES.expired,
    });
    expect(
      applyCoupon(coupon({ maxUses: 1, uses: 1, teacherId: 't9' }), { ...context, redeemedByStudent: true }),
    ).toMatchObject({ message: COUPON_MESSAGES.usedUp });
  });
});
