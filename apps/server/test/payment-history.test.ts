import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PaymentHistoryEntry, PaymentReceipt } from '@skillhive/shared/contracts/payments';
import { schema } from '../src/db/client.ts';
import { createTestApp, type TestContext } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  createCaller,
  createClass,
  expectBadPagingRefused,
  type TestClass,
} from './commerce-fixtures.ts';

/**
 * A person's own payment history and receipts: GET /api/payments/me and
 * GET /api/payments/me/:id. Who may call them, what bad input gets, paging, and that the amounts
 * are what the gateway charged, to the cent.
 */

type Caller = Awaited<ReturnType<typeof createCaller>>;
type Inject = TestContext['app']['inject'];
type Response = Awaited<ReturnType<Inject>>;

let ctx: TestContext;
let teacher: Caller;
beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
  teacher = await createCaller(ctx, 'teacher');
});
afterAll(async () => {
  await ctx?.close();
});

const get = (caller: Pick<Caller, 'headers'> | null, url: string): Promise<Response> =>
  ctx.app.inject({ method: 'GET', url, headers: caller?.headers ?? {} });
const ids = (res: Response) => (res.json() as { _id: string }[]).map((p) => p._id);

/** What the test gateway charged for a transaction, in cents (its own record of the intent). */
async function chargedCents(transactionId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ amountCents: schema.testGatewayIntents.amountCents })
    .from(schema.testGatewayIntents)
    .where(eq(schema.testGatewayIntents.id, transactionId));
  return row!.amountCents;
}

describe('permission matrix (anonymous, the student, another student, a teacher, an admin)', () => {
  type Role = 'student' | 'otherStudent' | 'teacher' | 'admin';
  const cast = {} as Record<Role, Caller>;
  const paymentOf = {} as Record<Role, string>;

  beforeAll(async () => {
    const cls = await createClass(ctx, teacher, { priceCents: 1500 });
    for (const role of ['student', 'otherStudent', 'teacher', 'admin'] as const) {
      cast[role] = await createCaller(ctx, role === 'otherStudent' ? 'student' : role);
      paymentOf[role] = (await buy(ctx, cast[role], [cls.id])).paymentId;
    }
  });

  it('answers 401 unauthenticated to an anonymous caller', async () => {
    for (const url of ['/api/payments/me', `/api/payments/me/${paymentOf.student}`]) {
      const res = await get(null, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error.code).toBe('unauthenticated');
    }
  });

  it.each(['student', 'otherStudent', 'teacher', 'admin'] as const)(
    'lists only the %s’s own payments, and opens only their own receipt',
    async (role) => {
      const list = await get(cast[role], '/api/payments/me');
      expect(list.statusCode).toBe(200);
      expect(list.headers['x-total-count']).toBe('1');
      expect(ids(list)).toEqual([paymentOf[role]]);

      const own = await get(cast[role], `/api/payments/me/${paymentOf[role]}`);
      expect(own.statusCode).toBe(200);
      expect((own.json() as PaymentReceipt).buyer.email).toBe(cast[role].email);

      for (const other of Object.keys(paymentOf) as Role[]) {
        if (other === role) continue;
        // Another person's payment is not found, not forbidden: an id tells nothing (an admin neither).
        const res = await get(cast[role], `/api/payments/me/${paymentOf[other]}`);
        expect(res.statusCode, `${role} → ${other}`).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
    },
  );

  it('ignores a query string naming someone else', async () => {
    const res = await get(cast.student, `/api/payments/me?email=${encodeURIComponent(cast.otherStudent.email)}`);
    expect(ids(res)).toEqual([paymentOf.student]);
  });
});

describe('bad input', () => {
  let student: Caller;
  beforeAll(async () => {
    student = await createCaller(ctx, 'student');
  });

  it('answers 404 for an unknown payment or an id that is not one, 400 for an id too long', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'abc', '1%20or%201=1', "'", 'x'.repeat(64)]) {
      const res = await get(student, `/api/payments/me/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const tooLong = await get(student, `/api/payments/me/${'x'.repeat(65)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('validation_error');
  });

  it('answers 400 with the field for bad paging', async () => {
    await expectBadPagingRefused((query) => get(student, `/api/payments/me${query}`));
  });

  it('answers an empty list with a total of 0 to someone who never paid', async () => {
    const res = await get(student, '/api/payments/me');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });
});

describe('the history and the receipt', () => {
  let student: Caller;
  let classes: TestClass[];
  const bought: Awaited<ReturnType<typeof buy>>[] = [];

  beforeAll(async () => {
    student = await createCaller(ctx, 'student');
    classes = [
      await createClass(ctx, teacher, { priceCents: 1999, title: 'Watercolour basics' }),
      await createClass(ctx, teacher, { priceCents: 4550, title: 'Applied statistics' }),
      await createClass(ctx, teacher, { priceCents: 51, title: 'Cheapest class' }),
      await createClass(ctx, teacher, { priceCents: 12_345, title: 'Bookkeeping' }),
    ];
    bought.push(await buy(ctx, student, [classes[0]!.id, classes[1]!.id]));
    bought.push(await buy(ctx, student, [classes[2]!.id]));
    bought.push(await buy(ctx, student, [classes[3]!.id]));
  });

  it('pages the payments newest first, with the total in X-Total-Count and beyond the end empty', async () => {
    const newestFirst = bought.map((b) => b.paymentId).reverse();
    const first = await get(student, '/api/payments/me?limit=2');
    expect(first.headers['x-total-count']).toBe('3');
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    const second = await get(student, '/api/payments/me?limit=2&page=2');
    expect(ids(second)).toEqual(newestFirst.slice(2));
    const beyond = await get(student, '/api/payments/me?limit=2&page=3');
    expect(beyond.json()).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('3');
  });

  it('shows what the gateway charged, to the cent, and each class at its price', async () => {
    const list = (await get(student, '/api/payments/me')).json() as PaymentHistoryEntry[];
    for (const purchase of bought) {
      const entry = list.find((p) => p._id === purchase.paymentId)!;
      expect(entry.transactionId).toBe(purchase.transactionId);
      expect(entry.totalCents).toBe(await chargedCents(purchase.transactionId));
      expect(entry.totalCents).toBe(purchase.intent.amount);
      expect(entry.lines.reduce((sum, line) => sum + line.amountCents, 0)).toBe(entry.totalCents);
    }
    const pair = list.find((p) => p._id === bought[0]!.paymentId)!;
    expect(pair).toEqual({
      _id: bought[0]!.paymentId,
      transactionId: bought[0]!.transactionId,
      paidAt: expect.any(String),
      status: 'succeeded',
      currency: 'usd',
      totalCents: 6549,
      refundedCents: 0,
      // The test gateway reports the card it charged, as Stripe's charge does.
      method: { gateway: 'test', brand: 'visa', last4: '4242' },
      coupon: null,
      lines: [
        {
          _id: expect.any(String),
          classId: classes[1]!.id,
          title: 'Applied statistics',
          amountCents: 4550,
          listCents: 4550,
          status: 'paid',
        },
        {
          _id: expect.any(String),
          classId: classes[0]!.id,
          title: 'Watercolour basics',
          amountCents: 1999,
          listCents: 1999,
          status: 'paid',
        },
      ],
      refunds: [],
    });
    expect(pair.lines.map((line) => line._id).sort()).toEqual([...bought[0]!.intent.cartIds].sort());
  });

  it('gives a receipt with the seller, the buyer and the same payment as the list', async () => {
    const [entry] = (await get(student, '/api/payments/me?limit=1')).json() as PaymentHistoryEntry[];
    const res = await get(student, `/api/payments/me/${bought[2]!.paymentId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...entry,
      seller: { name: 'SkillHive' },
      buyer: { name: student.name, email: student.email },
    });
    const [stored] = await ctx.db.select().from(schema.payments).where(eq(schema.payments.id, bought[2]!.paymentId));
    expect(entry!.paidAt).toBe(stored!.data.toISOString());
    expect(entry!.totalCents).toBe(12_345);
  });

  it('shows an admin’s refund of one line: the line is refunded, the refund listed, refundedCents its amount', async () => {
    const purchase = bought[0]!;
    const before = (await get(student, `/api/payments/me/${purchase.paymentId}`)).json() as PaymentReceipt;
    const line = before.lines.find((l) => l.title === 'Applied statistics')!;
    const admin = await createCaller(ctx, 'admin');
    const refunded = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/payments/${purchase.paymentId}/refunds`,
      headers: admin.headers,
      payload: { enrollmentId: line._id, reason: 'Double booking' },
    });
    expect(refunded.statusCode).toBe(200);
    // A refused attempt at the gateway leaves a failed row (refunds.service); the history leaves it out.
    await ctx.db.insert(schema.refunds).values({
      paymentId: purchase.paymentId,
      enrollmentId: before.lines.find((l) => l.title === 'Watercolour basics')!._id,
      amountCents: 1999,
      currency: 'usd',
      reason: 'Refused by the bank',
      status: 'failed',
    });

    const receipt = (await get(student, `/api/payments/me/${purchase.paymentId}`)).json() as PaymentReceipt;
    expect(receipt.totalCents).toBe(6549);
    expect(receipt.refundedCents).toBe(4550);
    expect(receipt.lines.map((l) => [l.title, l.amountCents, l.status])).toEqual([
      ['Applied statistics', 4550, 'refunded'],
      ['Watercolour basics', 1999, 'paid'],
    ]);
    expect(receipt.refunds).toEqual([
      {
        _id: expect.any(String),
        enrollmentId: line._id,
        amountCents: 4550,
        reason: 'Double booking',
        status: 'succeeded',
        createdAt: expect.any(String),
        completedAt: expect.any(String),
      },
    ]);
    const [listed] = ((await get(student, '/api/payments/me')).json() as PaymentHistoryEntry[]).filter(
      (p) => p._id === purchase.paymentId,
    );
    expect(listed).toEqual({ ...receipt, seller: undefined, buyer: undefined });
  });
});
