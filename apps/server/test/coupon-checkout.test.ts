import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PaymentHistoryEntry, PaymentReceipt } from '@skillhive/shared/contracts/payments';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { COUPON_MESSAGES, normaliseCouponCode } from '@skillhive/shared/rules/coupons';
import { REFUND_MESSAGES } from '@skillhive/shared/rules/refunds';
import * as coupons from '../src/modules/coupons/coupons.repository.ts';
import { createTestGateway } from '../src/modules/gateways/test-gateway.ts';
import { createTestApp, rawRows, type TestContext } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  confirm,
  couponUsesOf,
  createCaller,
  createClass,
  createIntent,
  createIntentOk,
  enrolOk,
  recordPayment,
  type Caller,
  type IntentAnswer,
} from './commerce-fixtures.ts';

/**
 * Coupons at checkout (decision 019): the intent prices the cart with the code,
 * line by line; the coupon is bound to the intent and redeemed exactly once with the payment; each
 * line stores what was paid for it, and refunds, history, receipts and stats read that.
 */

let ctx: TestContext;
type Person = Caller & { name: string };
let teacher: Person;
let otherTeacher: Person;
let admin: Person;
let codeCounter = 0;

const COUPON_FAILURES = 8;
const COUPON_FAILURES_PER_IP = 20;
/** The answer to any code a student cannot use. */
const UNUSABLE = {
  code: 'not_found',
  message: COUPON_MESSAGES.unusable,
  fields: { couponCode: COUPON_MESSAGES.unusable },
};

beforeAll(async () => {
  ctx = await createTestApp({
    ...FAST_SIGNUP_ENV,
    RATE_LIMIT_COUPON_FAILURES: String(COUPON_FAILURES),
    RATE_LIMIT_COUPON_FAILURES_PER_IP: String(COUPON_FAILURES_PER_IP),
  });
  [teacher, otherTeacher, admin] = await Promise.all([
    createCaller(ctx, 'teacher'),
    createCaller(ctx, 'teacher'),
    createCaller(ctx, 'admin'),
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

const student = () => createCaller(ctx, 'student');

/** A coupon stored as the coupon endpoints store it; answers its code. */
async function newCoupon(terms: Partial<coupons.NewCoupon> = {}): Promise<{ id: string; code: string }> {
  const code = normaliseCouponCode(`ck-${++codeCounter}-${Math.random().toString(36).slice(2, 6)}`);
  const id = await coupons.insertCoupon(ctx.db, {
    code,
    kind: 'percent',
    value: 10,
    createdBy: admin.id,
    teacherId: null,
    ...terms,
  });
  if (!id) throw new Error('code taken');
  return { id, code };
}

async function paidCentsOf(enrollmentIds: string[]) {
  const rows = await rawRows<{ id: string; status: string; paid_cents: number | null }>(
    ctx.db,
    sql`select id, status::text as status, paid_cents from enrollments where id in ${enrollmentIds}`,
  );
  return Object.fromEntries(rows.map((r) => [r.id, { status: r.status, paidCents: r.paid_cents }]));
}

function get(user: Caller, url: string) {
  return ctx.app.inject({ method: 'GET', url, headers: user.headers });
}

describe('the price preview (POST /api/create-payment-intent with couponCode)', () => {
  it('lists each line with its discount, and the amount charged is the discounted total', async () => {
    const buyer = await student();
    const a = await createClass(ctx, teacher, { priceCents: 1999 });
    const b = await createClass(ctx, otherTeacher, { priceCents: 333 });
    const ids = [await enrolOk(ctx, buyer, a.id), await enrolOk(ctx, buyer, b.id)];
    const coupon = await newCoupon({ kind: 'percent', value: 15 });
    const intent = await createIntentOk(ctx, buyer, { couponCode: ` ${coupon.code.toLowerCase()} ` });
    // 15% of 1999 = 299.85 → 300 off; of 333 = 49.95 → 50 off (halves up, pricing.public.ts).
    expect(intent).toMatchObject({
      amount: 1699 + 283,
      subtotalCents: 2332,
      discountCents: 350,
      coupon: { code: coupon.code, kind: 'percent', value: 15 },
      lines: [
        { _id: ids[0], classId: a.id, listCents: 1999, discountCents: 300, paidCents: 1699 },
        { _id: ids[1], classId: b.id, listCents: 333, discountCents: 50, paidCents: 283 },
      ],
    });
    const [gateway] = await rawRows<{ amount_cents: number; metadata: Record<string, string> }>(
      ctx.db,
      sql`select amount_cents, metadata from test_gateway_intents where client_secret = ${intent.clientSecret}`,
    );
    expect(gateway!.amount_cents).toBe(1982);
    expect(gateway!.metadata.coupon_id).toBe(coupon.id);
    // Nothing is counted before a payment.
    expect(await couponUsesOf(ctx, coupon.id)).toEqual({ uses: 0, redemptions: 0 });
  });

  it('answers the same intent for the same cart and code, a new one without the code, and cancels the other', async () => {
    const buyer = await student();
    const a = await createClass(ctx, teacher, { priceCents: 5000 });
    await enrolOk(ctx, buyer, a.id);
    const coupon = await newCoupon({ kind: 'fixed', value: 1250 });
    const first = await createIntentOk(ctx, buyer, { couponCode: coupon.code });
    const again = await createIntentOk(ctx, buyer, { couponCode: coupon.code });
    expect(again.clientSecret).toBe(first.clientSecret);
    expect(first.amount).toBe(3750);
    const plain = await createIntentOk(ctx, buyer, { couponCode: '' });
    expect(plain).toMatchObject({ amount: 5000, discountCents: 0, coupon: null });
    expect(plain.clientSecret).not.toBe(first.clientSecret);
    const res = await confirm(ctx, buyer, first.clientSecret);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.intentCanceled);
  });

  it("applies a teacher's coupon to that teacher's lines only, a fixed amount shared to the cent", async () => {
    const buyer = await student();
    const mine = [
      await createClass(ctx, teacher, { priceCents: 1000 }),
      await createClass(ctx, teacher, { priceCents: 2000 }),
    ];
    const theirs = await createClass(ctx, otherTeacher, { priceCents: 700 });
    for (const cls of [...mine, theirs]) await enrolOk(ctx, buyer, cls.id);
    const coupon = await newCoupon({ kind: 'fixed', value: 1000, teacherId: teacher.id, createdBy: teacher.id });
    const intent = await createIntentOk(ctx, buyer, { couponCode: coupon.code });
    const byClass = Object.fromEntries(intent.lines.map((l) => [l.classId, l]));
    // 1000 ¢ over 1000 + 2000 in proportion: 333.3 and 666.6 → 333 and 667 (largest remainder).
    expect(byClass[mine[0]!.id]).toMatchObject({ discountCents: 333, paidCents: 667 });
    expect(byClass[mine[1]!.id]).toMatchObject({ discountCents: 667, paidCents: 1333 });
    expect(byClass[theirs.id]).toMatchObject({ discountCents: 0, paidCents: 700 });
    expect(intent.amount).toBe(2700);
    expect(intent.lines.reduce((sum, l) => sum + l.paidCents, 0)).toBe(intent.amount);
  });
});

describe('refused codes: a clear 4xx in the error envelope, on fields.couponCode', () => {
  let buyer: Caller;
  let otherClassId: string;
  let firstSecret: string;

  beforeAll(async () => {
    buyer = await student();
    const cls = await createClass(ctx, teacher, { priceCents: 1500 });
    otherClassId = (await createClass(ctx, otherTeacher, { priceCents: 900 })).id;
    await enrolOk(ctx, buyer, cls.id);
    firstSecret = (await createIntentOk(ctx, buyer)).clientSecret;
  });

  // Every code a student cannot use answers alike (status, code, message), so guessing cannot tell
  // "exists but not for you" from "unknown".
  const unusable: [string, () => Promise<string>][] = [
    ['an unknown code', async () => 'NO-SUCH-CODE'],
    [
      'a disabled code',
      async () => {
        const c = await newCoupon();
        await coupons.disableCoupon(ctx.db, c.id, new Date());
        return c.code;
      },
    ],
    ['an expired code', async () => (await newCoupon({ expiresAt: new Date(Date.now() - 1000) })).code],
    [
      'a used-up code',
      async () => {
        const c = await newCoupon({ maxUses: 1 });
        await buy(ctx, await student(), [otherClassId], { couponCode: c.code });
        return c.code;
      },
    ],
    ["another teacher's code (foreign)", async () => (await newCoupon({ teacherId: otherTeacher.id })).code],
  ];
  for (const [what, codeOf] of unusable) {
    it(`${what} → the one answer for every unusable code`, async () => {
      const res = await createIntent(ctx, buyer, { couponCode: await codeOf() });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual(UNUSABLE);
    });
  }

  it('a code that would bring the total below $0.50 → 409, said (the code is one the student may use)', async () => {
    const res = await createIntent(ctx, buyer, { couponCode: (await newCoupon({ kind: 'percent', value: 100 })).code });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'conflict',
      message: COUPON_MESSAGES.belowMinimum,
      fields: { couponCode: COUPON_MESSAGES.belowMinimum },
    });
  });

  const malformed: [string, unknown][] = [
    ['spaces inside', 'TWO WORDS'],
    ['too long', 'X'.repeat(41)],
    ['quotes', "x'--"],
    ['a number', 42],
    ['an object', { $ne: null }],
  ];
  for (const [what, couponCode] of malformed) {
    it(`a malformed code (${what}) → 400`, async () => {
      const res = await createIntent(ctx, buyer, { couponCode });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
    });
  }

  it('a refused code leaves the open intent as it was', async () => {
    const res = await confirm(ctx, buyer, firstSecret);
    expect(res.statusCode).toBe(200);
  });

  it('a code used by the same student before → the one answer for every unusable code', async () => {
    const c = await newCoupon();
    const again = await student();
    await buy(ctx, again, [(await createClass(ctx, teacher, { priceCents: 800 })).id], { couponCode: c.code });
    await enrolOk(ctx, again, (await createClass(ctx, teacher, { priceCents: 800 })).id);
    const res = await createIntent(ctx, again, { couponCode: c.code });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual(UNUSABLE);
  });
});

describe('paying with a coupon', () => {
  it('records the coupon, the card and each line’s paid price; history, receipt, refunds and stats read them', async () => {
    const buyer = await student();
    const a = await createClass(ctx, teacher, { priceCents: 2500 });
    const b = await createClass(ctx, otherTeacher, { priceCents: 1000 });
    const coupon = await newCoupon({ kind: 'percent', value: 20 });
    const { paymentId, intent } = await buy(ctx, buyer, [a.id, b.id], { couponCode: coupon.code });
    expect(intent.amount).toBe(2800);

    const [payment] = await rawRows<Record<string, unknown>>(
      ctx.db,
      sql`select amount_cents, coupon_id, coupon_code, discount_cents, card_brand, card_last4 from payments where id = ${paymentId}`,
    );
    expect(payment).toEqual({
      amount_cents: 2800,
      coupon_id: coupon.id,
      coupon_code: coupon.code,
      discount_cents: 700,
      card_brand: 'visa',
      card_last4: '4242',
    });
    const lineOf = Object.fromEntries(intent.lines.map((l) => [l.classId, l._id]));
    expect(await paidCentsOf(intent.cartIds)).toEqual({
      [lineOf[a.id]!]: { status: 'paid', paidCents: 2000 },
      [lineOf[b.id]!]: { status: 'paid', paidCents: 800 },
    });
    expect(await couponUsesOf(ctx, coupon.id)).toEqual({ uses: 1, redemptions: 1 });

    const history = (await get(buyer, '/api/payments/me')).json() as PaymentHistoryEntry[];
    expect(history[0]).toMatchObject({
      _id: paymentId,
      totalCents: 2800,
      coupon: { code: coupon.code, discountCents: 700 },
      method: { gateway: 'test', brand: 'visa', last4: '4242' },
    });
    expect(history[0]!.lines.map((l) => l.amountCents).sort((x, y) => x - y)).toEqual([800, 2000]);
    const receipt = (await get(buyer, `/api/payments/me/${paymentId}`)).json() as PaymentReceipt;
    expect(receipt.coupon).toEqual({ code: coupon.code, discountCents: 700 });

    // The teacher earned their share of the line from the ledger: a site-wide coupon comes out of
    // the platform's fee (decision 039 §4), so the share of the $25.00 list price at 20 %, $20.00,
    // is all the line brought in.
    const stats = (await get(teacher, '/api/teachers/me/stats')).json() as {
      classes: { classId: string; revenueCents: number }[];
    };
    expect(stats.classes.find((c) => c.classId === a.id)?.revenueCents).toBe(2000);

    // A refund of one line gives back what was paid for it.
    const refund = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/payments/${paymentId}/refunds`,
      headers: admin.headers,
      payload: { enrollmentId: lineOf[a.id], reason: 'Changed their mind' },
    });
    expect(refund.statusCode).toBe(200);
    expect(refund.json().refundedCents).toBe(2000);
    const rest = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/payments/${paymentId}/refunds`,
      headers: admin.headers,
      payload: { reason: 'The rest too' },
    });
    expect(rest.json().refundedCents).toBe(800);
    const [given] = await rawRows<{ n: number }>(
      ctx.db,
      sql`select coalesce(sum(r.amount_cents), 0)::int as n from test_gateway_refunds r
          join payments p on p.transaction_id = r.intent_id where p.id = ${paymentId}`,
    );
    expect(given!.n).toBe(2800);
  });

  it('a line a coupon made free is paid at 0 and cannot be refunded on its own', async () => {
    const buyer = await student();
    const free = await createClass(ctx, teacher, { priceCents: 900 });
    const full = await createClass(ctx, otherTeacher, { priceCents: 1200 });
    const coupon = await newCoupon({ kind: 'percent', value: 100, teacherId: teacher.id });
    const { paymentId, intent } = await buy(ctx, buyer, [free.id, full.id], { couponCode: coupon.code });
    expect(intent.amount).toBe(1200);
    const freeLine = intent.lines.find((l) => l.classId === free.id)!;
    expect(freeLine.paidCents).toBe(0);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/payments/${paymentId}/refunds`,
      headers: admin.headers,
      payload: { enrollmentId: freeLine._id, reason: 'Asked' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(REFUND_MESSAGES.nothingPaid);
  });

  it('refuses to charge when the coupon ran out after the intent was made (nothing charged)', async () => {
    const coupon = await newCoupon({ maxUses: 1 });
    const cls = await createClass(ctx, teacher, { priceCents: 1000 });
    const [first, second] = [await student(), await student()];
    await enrolOk(ctx, second, cls.id);
    const late = await createIntentOk(ctx, second, { couponCode: coupon.code });
    await buy(ctx, first, [cls.id], { couponCode: coupon.code });
    const res = await confirm(ctx, second, late.clientSecret);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(COUPON_MESSAGES.usedUp);
    const [row] = await rawRows<{ status: string }>(
      ctx.db,
      sql`select status from test_gateway_intents where client_secret = ${late.clientSecret}`,
    );
    expect(row!.status).toBe('requires_payment_method');
    expect(await couponUsesOf(ctx, coupon.id)).toEqual({ uses: 1, redemptions: 1 });
  });

  it('gives the last use to exactly one of two charges recorded at once; the other is refunded in full', async () => {
    const coupon = await newCoupon({ maxUses: 1, kind: 'fixed', value: 300 });
    const cls = await createClass(ctx, teacher, { priceCents: 1000 });
    const buyers = [await student(), await student()];
    const intents: IntentAnswer[] = [];
    for (const buyer of buyers) {
      await enrolOk(ctx, buyer, cls.id);
      intents.push(await createIntentOk(ctx, buyer, { couponCode: coupon.code }));
    }
    // Both cards charged at the gateway before either is recorded (as two Stripe checkouts can be).
    const gateway = createTestGateway(ctx.db);
    const ids: string[] = [];
    for (const intent of intents) {
      const charged = await gateway.findIntentByClientSecret(intent.clientSecret);
      expect(await gateway.confirmCard(charged!.id, '4242424242424242')).toEqual({ status: 'succeeded' });
      ids.push(charged!.id);
    }
    const answers = await Promise.all(
      buyers.map((buyer, i) => recordPayment(ctx, buyer, { transactionId: ids[i]!, cartIds: intents[i]!.cartIds })),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, 409]);
    const lost = answers.find((a) => a.statusCode === 409)!;
    expect(lost.json().error.message).toBe(PAYMENT_MESSAGES.couponRefunded);
    expect(await couponUsesOf(ctx, coupon.id)).toEqual({ uses: 1, redemptions: 1 });
    const rows = await rawRows<{ refunded: boolean; paid: boolean }>(
      ctx.db,
      sql`select g.refunded_at is not null as refunded, exists (select 1 from payments p where p.transaction_id = g.id) as paid
          from test_gateway_intents g where g.id in ${ids} order by paid`,
    );
    expect(rows).toEqual([
      { refunded: true, paid: false },
      { refunded: false, paid: true },
    ]);
  });

  it('cannot be tricked by a coupon added to an intent it was not priced with', async () => {
    const buyer = await student();
    const cls = await createClass(ctx, teacher, { priceCents: 1000 });
    await enrolOk(ctx, buyer, cls.id);
    const intent = await createIntentOk(ctx, buyer);
    const coupon = await newCoupon({ kind: 'percent', value: 50 });
    await rawRows(
      ctx.db,
      sql`update test_gateway_intents set metadata = metadata || ${JSON.stringify({ coupon_id: coupon.id })}::jsonb
          where client_secret = ${intent.clientSecret} returning id`,
    );
    const res = await confirm(ctx, buyer, intent.clientSecret);
    expect(res.statusCode).toBe(409);
    const [paid] = await rawRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from payments where student_id = ${buyer.id}`,
    );
    expect(paid!.n).toBe(0);
    expect(await couponUsesOf(ctx, coupon.id)).toEqual({ uses: 0, redemptions: 0 });
  });
});

describe('guessing codes is rate-limited per account and per client address', () => {
  /** POST /api/create-payment-intent from one client address. */
  function tryCode(user: Caller, couponCode: string, remoteAddress: string) {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: user.headers,
      remoteAddress,
      payload: { couponCode },
    });
  }

  async function studentWithCart(): Promise<Caller> {
    const buyer = await student();
    await enrolOk(ctx, buyer, (await createClass(ctx, teacher, { priceCents: 2000 })).id);
    return buyer;
  }

  function expectLimited(res: Awaited<ReturnType<typeof tryCode>>) {
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json().error.code).toBe('rate_limited');
    expect(res.json().error.fields.couponCode).toBe(res.json().error.message);
  }

  it(`an account gets ${COUPON_FAILURES} wrong codes, then 429 even for a good one; others are unaffected`, async () => {
    const guesser = await studentWithCart();
    const good = await newCoupon({ kind: 'percent', value: 10 });
    for (let i = 0; i < COUPON_FAILURES; i++) {
      expect((await tryCode(guesser, `GUESS-${i}-XYZ`, '10.0.0.1')).statusCode).toBe(404);
    }
    expectLimited(await tryCode(guesser, good.code, '10.0.0.1'));
    // From another address too: the count is the account's.
    expectLimited(await tryCode(guesser, `GUESS-X-XYZ`, '10.0.0.2'));
    // Someone else at the first address still applies their code.
    const neighbour = await studentWithCart();
    expect((await tryCode(neighbour, good.code, '10.0.0.1')).statusCode).toBe(200);
  });

  it('a parallel burst gets no more tries than the limit', async () => {
    const guesser = await studentWithCart();
    const answers = await Promise.all(
      Array.from({ length: COUPON_FAILURES + 4 }, (_, i) => tryCode(guesser, `BURST-${i}-XYZ`, '10.0.1.1')),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 404)).toHaveLength(COUPON_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
  });

  it('codes that apply do not count', async () => {
    const buyer = await studentWithCart();
    const good = await newCoupon({ kind: 'percent', value: 10 });
    for (let i = 0; i < COUPON_FAILURES + 2; i++) {
      expect((await tryCode(buyer, good.code, '10.0.2.1')).statusCode).toBe(200);
    }
  });

  it(`one address gets ${COUPON_FAILURES_PER_IP} wrong codes over any number of accounts, then 429`, async () => {
    const ip = '10.0.3.1';
    let tried = 0;
    while (tried < COUPON_FAILURES_PER_IP) {
      const guesser = await studentWithCart();
      for (let i = 0; i < COUPON_FAILURES - 1 && tried < COUPON_FAILURES_PER_IP; i++, tried++) {
        expect((await tryCode(guesser, `IP-${tried}-XYZ`, ip)).statusCode).toBe(404);
      }
    }
    const fresh = await studentWithCart();
    expectLimited(await tryCode(fresh, 'FRESH-XYZ', ip));
    // The same account from another address goes on.
    expect((await tryCode(fresh, 'FRESH-XYZ', '10.0.3.2')).statusCode).toBe(404);
  });
});

describe('permission matrix: POST /api/create-payment-intent with a coupon code', () => {
  it('anonymous → 401; a student, a teacher and an admin with a cart → 200, their own coupon-priced intent', async () => {
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      payload: { couponCode: 'ANY' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthenticated');
    const coupon = await newCoupon({ kind: 'percent', value: 50 });
    const cls = await createClass(ctx, otherTeacher, { priceCents: 2000 });
    for (const caller of [await student(), teacher, admin]) {
      await enrolOk(ctx, caller, cls.id);
      const res = await createIntent(ctx, caller, { couponCode: coupon.code });
      expect({ who: caller.id, status: res.statusCode }).toEqual({ who: caller.id, status: 200 });
      expect(res.json().amount).toBe(1000);
    }
  });
});
