import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { schema } from '../src/db/client.ts';
import { createTestGateway, TEST_CARDS } from '../src/modules/gateways/test-gateway.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import {
  CARDS,
  FAST_SIGNUP_ENV,
  createCaller,
  type Caller,
  buy,
  card,
  confirm,
  createClass,
  createIntent,
  createIntentOk,
  enrolOk,
  recordPayment,
} from './commerce-fixtures.ts';

let ctx: TestContext;
let teacher: TestUser;
let admin: TestUser;

beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
  [teacher, admin] = await Promise.all([createUser(ctx, 'teacher'), createUser(ctx, 'admin')]);
});
afterAll(async () => {
  await ctx?.close();
});

const newStudent = () => createCaller(ctx, 'student');

async function paymentsOf(user: Caller) {
  return ctx.db.select().from(schema.payments).where(eq(schema.payments.studentId, user.id));
}
async function enrollmentsByIds(ids: string[]) {
  return ctx.db.select().from(schema.enrollments).where(inArray(schema.enrollments.id, ids));
}
async function intentRow(clientSecret: string) {
  const [row] = await ctx.db
    .select()
    .from(schema.testGatewayIntents)
    .where(eq(schema.testGatewayIntents.clientSecret, clientSecret));
  return row!;
}

describe('POST /api/create-payment-intent', () => {
  it('charges the server’s total of the caller’s pending enrollments; a price in the body is ignored', async () => {
    const student = await newStudent();
    const a = await createClass(ctx, teacher, { priceCents: 1999 });
    const b = await createClass(ctx, teacher, { priceCents: 4550 });
    const ids = [await enrolOk(ctx, student, a.id), await enrolOk(ctx, student, b.id)];
    const res = await createIntent(ctx, student, { price: 0.5 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      clientSecret: expect.stringMatching(/^pi_test_.+_secret_.+/),
      amount: 6549,
      currency: 'usd',
      gateway: 'test',
      publishableKey: null,
      cartIds: [...ids].sort(),
      subtotalCents: 6549,
      discountCents: 0,
      coupon: null,
      lines: [
        { _id: ids[0], classId: a.id, listCents: 1999, discountCents: 0, paidCents: 1999 },
        { _id: ids[1], classId: b.id, listCents: 4550, discountCents: 0, paidCents: 4550 },
      ],
    });
    // The intent records exactly which enrollments it pays for, and for whom.
    const row = await intentRow(body.clientSecret);
    expect(row).toMatchObject({
      amountCents: 6549,
      currency: 'usd',
      customerRef: student.id,
      status: 'requires_payment_method',
    });
    expect(row.metadata.cart_count).toBe('2');
    expect(row.metadata.cart_0!.split(',').sort()).toEqual([...ids].sort());
  });

  it('gives the same cart the same intent, and a changed cart a new one', async () => {
    const student = await newStudent();
    await enrolOk(ctx, student, (await createClass(ctx, teacher)).id);
    const first = await createIntentOk(ctx, student);
    const again = await createIntentOk(ctx, student);
    expect(again.clientSecret).toBe(first.clientSecret);
    await enrolOk(ctx, student, (await createClass(ctx, teacher)).id);
    const bigger = await createIntentOk(ctx, student);
    expect(bigger.clientSecret).not.toBe(first.clientSecret);
    expect(bigger.cartIds).toHaveLength(2);
  });

  it('answers 409 for an empty cart, also after everything was paid', async () => {
    const student = await newStudent();
    const empty = await createIntent(ctx, student);
    expect(empty.statusCode).toBe(409);
    expect(empty.json().error.message).toBe(PAYMENT_MESSAGES.emptyCart);
    await buy(ctx, student, [(await createClass(ctx, teacher)).id]);
    expect((await createIntent(ctx, student)).statusCode).toBe(409);
  });

  it('never charges an earlier class again', async () => {
    const student = await newStudent();
    const first = await createClass(ctx, teacher, { priceCents: 1000 });
    const second = await createClass(ctx, teacher, { priceCents: 2500 });
    await buy(ctx, student, [first.id]);
    await enrolOk(ctx, student, first.id); // Pay Now on a class already paid: no new line.
    await enrolOk(ctx, student, second.id);
    const intent = await createIntentOk(ctx, student);
    expect(intent.amount).toBe(2500);
    expect(intent.cartIds).toHaveLength(1);
  });
});

describe('the test gateway’s cards', () => {
  async function freshCart(priceCents = 3000) {
    const student = await newStudent();
    const cls = await createClass(ctx, teacher, { priceCents });
    const enrollmentId = await enrolOk(ctx, student, cls.id);
    const intent = await createIntentOk(ctx, student);
    return { student, cls, enrollmentId, intent };
  }

  it('4242 4242 4242 4242 succeeds and the charge is recorded with its enrollments paid', async () => {
    const { student, cls, enrollmentId, intent } = await freshCart(3000);
    const res = await confirm(ctx, student, intent.clientSecret, card(CARDS.succeeds));
    expect(res.statusCode).toBe(200);
    const { status, transactionId } = res.json();
    expect(status).toBe('succeeded');
    expect(transactionId).toMatch(/^pi_test_/);
    expect((await intentRow(intent.clientSecret)).status).toBe('succeeded');

    const [payment] = await paymentsOf(student);
    expect(payment).toMatchObject({
      email: student.email,
      amountCents: 3000,
      currency: 'usd',
      gateway: 'test',
      transactionId,
      cartIds: [enrollmentId],
      menuItemIds: [cls.id],
      status: 'succeeded',
    });
    const [enrollment] = await enrollmentsByIds([enrollmentId]);
    expect(enrollment).toMatchObject({ status: 'paid', paymentId: payment!.id });
    expect(enrollment!.paidAt).toBeInstanceOf(Date);

    // The browser's POST /api/payments then answers the same payment.
    const recorded = await recordPayment(ctx, student, {
      transactionId,
      cartIds: intent.cartIds,
      price: 0.01,
      email: 'x@example.test',
    });
    expect(recorded.statusCode).toBe(200);
    expect(recorded.json()).toEqual({ paymentResult: { insertedId: payment!.id } });
  });

  it.each([
    [CARDS.declined, 'card_declined', PAYMENT_MESSAGES.declined],
    [CARDS.insufficientFunds, 'insufficient_funds', PAYMENT_MESSAGES.insufficientFunds],
  ])('%s is a 402 %s; nothing is recorded and the intent can be paid again', async (number, code, message) => {
    const { student, enrollmentId, intent } = await freshCart();
    const res = await confirm(ctx, student, intent.clientSecret, card(number));
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toEqual({ code, message });
    expect(await intentRow(intent.clientSecret)).toMatchObject({ status: 'requires_payment_method', lastError: code });
    expect(await paymentsOf(student)).toHaveLength(0);
    expect((await enrollmentsByIds([enrollmentId]))[0]!.status).toBe('pending');

    const retry = await confirm(ctx, student, intent.clientSecret, card(CARDS.succeeds));
    expect(retry.json().status).toBe('succeeded');
    expect(await paymentsOf(student)).toHaveLength(1);
  });

  it('declines a valid number that is not a test card', async () => {
    const { student, intent } = await freshCart();
    const res = await confirm(ctx, student, intent.clientSecret, card('4111 1111 1111 1111'));
    expect(res.statusCode).toBe(402);
    expect(res.json().error.code).toBe('card_declined');
  });

  it('4000 0025 0000 3155 requires authentication; failing it declines, approving it pays', async () => {
    const { student, intent } = await freshCart();
    const first = await confirm(ctx, student, intent.clientSecret, card(CARDS.requiresAuthentication));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'requires_action' });
    expect(await paymentsOf(student)).toHaveLength(0);

    const authenticate = (approve: boolean) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/test-gateway/authenticate',
        headers: student.headers,
        payload: { clientSecret: intent.clientSecret, approve },
      });
    const failed = await authenticate(false);
    expect(failed.statusCode).toBe(402);
    expect(failed.json().error).toEqual({ code: 'card_declined', message: PAYMENT_MESSAGES.authenticationFailed });
    expect((await intentRow(intent.clientSecret)).status).toBe('requires_payment_method');
    expect(await paymentsOf(student)).toHaveLength(0);
    // Nothing waits for authentication now.
    expect((await authenticate(true)).statusCode).toBe(409);

    expect((await confirm(ctx, student, intent.clientSecret, card(CARDS.requiresAuthentication))).json().status).toBe(
      'requires_action',
    );
    const approved = await authenticate(true);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toEqual({ status: 'succeeded', transactionId: expect.stringMatching(/^pi_test_/) });
    expect(await paymentsOf(student)).toHaveLength(1);
  });

  it.each([
    ['a Luhn failure', card('4242 4242 4242 4241'), 'cardNumber', PAYMENT_MESSAGES.cardNumber],
    ['letters', card('4242 4242 abcd 4242'), 'cardNumber', PAYMENT_MESSAGES.cardNumber],
    ['too few digits', card('4242 4242'), 'cardNumber', PAYMENT_MESSAGES.cardNumber],
    ['an expired date', card(CARDS.succeeds, { expMonth: 1, expYear: 2020 }), 'expYear', PAYMENT_MESSAGES.expired],
    ['last month', card(CARDS.succeeds, lastMonth()), 'expYear', PAYMENT_MESSAGES.expired],
    ['month 13', card(CARDS.succeeds, { expMonth: 13 }), 'expMonth', PAYMENT_MESSAGES.expiry],
    ['a two-letter CVC', card(CARDS.succeeds, { cvc: 'ab' }), 'cvc', PAYMENT_MESSAGES.cvc],
    ['a four-digit CVC on a Visa', card(CARDS.succeeds, { cvc: '1234' }), 'cvc', PAYMENT_MESSAGES.cvc],
  ])('rejects %s with 400 and a clear message', async (_label, form, field, message) => {
    const { student, intent } = await freshCart();
    const res = await confirm(ctx, student, intent.clientSecret, form);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_error');
    expect(res.json().error.message).toBe(message);
    expect(res.json().error.fields[field]).toBe(message);
    expect((await intentRow(intent.clientSecret)).status).toBe('requires_payment_method');
  });

  it('accepts two-digit years and card numbers typed with spaces or dashes', async () => {
    const { student, intent } = await freshCart();
    const year = (new Date().getUTCFullYear() + 1) % 100;
    const res = await confirm(ctx, student, intent.clientSecret, card('4242-4242-4242-4242', { expYear: year }));
    expect(res.json().status).toBe('succeeded');
  });

  it('answers 404 for an unknown client secret and 403 for someone else’s', async () => {
    const { intent } = await freshCart();
    const stranger = await newStudent();
    expect((await confirm(ctx, stranger, 'pi_test_nope_secret_nope')).statusCode).toBe(404);
    const res = await confirm(ctx, stranger, intent.clientSecret);
    expect(res.statusCode).toBe(403);
    expect((await intentRow(intent.clientSecret)).status).toBe('requires_payment_method');
  });

  it('refuses to charge a cart that changed after the intent was made', async () => {
    const { student, enrollmentId, intent } = await freshCart();
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/enrolled/${enrollmentId}`,
      headers: student.headers,
    });
    expect(removed.statusCode).toBe(200);
    const res = await confirm(ctx, student, intent.clientSecret);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.cartChanged);
    expect((await intentRow(intent.clientSecret)).status).toBe('requires_payment_method');
    expect(await paymentsOf(student)).toHaveLength(0);
  });

  it('charges once when the same card is confirmed twice at the same time', async () => {
    const { student, intent } = await freshCart();
    const results = await Promise.all([
      confirm(ctx, student, intent.clientSecret),
      confirm(ctx, student, intent.clientSecret),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(results.map((r) => r.json().transactionId)).toEqual([
      results[0]!.json().transactionId,
      results[0]!.json().transactionId,
    ]);
    expect(await paymentsOf(student)).toHaveLength(1);
  });
});

function lastMonth() {
  const now = new Date();
  const month = now.getUTCMonth(); // 0-based: this is last month's 1-based number, or 0 in January.
  return month === 0
    ? { expMonth: 12, expYear: now.getUTCFullYear() - 1 }
    : { expMonth: month, expYear: now.getUTCFullYear() };
}

describe('POST /api/payments', () => {
  /**
   * A charge the gateway made whose recording never happened (the browser closed between the
   * card and the record call): the test gateway's own confirmCard, without our route around it.
   */
  async function chargedButUnrecorded(prices: number[]) {
    const student = await newStudent();
    const classes = await Promise.all(prices.map((priceCents) => createClass(ctx, teacher, { priceCents })));
    for (const cls of classes) await enrolOk(ctx, student, cls.id);
    const intent = await createIntentOk(ctx, student);
    const gateway = createTestGateway(ctx.db);
    const stored = await gateway.findIntentByClientSecret(intent.clientSecret);
    expect(await gateway.confirmCard(stored!.id, TEST_CARDS.succeeds)).toEqual({ status: 'succeeded' });
    return { student, classes, intent, transactionId: stored!.id };
  }

  it('records the payment once: the same transactionId again answers the same insertedId', async () => {
    const { student, classes, intent, transactionId } = await chargedButUnrecorded([1000, 2345]);
    const first = await recordPayment(ctx, student, {
      transactionId,
      cartIds: intent.cartIds,
      price: 0.01,
      status: 'pending',
    });
    expect(first.statusCode).toBe(201);
    const insertedId = first.json().paymentResult.insertedId;
    const second = await recordPayment(ctx, student, { transactionId, cartIds: [...intent.cartIds].reverse() });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ paymentResult: { insertedId } });

    const payments = await paymentsOf(student);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ id: insertedId, amountCents: 3345, status: 'succeeded', transactionId });
    expect([...payments[0]!.menuItemIds].sort()).toEqual(classes.map((c) => c.id).sort());
    const lines = await enrollmentsByIds(intent.cartIds);
    expect(lines.every((l) => l.status === 'paid' && l.paymentId === insertedId)).toBe(true);
  });

  it('records exactly one payment for two concurrent calls, both answering its id', async () => {
    const { student, intent, transactionId } = await chargedButUnrecorded([1500, 2500, 990]);
    const results = await Promise.all([
      recordPayment(ctx, student, { transactionId, cartIds: intent.cartIds }),
      recordPayment(ctx, student, { transactionId, cartIds: intent.cartIds }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    const ids = results.map((r) => r.json().paymentResult.insertedId);
    expect(ids[0]).toBe(ids[1]);
    const payments = await paymentsOf(student);
    expect(payments.map((p) => p.id)).toEqual([ids[0]]);
    expect(payments[0]!.amountCents).toBe(4990);
  });

  it('refuses cartIds that differ from what the intent covers (409), before and after recording', async () => {
    const { student, intent, transactionId } = await chargedButUnrecorded([1000, 2000]);
    const extra = await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 500 })).id);
    for (const cartIds of [[intent.cartIds[0]!], [...intent.cartIds, extra]]) {
      const res = await recordPayment(ctx, student, { transactionId, cartIds });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe(PAYMENT_MESSAGES.cartMismatch);
    }
    expect(await paymentsOf(student)).toHaveLength(0);
    expect((await recordPayment(ctx, student, { transactionId, cartIds: intent.cartIds })).statusCode).toBe(201);
    const after = await recordPayment(ctx, student, { transactionId, cartIds: [...intent.cartIds, extra] });
    expect(after.statusCode).toBe(409);
    expect(await paymentsOf(student)).toHaveLength(1);
    expect((await enrollmentsByIds([extra]))[0]!.status).toBe('pending');
  });

  it('refuses a transaction that has not succeeded (409) or is unknown (404)', async () => {
    const student = await newStudent();
    await enrolOk(ctx, student, (await createClass(ctx, teacher)).id);
    const intent = await createIntentOk(ctx, student);
    const { id } = (await createTestGateway(ctx.db).findIntentByClientSecret(intent.clientSecret))!;
    const res = await recordPayment(ctx, student, { transactionId: id, cartIds: intent.cartIds });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.notSucceeded);
    // A declined attempt does not change that.
    await confirm(ctx, student, intent.clientSecret, card(CARDS.declined));
    expect((await recordPayment(ctx, student, { transactionId: id, cartIds: intent.cartIds })).statusCode).toBe(409);
    expect(
      (await recordPayment(ctx, student, { transactionId: 'pi_test_unknown', cartIds: intent.cartIds })).statusCode,
    ).toBe(404);
    expect(await paymentsOf(student)).toHaveLength(0);
  });

  it('refuses someone else’s transaction with 403', async () => {
    const { intent, transactionId } = await chargedButUnrecorded([1000]);
    const thief = await newStudent();
    const res = await recordPayment(ctx, thief, { transactionId, cartIds: intent.cartIds });
    expect(res.statusCode).toBe(403);
    expect(await paymentsOf(thief)).toHaveLength(0);
  });

  it('rolls back when a line was removed after the charge: no payment, nothing paid, the charge refunded', async () => {
    const { student, intent, transactionId } = await chargedButUnrecorded([1000, 2000]);
    const gone = intent.cartIds[1]!;
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/enrolled/${gone}`, headers: student.headers })).statusCode,
    ).toBe(200);
    const res = await recordPayment(ctx, student, { transactionId, cartIds: intent.cartIds });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.refunded);
    expect(await paymentsOf(student)).toHaveLength(0);
    expect((await enrollmentsByIds([intent.cartIds[0]!]))[0]!.status).toBe('pending');
    // Money taken for a cart that cannot be recorded is given back (decision 010), once.
    expect((await intentRow(intent.clientSecret)).refundedAt).not.toBeNull();
    const again = await recordPayment(ctx, student, { transactionId, cartIds: intent.cartIds });
    expect(again.json().error.message).toBe(PAYMENT_MESSAGES.refunded);
  });

  it('validates the body (400) and requires sign-in (401)', async () => {
    const student = await newStudent();
    expect((await recordPayment(ctx, student, { transactionId: '', cartIds: [] })).statusCode).toBe(400);
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments',
      payload: { transactionId: 'pi_x', cartIds: ['a'] },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/payments/:email', () => {
  it('lists the student’s payments newest first with the classes paid', async () => {
    const student = await newStudent();
    const a = await createClass(ctx, teacher, { priceCents: 1000, title: 'Alpha' });
    const b = await createClass(ctx, teacher, { priceCents: 2050, title: 'Beta' });
    const c = await createClass(ctx, teacher, { priceCents: 700, title: 'Gamma' });
    const first = await buy(ctx, student, [a.id, b.id]);
    const second = await buy(ctx, student, [c.id]);
    const res = await ctx.app.inject({
      url: `/api/payments/${encodeURIComponent(student.email)}`,
      headers: student.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    const list = res.json();
    expect(list.map((p: { _id: string }) => p._id)).toEqual([second.paymentId, first.paymentId]);
    expect(list[1]).toEqual({
      _id: first.paymentId,
      email: student.email,
      price: 30.5,
      transactionId: first.transactionId,
      data: expect.any(String),
      cartIds: [...first.intent.cartIds].sort(),
      menuItemIds: expect.arrayContaining([a.id, b.id]),
      status: 'succeeded',
      classes: [
        { _id: a.id, title: 'Alpha', price: 10 },
        { _id: b.id, title: 'Beta', price: 20.5 },
      ],
    });
    const asAdmin = await ctx.app.inject({
      url: `/api/payments/${encodeURIComponent(student.email)}?limit=1`,
      headers: admin.headers,
    });
    expect(asAdmin.json().map((p: { _id: string }) => p._id)).toEqual([second.paymentId]);
  });
});

describe('OpenAPI', () => {
  it('documents every enrollment, payment and review operation with a summary', async () => {
    const spec = (await ctx.app.inject('/api/docs/json')).json() as {
      paths: Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] }>>;
    };
    const operations = Object.values(spec.paths).flatMap((methods) => Object.values(methods));
    const byId = new Map(operations.map((op) => [op.operationId, op]));
    for (const id of [
      'enrollInClass',
      'listEnrollments',
      'removeEnrollment',
      'createPaymentIntent',
      'confirmTestCard',
      'authenticateTestCard',
      'recordPayment',
      'listPayments',
      'listReviews',
      'saveReview',
    ]) {
      expect(byId.get(id)?.summary, id).toMatch(/\(.+\)$/);
      expect(byId.get(id)?.tags?.length, id).toBe(1);
    }
  });
});
