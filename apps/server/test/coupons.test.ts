import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { normaliseCouponCode } from '../src/modules/payments/coupon-rules.ts';
import * as coupons from '../src/modules/payments/coupons.repository.ts';
import { createTestApp, rawRows, type TestContext } from './harness.ts';
import { FAST_SIGNUP_ENV, buy, createCaller, createClass, type Caller } from './commerce-fixtures.ts';

/**
 * Coupons' storage (issue 18 §4): codes unique whatever their case, and a use counted exactly once
 * — once per student, never past max_uses, even when checkouts race for the last use. Real
 * payments are recorded first through the test gateway, as a redemption belongs to one.
 */

let ctx: TestContext;
let teacher: Caller & { name: string };
let students: Caller[];
let paymentOf: Map<string, string>;
const NOW = new Date('2026-11-24T12:00:00Z');

beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
  teacher = await createCaller(ctx, 'teacher');
  students = await Promise.all([0, 1, 2].map(() => createCaller(ctx, 'student')));
  const cls = await createClass(ctx, teacher, { priceCents: 2500 });
  paymentOf = new Map();
  for (const student of students) paymentOf.set(student.id, (await buy(ctx, student, [cls.id])).paymentId);
});
afterAll(async () => {
  await ctx?.close();
});

async function newCoupon(code: string, terms: Partial<coupons.NewCoupon> = {}): Promise<string> {
  const id = await coupons.insertCoupon(ctx.db, {
    code: normaliseCouponCode(code),
    kind: 'percent',
    value: 10,
    createdBy: teacher.id,
    teacherId: teacher.id,
    ...terms,
  });
  if (!id) throw new Error(`code ${code} taken`);
  return id;
}

/** Redeems in its own transaction, rolled back unless the use was counted (as the fulfilment will). */
async function redeem(couponId: string, student: Caller): Promise<coupons.Redemption> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const answer = await coupons.redeemCoupon(tx, {
        couponId,
        studentId: student.id,
        paymentId: paymentOf.get(student.id)!,
        discountCents: 250,
        now: NOW,
      });
      if (answer !== 'redeemed') throw new Refused(answer);
      return answer;
    });
  } catch (error) {
    if (error instanceof Refused) return error.answer;
    throw error;
  }
}

class Refused extends Error {
  readonly answer: coupons.Redemption;
  constructor(answer: coupons.Redemption) {
    super(answer);
    this.answer = answer;
  }
}

async function usesOf(couponId: string) {
  const [row] = await rawRows<{ uses: number; redemptions: number }>(
    ctx.db,
    sql`select uses, (select count(*)::int from coupon_redemptions r where r.coupon_id = c.id) as redemptions
        from coupons c where c.id = ${couponId}`,
  );
  return row;
}

describe('coupon codes', () => {
  it('are unique whatever their case and surrounding spaces', async () => {
    await newCoupon('Autumn-10');
    expect(
      await coupons.insertCoupon(ctx.db, {
        code: normaliseCouponCode(' autumn-10 '),
        kind: 'fixed',
        value: 100,
        createdBy: teacher.id,
      }),
    ).toBeNull();
    expect((await coupons.findCouponByCode(ctx.db, normaliseCouponCode('AUTUMN-10')))?.value).toBe(10);
  });

  it('are refused by the database when not normalised, and so are impossible values', async () => {
    const base = { kind: 'percent' as const, value: 10, createdBy: teacher.id };
    await expect(coupons.insertCoupon(ctx.db, { ...base, code: 'lower' })).rejects.toThrow();
    await expect(coupons.insertCoupon(ctx.db, { ...base, code: 'P101', value: 101 })).rejects.toThrow();
    await expect(coupons.insertCoupon(ctx.db, { ...base, code: 'F0', kind: 'fixed', value: 0 })).rejects.toThrow();
    await expect(coupons.insertCoupon(ctx.db, { ...base, code: 'M0', maxUses: 0 })).rejects.toThrow();
  });
});

describe('redeeming a coupon', () => {
  it('counts a use once per student', async () => {
    const id = await newCoupon('ONCE-EACH');
    expect(await redeem(id, students[0]!)).toBe('redeemed');
    expect(await redeem(id, students[0]!)).toBe('alreadyUsed');
    expect(await coupons.hasRedeemed(ctx.db, id, students[0]!.id)).toBe(true);
    expect(await coupons.hasRedeemed(ctx.db, id, students[1]!.id)).toBe(false);
    expect(await usesOf(id)).toEqual({ uses: 1, redemptions: 1 });
  });

  it('gives the last use to exactly one of the checkouts racing for it', async () => {
    const id = await newCoupon('LAST-ONE', { maxUses: 2 });
    expect(await redeem(id, students[0]!)).toBe('redeemed');
    const answers = await Promise.all([redeem(id, students[1]!), redeem(id, students[2]!)]);
    expect(answers.sort()).toEqual(['redeemed', 'unavailable']);
    expect(await usesOf(id)).toEqual({ uses: 2, redemptions: 2 });
  });

  it('counts no use of an expired or disabled coupon', async () => {
    const expired = await newCoupon('GONE', { expiresAt: NOW });
    expect(await redeem(expired, students[0]!)).toBe('unavailable');
    expect(await usesOf(expired)).toEqual({ uses: 0, redemptions: 0 });
    const disabled = await newCoupon('OFF');
    await rawRows(ctx.db, sql`update coupons set disabled_at = now() where id = ${disabled} returning id`);
    expect(await redeem(disabled, students[0]!)).toBe('unavailable');
    expect(await usesOf(disabled)).toEqual({ uses: 0, redemptions: 0 });
  });
});
