import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/db/client.ts';
import { createTestApp, type TestContext } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  confirm,
  createCaller,
  createClass,
  createIntentOk,
  enrolOk,
  recordPayment,
  type TestClass,
} from './commerce-fixtures.ts';

/**
 * A cart line is priced from its class's current approved price when the payment intent is
 * created (DESIGN §1.3: the server prices what is on sale now), and the cart shows that price
 * before paying: a line carted before an approved price change is neither charged nor shown at
 * the old price. A proposed change not yet approved changes nothing.
 */

type Caller = Awaited<ReturnType<typeof createCaller>>;

let ctx: TestContext;
let admin: Caller;
let teacher: Caller;

beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
  [admin, teacher] = await Promise.all([createCaller(ctx, 'admin'), createCaller(ctx, 'teacher')]);
});
afterAll(async () => {
  await ctx?.close();
});

/** The teacher proposes a new price (dollars, as the form sends it); the admin approves it unless told not to. */
async function changePrice(cls: TestClass, price: number, options: { approve: boolean }) {
  const res = await ctx.app.inject({
    method: 'PATCH',
    url: `/api/classes/${cls.id}`,
    headers: teacher.headers,
    payload: { price },
  });
  expect(res.statusCode).toBe(200);
  if (!options.approve) return;
  const [revision] = await ctx.db.select().from(schema.classRevisions).where(eq(schema.classRevisions.classId, cls.id));
  // The admin decides on the version shown in the review queue (decision 027).
  const queue = await ctx.app.inject({
    method: 'GET',
    url: '/api/classes/revisions?limit=100',
    headers: admin.headers,
  });
  const shown = (queue.json() as { _id: string; version: string }[]).find((r) => r._id === revision!.id);
  const approved = await ctx.app.inject({
    method: 'PATCH',
    url: `/api/classes/revisions/${revision!.id}/approve`,
    headers: admin.headers,
    payload: { version: shown!.version },
  });
  expect(approved.statusCode).toBe(200);
}

async function cartPrices(student: Caller): Promise<Record<string, number>> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/enrolled/${encodeURIComponent(student.email)}`,
    headers: student.headers,
  });
  expect(res.statusCode).toBe(200);
  const lines = res.json() as { enrollId: string; price: number; status: string }[];
  return Object.fromEntries(lines.filter((l) => l.status === 'pending').map((l) => [l.enrollId, l.price]));
}

describe('a cart line carted before an approved price change', () => {
  it('is shown and charged at the current approved price, and paid at it', async () => {
    const student = await createCaller(ctx, 'student');
    const rising = await createClass(ctx, teacher, { priceCents: 2000 });
    const falling = await createClass(ctx, teacher, { priceCents: 3000 });
    await enrolOk(ctx, student, rising.id);
    await enrolOk(ctx, student, falling.id);
    expect(await cartPrices(student)).toEqual({ [rising.id]: 20, [falling.id]: 30 });

    await changePrice(rising, 25, { approve: true });
    await changePrice(falling, 12.5, { approve: true });
    expect(await cartPrices(student)).toEqual({ [rising.id]: 25, [falling.id]: 12.5 });

    const intent = await createIntentOk(ctx, student);
    expect(intent.amount).toBe(2500 + 1250);
    const confirmed = await confirm(ctx, student, intent.clientSecret);
    expect(confirmed.statusCode).toBe(200);
    const { transactionId } = confirmed.json() as { transactionId: string };
    const paid = await recordPayment(ctx, student, { transactionId, cartIds: intent.cartIds });
    expect(paid.statusCode).toBeLessThan(300);
    const paymentId = (paid.json() as { paymentResult: { insertedId: string } }).paymentResult.insertedId;
    const lines = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.paymentId, paymentId));
    expect(Object.fromEntries(lines.map((l) => [l.classId, l.paidCents]))).toEqual({
      [rising.id]: 2500,
      [falling.id]: 1250,
    });
    const [payment] = await ctx.db.select().from(schema.payments).where(eq(schema.payments.id, paymentId));
    expect(payment!.amountCents).toBe(3750);
  });

  it('an open intent made at the old price is replaced by one at the new price', async () => {
    const student = await createCaller(ctx, 'student');
    const cls = await createClass(ctx, teacher, { priceCents: 4000 });
    await enrolOk(ctx, student, cls.id);
    const before = await createIntentOk(ctx, student);
    expect(before.amount).toBe(4000);

    await changePrice(cls, 45, { approve: true });
    const after = await createIntentOk(ctx, student);
    expect(after.amount).toBe(4500);
    expect(after.clientSecret).not.toBe(before.clientSecret);
  });

  it('keeps the approved price while a change waits for review', async () => {
    const student = await createCaller(ctx, 'student');
    const cls = await createClass(ctx, teacher, { priceCents: 1500 });
    await enrolOk(ctx, student, cls.id);
    await changePrice(cls, 99, { approve: false });
    expect(await cartPrices(student)).toEqual({ [cls.id]: 15 });
    expect((await createIntentOk(ctx, student)).amount).toBe(1500);
  });
});
