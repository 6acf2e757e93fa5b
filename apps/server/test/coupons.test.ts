import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Coupon } from '@skillhive/shared/contracts/coupons';
import { COUPON_CODE_MIN, COUPON_MESSAGES, normaliseCouponCode } from '@skillhive/shared/rules/coupons';
import { TEXT_MESSAGES } from '@skillhive/shared/rules/messages';
import * as coupons from '../src/modules/coupons/coupons.repository.ts';
import { createTestApp, rawRows, type TestContext } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  couponUsesOf,
  createCaller,
  createClass,
  itAnswersEachRole,
  type Caller,
  type MatrixEndpoint,
} from './commerce-fixtures.ts';

/**
 * Coupons' storage (decision 019): codes unique whatever their case, and a use counted exactly once
 * — once per student, never past max_uses, even when checkouts race for the last use. Real
 * payments are recorded first through the test gateway, as a redemption belongs to one.
 */

let ctx: TestContext;
let teacher: Caller & { name: string };
let otherTeacher: Caller;
let admin: Caller;
let students: Caller[];
let paymentOf: Map<string, string>;
const NOW = new Date('2026-11-24T12:00:00Z');

beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
  [teacher, otherTeacher, admin] = await Promise.all([
    createCaller(ctx, 'teacher'),
    createCaller(ctx, 'teacher'),
    createCaller(ctx, 'admin'),
  ]);
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
    const byCode = { code: normaliseCouponCode('once-each') };
    expect((await coupons.findCouponForStudent(ctx.db, byCode, students[0]!.id))?.redeemedByStudent).toBe(true);
    expect((await coupons.findCouponForStudent(ctx.db, { id }, students[1]!.id))?.redeemedByStudent).toBe(false);
    expect(await coupons.findCouponForStudent(ctx.db, { code: 'NO-SUCH-CODE' }, students[0]!.id)).toBeNull();
    expect(await couponUsesOf(ctx, id)).toEqual({ uses: 1, redemptions: 1 });
  });

  it('counts every use of a coupon without a limit when checkouts redeem it at once', async () => {
    const id = await newCoupon('MANY-AT-ONCE');
    const answers = await Promise.all(students.map((student) => redeem(id, student)));
    expect(answers).toEqual(['redeemed', 'redeemed', 'redeemed']);
    expect(await redeem(id, students[1]!)).toBe('alreadyUsed');
    expect(await couponUsesOf(ctx, id)).toEqual({ uses: 3, redemptions: 3 });
  });

  it('gives the last use to exactly one of the checkouts racing for it', async () => {
    const id = await newCoupon('LAST-ONE', { maxUses: 2 });
    expect(await redeem(id, students[0]!)).toBe('redeemed');
    const answers = await Promise.all([redeem(id, students[1]!), redeem(id, students[2]!)]);
    expect(answers.sort()).toEqual(['redeemed', 'unavailable']);
    expect(await couponUsesOf(ctx, id)).toEqual({ uses: 2, redemptions: 2 });
  });

  it('counts no use of an expired or disabled coupon', async () => {
    const expired = await newCoupon('GONE', { expiresAt: NOW });
    expect(await redeem(expired, students[0]!)).toBe('unavailable');
    expect(await couponUsesOf(ctx, expired)).toEqual({ uses: 0, redemptions: 0 });
    const disabled = await newCoupon('OFF');
    await rawRows(ctx.db, sql`update coupons set disabled_at = now() where id = ${disabled} returning id`);
    expect(await redeem(disabled, students[0]!)).toBe('unavailable');
    expect(await couponUsesOf(ctx, disabled)).toEqual({ uses: 0, redemptions: 0 });
    const expiredWithLimit = await newCoupon('GONE-LIMITED', { expiresAt: NOW, maxUses: 5 });
    expect(await redeem(expiredWithLimit, students[0]!)).toBe('unavailable');
    expect(await couponUsesOf(ctx, expiredWithLimit)).toEqual({ uses: 0, redemptions: 0 });
  });
});

function call(user: Caller | null, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  return ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });
}

let codeCounter = 0;
const freshCode = () => `matrix-${++codeCounter}`;

describe('permission matrix (every coupon endpoint × anonymous, student, teacher, another teacher, admin)', () => {
  const cast = () => ({ student: students[0]!, teacher, otherTeacher, admin });
  const admins = { anonymous: 401, student: 403, teacher: 403, otherTeacher: 403, admin: 0 } as const;
  const teachers = { anonymous: 401, student: 403, teacher: 0, otherTeacher: 0, admin: 403 } as const;
  let teachersCoupon: string;
  let siteCoupon: string;

  beforeAll(async () => {
    teachersCoupon = await newCoupon(freshCode());
    siteCoupon = await newCoupon(freshCode(), { teacherId: null, createdBy: admin.id });
  });

  const endpoints: MatrixEndpoint[] = [
    {
      name: 'POST /api/admin/coupons',
      method: 'POST',
      url: () => '/api/admin/coupons',
      body: () => ({ code: freshCode(), kind: 'percent', value: 15 }),
      expected: { ...admins, admin: 201 },
    },
    {
      name: 'GET /api/admin/coupons',
      method: 'GET',
      url: () => '/api/admin/coupons',
      expected: { ...admins, admin: 200 },
    },
    {
      name: 'POST /api/teachers/me/coupons',
      method: 'POST',
      url: () => '/api/teachers/me/coupons',
      body: () => ({ code: freshCode(), kind: 'fixed', value: 500 }),
      expected: { ...teachers, teacher: 201, otherTeacher: 201 },
    },
    {
      name: 'GET /api/teachers/me/coupons',
      method: 'GET',
      url: () => '/api/teachers/me/coupons',
      expected: { ...teachers, teacher: 200, otherTeacher: 200 },
    },
    {
      name: "POST /api/coupons/:id/disable (a teacher's)",
      method: 'POST',
      url: () => `/api/coupons/${teachersCoupon}/disable`,
      expected: { anonymous: 401, student: 404, teacher: 200, otherTeacher: 404, admin: 200 },
    },
    {
      name: 'POST /api/coupons/:id/disable (site-wide)',
      method: 'POST',
      url: () => `/api/coupons/${siteCoupon}/disable`,
      expected: { anonymous: 401, student: 404, teacher: 404, otherTeacher: 404, admin: 200 },
    },
  ];
  itAnswersEachRole(endpoints, { ctx: () => ctx, callerOf: (role) => cast()[role] });

  it('each sees only its own coupons, and the refused calls stored nothing', async () => {
    const mine = (await call(teacher, 'GET', '/api/teachers/me/coupons?limit=100')).json() as Coupon[];
    const theirs = (await call(otherTeacher, 'GET', '/api/teachers/me/coupons?limit=100')).json() as Coupon[];
    const site = await call(admin, 'GET', '/api/admin/coupons?limit=100');
    expect(mine.every((c) => c.teacherId === teacher.id)).toBe(true);
    expect(theirs.map((c) => c.teacherId)).toEqual([otherTeacher.id]);
    expect((site.json() as Coupon[]).every((c) => c.teacherId === null)).toBe(true);
    expect(site.headers['x-total-count']).toBe(String((site.json() as Coupon[]).length));
    expect(mine.find((c) => c._id === teachersCoupon)?.disabled).toBe(true);
    // One created per allowed caller: admin 1 site-wide (+1 set up), each teacher 1.
    const [row] = await rawRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from coupons where code like 'MATRIX-%'`,
    );
    expect(row!.n).toBe(2 + 3);
  });
});

describe('creating and disabling coupons', () => {
  it('stores the code normalised and answers the coupon', async () => {
    const res = await call(admin, 'POST', '/api/admin/coupons', {
      code: '  Winter_25 ',
      kind: 'percent',
      value: 25,
      expiresAt: '2099-01-01T00:00:00Z',
      maxUses: 10,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'WINTER_25',
      kind: 'percent',
      value: 25,
      expiresAt: '2099-01-01T00:00:00.000Z',
      maxUses: 10,
      uses: 0,
      teacherId: null,
      disabled: false,
    });
  });

  it('refuses a code already taken, whatever its case, with 409', async () => {
    await call(teacher, 'POST', '/api/teachers/me/coupons', { code: 'TAKEN-CODE', kind: 'fixed', value: 100 });
    const res = await call(otherTeacher, 'POST', '/api/teachers/me/coupons', {
      code: 'taken-code',
      kind: 'fixed',
      value: 1,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ code: 'conflict', message: COUPON_MESSAGES.codeTaken });
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['a code too short', { code: 'ab', kind: 'percent', value: 10 }, COUPON_MESSAGES.code],
    [
      `a code shorter than ${COUPON_CODE_MIN} characters, which could be guessed`,
      { code: 'A'.repeat(COUPON_CODE_MIN - 1), kind: 'percent', value: 10 },
      COUPON_MESSAGES.code,
    ],
    ['a code with a line break', { code: 'SPRING\r\nX-24', kind: 'percent', value: 10 }, TEXT_MESSAGES.singleLine],
    ['a code with spaces inside', { code: 'two words', kind: 'percent', value: 10 }, COUPON_MESSAGES.code],
    ['a code too long', { code: 'x'.repeat(41), kind: 'percent', value: 10 }, COUPON_MESSAGES.code],
    ['no code', { kind: 'percent', value: 10 }, COUPON_MESSAGES.code],
    ['an unknown kind', { code: 'KIND-CODE', kind: 'free', value: 10 }, ''],
    ['a percentage above 100', { code: 'P101-CODE', kind: 'percent', value: 101 }, COUPON_MESSAGES.percent],
    ['a value of 0', { code: 'ZERO-CODE', kind: 'fixed', value: 0 }, COUPON_MESSAGES.value],
    ['a value in decimals', { code: 'DEC-CODE', kind: 'fixed', value: 9.99 }, COUPON_MESSAGES.value],
    ['a value as text', { code: 'TXT-CODE', kind: 'fixed', value: '500' }, COUPON_MESSAGES.value],
    ['a huge fixed amount', { code: 'HUGE-CODE', kind: 'fixed', value: 1_000_001 }, COUPON_MESSAGES.fixedTooLarge],
    [
      'a date that is not one',
      { code: 'DATE-CODE', kind: 'fixed', value: 5, expiresAt: 'soon' },
      COUPON_MESSAGES.expiresAt,
    ],
    [
      'an expiry in the past',
      { code: 'PAST-CODE', kind: 'fixed', value: 5, expiresAt: '2001-01-01T00:00:00Z' },
      COUPON_MESSAGES.expiresAt,
    ],
    ['a maximum of 0 uses', { code: 'MAX0-CODE', kind: 'fixed', value: 5, maxUses: 0 }, COUPON_MESSAGES.maxUses],
  ];
  for (const [what, body, message] of bad) {
    it(`answers 400 with the error envelope for ${what}`, async () => {
      const res = await call(teacher, 'POST', '/api/teachers/me/coupons', body);
      expect(res.statusCode).toBe(400);
      const error = res.json().error as { code: string; message: string };
      expect(error.code).toBe('validation_error');
      if (message) expect(error.message).toContain(message);
    });
  }

  it('answers 404 for an unknown or malformed id, and disabling twice keeps the coupon disabled', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1'--"]) {
      const res = await call(admin, 'POST', `/api/coupons/${encodeURIComponent(id)}/disable`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const id = await newCoupon(freshCode());
    expect((await call(teacher, 'POST', `/api/coupons/${id}/disable`)).json()).toMatchObject({ disabled: true });
    expect((await call(teacher, 'POST', `/api/coupons/${id}/disable`)).json()).toMatchObject({ disabled: true });
  });
});
