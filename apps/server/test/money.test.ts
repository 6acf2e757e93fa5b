import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { schema } from '../src/db/client.ts';
import { createReconciler, nextCheckDelayMs } from '../src/modules/checkout/reconciler.ts';
import { createLiveNotifications } from '../src/modules/notifications/live.ts';
import { createTestGateway, TEST_CARDS } from '../src/modules/gateways/test-gateway.ts';
import { createTestApp, createUser, latestMail, type TestContext, type TestUser } from './harness.ts';
import {
  CARDS,
  FAST_SIGNUP_ENV,
  buy,
  card,
  confirm,
  createCaller,
  createClass,
  createIntent,
  createIntentOk,
  enroll,
  enrolOk,
  recordPayment,
  type Caller,
  type ClassStatus,
  type TestClass,
} from './commerce-fixtures.ts';

/**
 * Money that holds (decision 010): only live classes take money, one charge per cart, and every
 * charge the gateway made ends as a payment or a refund — also when nobody comes back for it.
 */

let ctx: TestContext;
let teacher: TestUser;

beforeAll(async () => {
  // The reconciler is run by hand here (runOnce), never by its timer.
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV, RECONCILE_INTERVAL_SECONDS: '0' });
  teacher = await createUser(ctx, 'teacher');
});
afterAll(async () => {
  await ctx?.close();
});

const newStudent = () => createCaller(ctx, 'student');

async function setClassStatus(cls: TestClass, status: ClassStatus) {
  await ctx.db.update(schema.classes).set({ status }).where(eq(schema.classes.id, cls.id));
}

async function paymentsOf(user: Caller) {
  return ctx.db.select().from(schema.payments).where(eq(schema.payments.studentId, user.id));
}

async function enrollmentsByIds(ids: string[]) {
  return ctx.db.select().from(schema.enrollments).where(inArray(schema.enrollments.id, ids));
}

async function gatewayIntentsOf(user: Caller) {
  return ctx.db.select().from(schema.testGatewayIntents).where(eq(schema.testGatewayIntents.customerRef, user.id));
}

async function cartOf(user: Caller) {
  const res = await ctx.app.inject({
    url: `/api/enrolled/${encodeURIComponent(user.email)}?status=pending`,
    headers: user.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { _id: string; enrollId: string; available: boolean }[];
}

/**
 * The books of one student, as the gateway and we know them: every charge the gateway made is a
 * recorded payment or was refunded, never both and never neither; no enrollment is paid twice.
 */
async function expectBooksBalance(user: Caller) {
  const charges = (await gatewayIntentsOf(user)).filter((i) => i.status === 'succeeded');
  const payments = await paymentsOf(user);
  const paidBy = new Set(payments.map((p) => p.transactionId));
  for (const charge of charges) {
    const recorded = paidBy.has(charge.id);
    const refunded = charge.refundedAt !== null;
    expect({ charge: charge.id, recorded, refunded }).toEqual({
      charge: charge.id,
      recorded: !refunded,
      refunded: !recorded,
    });
  }
  const lines = payments.flatMap((p) => p.cartIds);
  expect(new Set(lines).size).toBe(lines.length);
  return { charges, payments, kept: charges.filter((c) => c.refundedAt === null) };
}

/** A charge made at the gateway whose recording never happened (the process died in between). */
async function chargeBehindOurBack(clientSecret: string) {
  const gateway = createTestGateway(ctx.db);
  const stored = await gateway.findIntentByClientSecret(clientSecret);
  expect(await gateway.confirmCard(stored!.id, TEST_CARDS.succeeds)).toEqual({ status: 'succeeded' });
  return stored!.id;
}

describe('money only for live classes (finding 1)', () => {
  for (const status of ['archived', 'rejected', 'pending'] as const) {
    it(`a pending line of a ${status} class is shown as unavailable and left out of the total`, async () => {
      const student = await newStudent();
      const gone = await createClass(ctx, teacher, { priceCents: 1000 });
      const live = await createClass(ctx, teacher, { priceCents: 2500 });
      const goneLine = await enrolOk(ctx, student, gone.id);
      const liveLine = await enrolOk(ctx, student, live.id);
      await setClassStatus(gone, status);

      const cart = await cartOf(student);
      expect(cart.find((l) => l._id === goneLine)!.available).toBe(false);
      expect(cart.find((l) => l._id === liveLine)!.available).toBe(true);

      const intent = await createIntentOk(ctx, student);
      expect(intent.amount).toBe(2500);
      expect(intent.cartIds).toEqual([liveLine]);

      // The student can take the unavailable line out of the cart.
      const removed = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/enrolled/${goneLine}`,
        headers: student.headers,
      });
      expect(removed.statusCode).toBe(200);
      expect((await cartOf(student)).map((l) => l._id)).toEqual([liveLine]);
    });
  }

  it('refuses an intent when every pending line is of a class that is gone, and the line can be removed', async () => {
    const student = await newStudent();
    const gone = await createClass(ctx, teacher, { priceCents: 1000 });
    const line = await enrolOk(ctx, student, gone.id);
    await setClassStatus(gone, 'archived');
    const res = await createIntent(ctx, student);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.nothingPayable);
    const removed = await ctx.app.inject({ method: 'DELETE', url: `/api/enrolled/${line}`, headers: student.headers });
    expect(removed.statusCode).toBe(200);
    expect((await createIntent(ctx, student)).json().error.message).toBe(PAYMENT_MESSAGES.emptyCart);
  });

  it('a class deleted by its teacher after checkout started: the card is not charged', async () => {
    const student = await newStudent();
    const cls = await createClass(ctx, teacher, { priceCents: 1500 });
    // Someone paid already, so deleting archives the class (DESIGN §4).
    await buy(ctx, await newStudent(), [cls.id]);
    await enrolOk(ctx, student, cls.id);
    const intent = await createIntentOk(ctx, student);
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/classes/${cls.id}`, headers: teacher.headers });
    expect(deleted.statusCode).toBe(200);

    const res = await confirm(ctx, student, intent.clientSecret);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.notPayable);
    const [charge] = await gatewayIntentsOf(student);
    expect(charge!.status).toBe('requires_payment_method');
    expect(await paymentsOf(student)).toHaveLength(0);
  });

  it('a class withdrawn during the 3-D Secure step: approving does not charge', async () => {
    const student = await newStudent();
    const cls = await createClass(ctx, teacher, { priceCents: 1500 });
    await enrolOk(ctx, student, cls.id);
    const intent = await createIntentOk(ctx, student);
    const first = await confirm(ctx, student, intent.clientSecret, card(CARDS.requiresAuthentication));
    expect(first.json().status).toBe('requires_action');
    await setClassStatus(cls, 'rejected');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/test-gateway/authenticate',
      headers: student.headers,
      payload: { clientSecret: intent.clientSecret, approve: true },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.notPayable);
    expect((await gatewayIntentsOf(student))[0]!.status).toBe('requires_action');
  });

  it('a charge that arrives for an archived class anyway is refunded, not fulfilled', async () => {
    const student = await newStudent();
    const cls = await createClass(ctx, teacher, { priceCents: 1500 });
    const line = await enrolOk(ctx, student, cls.id);
    const intent = await createIntentOk(ctx, student);
    await setClassStatus(cls, 'archived');
    const transactionId = await chargeBehindOurBack(intent.clientSecret);

    const res = await recordPayment(ctx, student, { transactionId, cartIds: intent.cartIds });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.refunded);
    expect((await enrollmentsByIds([line]))[0]!.status).toBe('pending');
    const { charges, payments } = await expectBooksBalance(student);
    expect(payments).toHaveLength(0);
    expect(charges[0]!.refundedAt).not.toBeNull();
    // The student is told, by a mail queued with the decision to refund.
    const refundMail = await latestMail(ctx, student.email, 'refund');
    expect(refundMail.subject).toBe('Your payment is being refunded — SkillHive');
    expect(refundMail.text).toContain('we are refunding the $15.00 you paid');
    expect(refundMail.text).toContain(`Transaction: ${transactionId}`);
  });
});

describe('one charge per cart (finding 2)', () => {
  it('a newer overlapping intent cancels the older one: paying both tabs at once charges once', async () => {
    for (let round = 0; round < 4; round++) {
      const student = await newStudent();
      const a = await createClass(ctx, teacher, { priceCents: 1000 });
      const b = await createClass(ctx, teacher, { priceCents: 2000 });
      await enrolOk(ctx, student, a.id);
      const tab1 = await createIntentOk(ctx, student); // {A}
      await enrolOk(ctx, student, b.id);
      const tab2 = await createIntentOk(ctx, student); // {A, B}
      expect(tab2.cartIds).toHaveLength(2);

      const [first, second] = await Promise.all([
        confirm(ctx, student, tab1.clientSecret),
        confirm(ctx, student, tab2.clientSecret),
      ]);
      expect(first.statusCode).toBe(409);
      expect(first.json().error.message).toBe(PAYMENT_MESSAGES.intentCanceled);
      expect(second.statusCode).toBe(200);
      const { kept, payments } = await expectBooksBalance(student);
      expect(kept).toHaveLength(1);
      expect(payments).toHaveLength(1);
      expect(payments[0]!.amountCents).toBe(3000);
    }
  });

  it('two tabs checking out overlapping carts at the same instant: never a kept charge without a payment', async () => {
    for (let round = 0; round < 6; round++) {
      const student = await newStudent();
      const a = await createClass(ctx, teacher, { priceCents: 1000 });
      const b = await createClass(ctx, teacher, { priceCents: 2000 });
      await enrolOk(ctx, student, a.id);
      const checkout = async (addB: boolean) => {
        if (addB) await enrolOk(ctx, student, b.id);
        const intent = await createIntent(ctx, student);
        if (intent.statusCode !== 200) return intent.statusCode;
        return (await confirm(ctx, student, intent.json().clientSecret)).statusCode;
      };
      const statuses = await Promise.all([checkout(false), checkout(true)]);
      for (const status of statuses) expect([200, 409]).toContain(status);

      // Whatever interleaving happened, the reconciler leaves nothing unsettled.
      await ctx.reconciler.runOnce();
      const { kept, payments } = await expectBooksBalance(student);
      expect(kept.length).toBe(payments.length);
      const paidLines = (
        await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.studentId, student.id))
      ).filter((e) => e.status === 'paid');
      expect(paidLines.reduce((sum, e) => sum + e.priceCents, 0)).toBe(
        payments.reduce((sum, p) => sum + p.amountCents, 0),
      );
    }
  });

  it('refuses to charge an intent whose lines another intent reserved', async () => {
    const student = await newStudent();
    const a = await createClass(ctx, teacher, { priceCents: 1000 });
    const line = await enrolOk(ctx, student, a.id);
    const intent = await createIntentOk(ctx, student);
    // As if another intent had taken the line (a create that has not cancelled this one yet).
    await ctx.db.update(schema.enrollments).set({ reservedBy: 'pi_other' }).where(eq(schema.enrollments.id, line));
    const res = await confirm(ctx, student, intent.clientSecret);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.reservedElsewhere);
    expect((await gatewayIntentsOf(student))[0]!.status).toBe('requires_payment_method');
  });

  it('a double click on checkout answers one intent', async () => {
    const student = await newStudent();
    await enrolOk(ctx, student, (await createClass(ctx, teacher)).id);
    const [x, y] = await Promise.all([createIntentOk(ctx, student), createIntentOk(ctx, student)]);
    expect(x.clientSecret).toBe(y.clientSecret);
    const live = (await gatewayIntentsOf(student)).filter((i) => i.status !== 'canceled');
    expect(live).toHaveLength(1);
  });
});

describe('the reconciler (finding 3)', () => {
  it('fulfils a charge the gateway made but nobody recorded', async () => {
    const student = await newStudent();
    const a = await createClass(ctx, teacher, { priceCents: 1234 });
    const b = await createClass(ctx, teacher, { priceCents: 4321 });
    await enrolOk(ctx, student, a.id);
    await enrolOk(ctx, student, b.id);
    const intent = await createIntentOk(ctx, student);
    const transactionId = await chargeBehindOurBack(intent.clientSecret);
    expect(await paymentsOf(student)).toHaveLength(0);

    const report = await ctx.reconciler.runOnce();
    expect(report.paid).toBeGreaterThanOrEqual(1);
    const [payment] = await paymentsOf(student);
    expect(payment).toMatchObject({ transactionId, amountCents: 5555, status: 'succeeded' });
    expect((await enrollmentsByIds(intent.cartIds)).map((e) => e.status)).toEqual(['paid', 'paid']);
    // The student's later record call answers the same payment.
    const again = await recordPayment(ctx, student, { transactionId, cartIds: intent.cartIds });
    expect(again.statusCode).toBe(200);
    expect(again.json().paymentResult.insertedId).toBe(payment!.id);
    await expectBooksBalance(student);
  });

  it('frees the lines of an intent canceled at the gateway whose cancel was never recorded: the cart can be paid again', async () => {
    const student = await newStudent();
    await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 1500 })).id);
    const intent = await createIntentOk(ctx, student);
    // A checkout cut short after its cancel reached the gateway, before it was recorded here.
    const gateway = createTestGateway(ctx.db);
    const stored = await gateway.findIntentByClientSecret(intent.clientSecret);
    await gateway.cancelIntent(stored!.id);
    expect((await enrollmentsByIds(intent.cartIds)).map((e) => e.reservedBy)).toEqual([stored!.id]);

    const report = await ctx.reconciler.runOnce();
    expect(report.canceled).toBeGreaterThanOrEqual(1);
    expect((await enrollmentsByIds(intent.cartIds)).map((e) => e.reservedBy)).toEqual([null]);
    const again = await createIntentOk(ctx, student);
    expect(again.clientSecret).not.toBe(intent.clientSecret);
    expect(again.cartIds).toEqual(intent.cartIds);
  });

  it('refunds a charge nobody recorded whose lines can no longer be fulfilled', async () => {
    const student = await newStudent();
    const cls = await createClass(ctx, teacher, { priceCents: 999 });
    const line = await enrolOk(ctx, student, cls.id);
    const intent = await createIntentOk(ctx, student);
    await chargeBehindOurBack(intent.clientSecret);
    await ctx.app.inject({ method: 'DELETE', url: `/api/enrolled/${line}`, headers: student.headers });

    const report = await ctx.reconciler.runOnce();
    expect(report.refunded).toBeGreaterThanOrEqual(1);
    const { charges, payments } = await expectBooksBalance(student);
    expect(payments).toHaveLength(0);
    expect(charges[0]!.refundedAt).not.toBeNull();
  });

  it('two instances reconciling at once record one payment', async () => {
    const student = await newStudent();
    await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 700 })).id);
    const intent = await createIntentOk(ctx, student);
    await chargeBehindOurBack(intent.clientSecret);
    const other = createReconciler({
      db: ctx.db,
      gateway: createTestGateway(ctx.db),
      now: () => new Date(),
      log: ctx.app.log,
      publicUrl: ctx.env.publicUrl,
      notifications: createLiveNotifications({ log: ctx.app.log }),
      ledger: { platformBasisPoints: 2000, refundWindowDays: ctx.env.REFUND_WINDOW_DAYS },
      intervalSeconds: 0,
    });
    await Promise.all([ctx.reconciler.runOnce(), other.runOnce(), ctx.reconciler.runOnce()]);
    expect(await paymentsOf(student)).toHaveLength(1);
    await expectBooksBalance(student);
  });

  it('looks again at an unpaid intent soon while it is young, then as rarely as its age, at most every 6 hours', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    expect(nextCheckDelayMs(ago(1_000), now, 30)).toBe(30_000);
    expect(nextCheckDelayMs(ago(3_600_000), now, 30)).toBe(3_600_000);
    expect(nextCheckDelayMs(ago(7 * 86_400_000), now, 30)).toBe(6 * 3_600_000);
  });

  it('runs by itself every RECONCILE_INTERVAL_SECONDS once the app is ready', async () => {
    const timed = await createTestApp({ ...FAST_SIGNUP_ENV, RECONCILE_INTERVAL_SECONDS: '1' });
    try {
      const owner = await createUser(timed, 'teacher');
      const student = await createCaller(timed, 'student');
      const cls = await createClass(timed, owner, { priceCents: 800 });
      await enrolOk(timed, student, cls.id);
      const intent = await createIntentOk(timed, student);
      const gateway = createTestGateway(timed.db);
      const stored = await gateway.findIntentByClientSecret(intent.clientSecret);
      await gateway.confirmCard(stored!.id, TEST_CARDS.succeeds);
      let found = 0;
      for (let i = 0; i < 60 && found === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        found = (await timed.db.select().from(schema.payments).where(eq(schema.payments.transactionId, stored!.id)))
          .length;
      }
      expect(found).toBe(1);
    } finally {
      await timed.close();
    }
  });
});

describe('enrolling while the class is deleted (finding 4)', () => {
  it('answers 201, 404 or 409 — never a 500 — when the teacher deletes the class at the same moment', async () => {
    for (let round = 0; round < 8; round++) {
      const cls = await createClass(ctx, teacher);
      const students = await Promise.all([newStudent(), newStudent(), newStudent()]);
      const results = await Promise.all([
        ...students.map((s) => enroll(ctx, s, cls.id)),
        ctx.app.inject({ method: 'DELETE', url: `/api/classes/${cls.id}`, headers: teacher.headers }),
      ]);
      const enrolled = results.slice(0, 3);
      for (const res of enrolled) {
        expect([200, 201, 404, 409]).toContain(res.statusCode);
        if (res.statusCode === 404) expect(res.json().error.message).toMatch(/not found/i);
      }
      expect(results[3]!.statusCode).toBe(200);
    }
  });
});
