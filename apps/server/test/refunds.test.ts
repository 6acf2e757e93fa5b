import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { AdminPayment, CreateRefundResponse, RefundRequest } from '@skillhive/shared/contracts/refunds';
import type { AdminStats, TeacherStats } from '@skillhive/shared/contracts/stats';
import { REFUND_MESSAGES } from '@skillhive/shared/rules/refunds';
import type { z } from 'zod';
import { schema } from '../src/db/client.ts';
import { createTestApp, latestMail, rawRows, type TestContext } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  classCounters,
  createCaller,
  createClass,
  createIntentOk,
  enroll,
  enrolOk,
  inBatches,
  itAnswersEachRole,
  type MatrixEndpoint,
  type MatrixRole,
  type TestClass,
} from './commerce-fixtures.ts';
import { chargeRefundedEvent, paymentIntentEvent, startFakeStripe, type FakeStripe } from './fake-stripe.ts';
import { prng } from './seeded-random.ts';

/**
 * Refunds (DESIGN §4): an admin refunds a payment in full or one line of it; a student asks
 * within REFUND_WINDOW_DAYS and an admin decides; Stripe's charge.refunded is recorded once. The
 * test gateway and a local fake of Stripe's API stand where the money moves.
 */

type Caller = Awaited<ReturnType<typeof createCaller>>;
type RefundAnswer = z.infer<typeof CreateRefundResponse>;

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

function call(
  c: TestContext,
  user: Caller | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) {
  return c.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });
}

const refund = (user: Caller | null, paymentId: string, body: Record<string, unknown>, c = ctx) =>
  call(c, user, 'POST', `/api/admin/payments/${paymentId}/refunds`, body);

async function linesOf(paymentId: string, c = ctx) {
  return c.db.select().from(schema.enrollments).where(eq(schema.enrollments.paymentId, paymentId));
}
async function refundRows(paymentId: string, c = ctx) {
  return c.db.select().from(schema.refunds).where(eq(schema.refunds.paymentId, paymentId));
}

/** A student who bought classes of these prices in one payment. */
async function purchase(prices: number[], c = ctx, by: Caller = teacher) {
  const student = await createCaller(c, 'student');
  const classes: TestClass[] = [];
  for (const priceCents of prices) classes.push(await createClass(c, by, { priceCents }));
  const bought = await buy(
    c,
    student,
    classes.map((cls) => cls.id),
  );
  const lines = await linesOf(bought.paymentId, c);
  const lineOf = (cls: TestClass) => lines.find((line) => line.classId === cls.id)!;
  return { student, classes, lineOf, ...bought };
}

describe('an admin refunds one enrollment of a payment', () => {
  it('gives back what was paid for it; the student loses access at once and can buy the class again', async () => {
    const { student, classes, lineOf, paymentId, transactionId } = await purchase([1500, 2500]);
    const [first, second] = classes as [TestClass, TestClass];
    expect((await classCounters(ctx, first.id)).enrollmentCount).toBe(1);

    const res = await refund(admin, paymentId, { enrollmentId: lineOf(first).id, reason: 'Class cancelled' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as RefundAnswer;
    expect(body.refundedCents).toBe(1500);
    expect(body.refunds).toMatchObject([
      { enrollmentId: lineOf(first).id, amountCents: 1500, status: 'succeeded', refundedBy: admin.email },
    ]);

    // The gateway refunded exactly that amount, once.
    const atGateway = await ctx.db
      .select()
      .from(schema.testGatewayRefunds)
      .where(eq(schema.testGatewayRefunds.intentId, transactionId));
    expect(atGateway.map((r) => r.amountCents)).toEqual([1500]);

    const lines = await linesOf(paymentId);
    expect(lines.find((l) => l.id === lineOf(first).id)).toMatchObject({ status: 'refunded' });
    expect(lines.find((l) => l.id === lineOf(second).id)).toMatchObject({ status: 'paid' });
    expect((await classCounters(ctx, first.id)).enrollmentCount).toBe(0);
    expect((await classCounters(ctx, second.id)).enrollmentCount).toBe(1);

    // No access: reviewing needs a paid enrollment.
    const review = await call(ctx, student, 'POST', '/api/reviews', {
      classId: first.id,
      rating: 5,
      details: 'Great class, learned a lot from it.',
    });
    expect(review.statusCode).toBe(409);

    // The audit log and the student's mail follow.
    const [entry] = await rawRows<{ action: string; actor_email: string; details: { amountCents: number } }>(
      ctx.db,
      sql`select action, actor_email, details from audit_log where target_id = ${paymentId}`,
    );
    expect(entry).toMatchObject({ action: 'payment.refund', actor_email: admin.email, details: { amountCents: 1500 } });
    const mail = await latestMail(ctx, student.email, 'refund');
    expect(mail.text).toContain('$15.00');
    expect(mail.text).toContain('Class cancelled');

    // Buy it again: a new line, paid, beside the refunded record.
    const again = await buy(ctx, student, [first.id]);
    expect(again.paymentId).not.toBe(paymentId);
    const mine = await ctx.db
      .select({ status: schema.enrollments.status })
      .from(schema.enrollments)
      .where(eq(schema.enrollments.classId, first.id));
    expect(mine.map((r) => r.status).sort()).toEqual(['paid', 'refunded']);
    expect((await classCounters(ctx, first.id)).enrollmentCount).toBe(1);

    // The refunded line cannot be refunded again.
    const twice = await refund(admin, paymentId, { enrollmentId: lineOf(first).id, reason: 'again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(REFUND_MESSAGES.alreadyRefunded);
  });

  it('refunds every line still paid when no enrollment is named, then has nothing left', async () => {
    const { classes, lineOf, paymentId, transactionId } = await purchase([1000, 2000, 3000]);
    const one = await refund(admin, paymentId, { enrollmentId: lineOf(classes[0]!).id, reason: 'first' });
    expect(one.statusCode).toBe(200);
    const rest = await refund(admin, paymentId, { reason: 'the rest' });
    expect(rest.statusCode).toBe(200);
    expect((rest.json() as RefundAnswer).refundedCents).toBe(5000);
    expect((await linesOf(paymentId)).every((l) => l.status === 'refunded')).toBe(true);
    const atGateway = await ctx.db
      .select()
      .from(schema.testGatewayRefunds)
      .where(eq(schema.testGatewayRefunds.intentId, transactionId));
    expect(atGateway.reduce((s, r) => s + r.amountCents, 0)).toBe(6000);

    const nothing = await refund(admin, paymentId, { reason: 'more' });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().error.message).toBe(REFUND_MESSAGES.nothingToRefund);
  });

  it('refunds a line once when two admins click at the same time', async () => {
    const { classes, lineOf, paymentId, transactionId } = await purchase([4200, 1300]);
    const target = lineOf(classes[0]!).id;
    const answers = await Promise.all([
      refund(admin, paymentId, { enrollmentId: target, reason: 'double click' }),
      refund(admin, paymentId, { enrollmentId: target, reason: 'double click' }),
      refund(admin, paymentId, { enrollmentId: target, reason: 'double click' }),
    ]);
    for (const res of answers) expect([200, 409]).toContain(res.statusCode);
    expect(answers.some((res) => res.statusCode === 200)).toBe(true);
    const atGateway = await ctx.db
      .select()
      .from(schema.testGatewayRefunds)
      .where(eq(schema.testGatewayRefunds.intentId, transactionId));
    expect(atGateway.map((r) => r.amountCents)).toEqual([4200]);
    expect((await refundRows(paymentId)).map((r) => [r.enrollmentId, r.status])).toEqual([[target, 'succeeded']]);
    expect((await classCounters(ctx, classes[0]!.id)).enrollmentCount).toBe(0);
  });

  it('keeps a class whose only enrollment was refunded: its teacher deleting it archives it', async () => {
    const { classes, lineOf, paymentId } = await purchase([1700]);
    const cls = classes[0]!;
    await refund(admin, paymentId, { enrollmentId: lineOf(cls).id, reason: 'before deletion' });
    const removed = await call(ctx, teacher, 'DELETE', `/api/classes/${cls.id}`);
    expect(removed.statusCode).toBe(200);
    const [stored] = await ctx.db.select().from(schema.classes).where(eq(schema.classes.id, cls.id));
    expect(stored!.status).toBe('archived');
    expect((await linesOf(paymentId)).map((l) => l.status)).toEqual(['refunded']);
  });

  it('finds payments by e-mail or transaction id with their lines and refunds', async () => {
    const { student, classes, lineOf, paymentId, transactionId } = await purchase([900, 1100]);
    await refund(admin, paymentId, { enrollmentId: lineOf(classes[1]!).id, reason: 'partial' });
    for (const q of [student.email.toUpperCase(), transactionId]) {
      const res = await call(ctx, admin, 'GET', `/api/admin/payments?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('1');
      const [found] = res.json() as AdminPayment[];
      expect(found).toMatchObject({ _id: paymentId, amountCents: 2000, refundedCents: 1100, transactionId });
      expect(found!.lines.map((l) => [l.priceCents, l.status]).sort()).toEqual([
        [1100, 'refunded'],
        [900, 'paid'],
      ]);
      expect(found!.refunds).toHaveLength(1);
    }
    const none = await call(ctx, admin, 'GET', '/api/admin/payments?q=nobody%40example.com');
    expect(none.json()).toEqual([]);
  });
});

describe('a refund takes the student’s review of that class with it (decision 003 counters)', () => {
  function review(user: Caller, classId: string, rating: number) {
    return call(ctx, user, 'POST', '/api/reviews', { classId, rating, details: 'Loved it' });
  }
  async function reviewsOf(classId: string) {
    const res = await call(ctx, null, 'GET', `/api/reviews?classId=${classId}`);
    return (res.json() as { rating: number; name: string }[]).map((r) => ({ rating: r.rating, name: r.name }));
  }

  it('an admin’s refund of one line removes that review and its rating; the other class keeps its review', async () => {
    const { student, classes, lineOf, paymentId } = await purchase([1500, 2500]);
    const [kept, refunded] = classes as [TestClass, TestClass];
    const other = await createCaller(ctx, 'student');
    await buy(ctx, other, [refunded.id]);
    expect((await review(student, kept.id, 4)).statusCode).toBe(201);
    expect((await review(student, refunded.id, 5)).statusCode).toBe(201);
    expect((await review(other, refunded.id, 2)).statusCode).toBe(201);
    expect(await classCounters(ctx, refunded.id)).toMatchObject({ ratingSum: 7, reviewCount: 2 });

    const res = await refund(admin, paymentId, { enrollmentId: lineOf(refunded).id, reason: 'Asked' });
    expect(res.statusCode).toBe(200);

    expect(await reviewsOf(refunded.id)).toEqual([{ rating: 2, name: other.name }]);
    expect(await classCounters(ctx, refunded.id)).toMatchObject({ ratingSum: 2, reviewCount: 1 });
    expect(await reviewsOf(kept.id)).toEqual([{ rating: 4, name: student.name }]);
    expect(await classCounters(ctx, kept.id)).toMatchObject({ ratingSum: 4, reviewCount: 1 });
    // And a new one cannot be written without paying again.
    expect((await review(student, refunded.id, 5)).statusCode).toBe(409);
  });

  it('an approved refund request and a whole-payment refund do the same', async () => {
    const first = await purchase([1200]);
    const [cls] = first.classes as [TestClass];
    expect((await review(first.student, cls.id, 5)).statusCode).toBe(201);
    const asked = await call(ctx, first.student, 'POST', '/api/refund-requests', {
      enrollmentId: first.lineOf(cls).id,
      reason: 'Not for me',
    });
    expect(asked.statusCode).toBe(201);
    const approved = await call(ctx, admin, 'POST', `/api/admin/refund-requests/${asked.json()._id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(await reviewsOf(cls.id)).toEqual([]);
    expect(await classCounters(ctx, cls.id)).toMatchObject({ ratingSum: 0, reviewCount: 0 });

    const second = await purchase([900, 800]);
    for (const c of second.classes) expect((await review(second.student, c.id, 3)).statusCode).toBe(201);
    expect((await refund(admin, second.paymentId, { reason: 'All of it' })).statusCode).toBe(200);
    for (const c of second.classes) {
      expect(await reviewsOf(c.id)).toEqual([]);
      expect(await classCounters(ctx, c.id)).toMatchObject({ ratingSum: 0, reviewCount: 0 });
    }
  });
});

describe('a student requests a refund; an admin decides', () => {
  it('approving refunds the line; the student sees the state', async () => {
    const { student, classes, lineOf, paymentId } = await purchase([2750]);
    const enrollmentId = lineOf(classes[0]!).id;
    const asked = await call(ctx, student, 'POST', '/api/refund-requests', { enrollmentId, reason: 'Not for me' });
    expect(asked.statusCode).toBe(201);
    const request = asked.json() as RefundRequest;
    expect(request).toMatchObject({ enrollmentId, status: 'pending', priceCents: 2750, reason: 'Not for me' });

    const again = await call(ctx, student, 'POST', '/api/refund-requests', { enrollmentId, reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(REFUND_MESSAGES.alreadyRequested);

    const listed = await call(ctx, admin, 'GET', '/api/admin/refund-requests?status=pending');
    expect((listed.json() as RefundRequest[]).map((r) => r._id)).toContain(request._id);

    const approved = await call(ctx, admin, 'POST', `/api/admin/refund-requests/${request._id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved' });
    expect((await linesOf(paymentId))[0]).toMatchObject({ status: 'refunded' });
    const [row] = await refundRows(paymentId);
    expect(row).toMatchObject({ requestId: request._id, amountCents: 2750, refundedBy: admin.id });

    const decideAgain = await call(ctx, admin, 'POST', `/api/admin/refund-requests/${request._id}/decline`, {
      reason: 'late',
    });
    expect(decideAgain.statusCode).toBe(409);

    const mine = await call(ctx, student, 'GET', '/api/refund-requests/mine');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ windowDays: 14, requests: [{ _id: request._id, status: 'approved' }] });
  });

  it('declining keeps the line paid and tells why', async () => {
    const { student, classes, lineOf, paymentId } = await purchase([1999]);
    const enrollmentId = lineOf(classes[0]!).id;
    const request = (
      await call(ctx, student, 'POST', '/api/refund-requests', { enrollmentId, reason: 'Changed my mind' })
    ).json() as RefundRequest;
    const declined = await call(ctx, admin, 'POST', `/api/admin/refund-requests/${request._id}/decline`, {
      reason: 'You attended most of it',
    });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({ status: 'declined', decisionReason: 'You attended most of it' });
    expect((await linesOf(paymentId))[0]).toMatchObject({ status: 'paid' });
    const approve = await call(ctx, admin, 'POST', `/api/admin/refund-requests/${request._id}/approve`);
    expect(approve.statusCode).toBe(409);
    expect(approve.json().error.message).toBe(REFUND_MESSAGES.requestDecided);
  });

  it('refuses outside the window, a pending line, a refunded line and someone else’s', async () => {
    const { student, classes, lineOf, paymentId } = await purchase([1200, 1300]);
    const [old, refunded] = [lineOf(classes[0]!).id, lineOf(classes[1]!).id];
    await ctx.db
      .update(schema.enrollments)
      .set({ paidAt: new Date(Date.now() - 15 * 86_400_000) })
      .where(eq(schema.enrollments.id, old));
    const late = await call(ctx, student, 'POST', '/api/refund-requests', { enrollmentId: old, reason: 'late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(REFUND_MESSAGES.outsideWindow);

    await refund(admin, paymentId, { enrollmentId: refunded, reason: 'admin' });
    const done = await call(ctx, student, 'POST', '/api/refund-requests', { enrollmentId: refunded, reason: 'x' });
    expect(done.statusCode).toBe(409);
    expect(done.json().error.message).toBe(REFUND_MESSAGES.alreadyRefunded);

    const pendingLine = await enrolOk(ctx, student, (await createClass(ctx, teacher)).id);
    const unpaid = await call(ctx, student, 'POST', '/api/refund-requests', { enrollmentId: pendingLine, reason: 'x' });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().error.message).toBe(REFUND_MESSAGES.notPaid);

    const other = await createCaller(ctx, 'student');
    const foreign = await call(ctx, other, 'POST', '/api/refund-requests', { enrollmentId: old, reason: 'mine?' });
    expect(foreign.statusCode).toBe(404);
    const unknown = await call(ctx, other, 'POST', '/api/refund-requests', { enrollmentId: 'nope', reason: 'x' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('bad input gets a clear 4xx with the error envelope', () => {
  let paymentId: string;
  let lineId: string;
  beforeAll(async () => {
    const bought = await purchase([1000]);
    paymentId = bought.paymentId;
    lineId = bought.lineOf(bought.classes[0]!).id;
  });

  it.each([
    ['no reason', { enrollmentId: 'x' }],
    ['an empty reason', { reason: '   ' }],
    ['a reason too long', { reason: 'x'.repeat(501) }],
    ['a number as reason', { reason: 42 }],
    ['an enrollment id that is not a string', { reason: 'ok', enrollmentId: 7 }],
  ])('refund with %s → 400', async (_name, body) => {
    const res = await refund(admin, paymentId, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'validation_error' }, requestId: expect.any(String) });
  });

  it('answers 404 for an unknown payment, a malformed id, or an enrollment of another payment', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%27%20or%201=1']) {
      const res = await refund(admin, id, { reason: 'x' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const res = await refund(admin, paymentId, { enrollmentId: '00000000-0000-4000-8000-000000000000', reason: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(REFUND_MESSAGES.notInPayment);
  });

  it('validates requests, decisions and lists', async () => {
    const student = await createCaller(ctx, 'student');
    for (const body of [{ enrollmentId: lineId }, { enrollmentId: lineId, reason: '' }, { reason: 'x' }]) {
      const res = await call(ctx, student, 'POST', '/api/refund-requests', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
    }
    const decline = await call(ctx, admin, 'POST', '/api/admin/refund-requests/not-a-uuid/decline', { reason: '' });
    expect(decline.statusCode).toBe(400);
    const unknown = await call(ctx, admin, 'POST', '/api/admin/refund-requests/not-a-uuid/approve');
    expect(unknown.statusCode).toBe(404);
    expect((await call(ctx, admin, 'GET', '/api/admin/refund-requests?status=maybe')).statusCode).toBe(400);
    expect((await call(ctx, admin, 'GET', '/api/admin/payments')).statusCode).toBe(400);
    expect((await call(ctx, admin, 'GET', '/api/admin/payments?q=')).statusCode).toBe(400);
  });
});

describe('permission matrix (every refund endpoint × anonymous, student, teacher, another teacher, admin)', () => {
  const cast = {} as Record<Exclude<MatrixRole, 'anonymous'>, Caller>;
  let paymentId: string;
  let lineIds: string[];
  let requestId: string;

  beforeAll(async () => {
    cast.teacher = teacher;
    cast.otherTeacher = await createCaller(ctx, 'teacher');
    cast.admin = admin;
    const bought = await purchase([1000, 1000, 1000]);
    cast.student = bought.student;
    paymentId = bought.paymentId;
    lineIds = bought.classes.map((cls) => bought.lineOf(cls).id);
    const asked = await call(ctx, cast.student, 'POST', '/api/refund-requests', {
      enrollmentId: lineIds[2],
      reason: 'matrix',
    });
    requestId = (asked.json() as RefundRequest)._id;
  });

  const admins = { anonymous: 401, student: 403, teacher: 403, otherTeacher: 403, admin: 200 } as const;
  const endpoints: MatrixEndpoint[] = [
    { name: 'GET /api/admin/payments', method: 'GET', url: () => '/api/admin/payments?q=x%40y.z', expected: admins },
    {
      name: 'POST /api/admin/payments/:id/refunds',
      method: 'POST',
      url: () => `/api/admin/payments/${paymentId}/refunds`,
      body: () => ({ enrollmentId: lineIds[0], reason: 'matrix' }),
      // The admin's call refunds the line; every other caller is refused before anything happens.
      expected: admins,
    },
    {
      name: 'GET /api/admin/refund-requests',
      method: 'GET',
      url: () => '/api/admin/refund-requests',
      expected: admins,
    },
    {
      name: 'GET /api/admin/refunds/pending',
      method: 'GET',
      url: () => '/api/admin/refunds/pending',
      expected: admins,
    },
    {
      name: 'POST /api/admin/refund-requests/:id/decline',
      method: 'POST',
      url: () => `/api/admin/refund-requests/${requestId}/decline`,
      body: () => ({ reason: 'matrix' }),
      expected: admins,
    },
    {
      name: 'POST /api/admin/refund-requests/:id/approve',
      method: 'POST',
      url: () => `/api/admin/refund-requests/${requestId}/approve`,
      // Declined just before (the row above): the admin passes the role check and meets the state.
      expected: { ...admins, admin: 409 },
    },
    {
      name: 'POST /api/refund-requests',
      method: 'POST',
      url: () => '/api/refund-requests',
      body: () => ({ enrollmentId: lineIds[1], reason: 'matrix' }),
      // Only the line's own student; anybody else's is not found (an admin too: a student's act).
      expected: { anonymous: 401, student: 201, teacher: 404, otherTeacher: 404, admin: 404 },
    },
    {
      name: 'GET /api/refund-requests/mine',
      method: 'GET',
      url: () => '/api/refund-requests/mine',
      expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 200, admin: 200 },
    },
  ];
  // Anonymous and the refused roles first, the allowed call last: it changes state.
  itAnswersEachRole(endpoints, { ctx: () => ctx, callerOf: (role) => cast[role] });

  it('the refused calls changed nothing; the allowed ones did', async () => {
    const lines = await linesOf(paymentId);
    expect(lines.find((l) => l.id === lineIds[0])!.status).toBe('refunded');
    expect(lines.find((l) => l.id === lineIds[1])!.status).toBe('paid');
    expect((await refundRows(paymentId)).length).toBe(1);
  });
});

const REFUND_STUDENTS = Number(process.env.REFUNDS_STUDENTS ?? 30);
const REFUNDS_SEED = Number(process.env.REFUNDS_SEED ?? Date.now() % 1_000_000);

describe(`reconciliation with refunds (${REFUND_STUDENTS} students, seed ${REFUNDS_SEED})`, () => {
  it(
    'succeeded payments minus refunds equal the paid lines to the cent; the gateway, counters and stats agree',
    { timeout: 120_000 },
    async () => {
      const random = prng(REFUNDS_SEED);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
      const teachers = [teacher, await createCaller(ctx, 'teacher'), await createCaller(ctx, 'teacher')];
      const classes: TestClass[] = [];
      for (let i = 0; i < 12; i++) {
        // Odd cents on purpose.
        classes.push(await createClass(ctx, teachers[i % 3]!, { priceCents: 50 + Math.floor(random() * 9_950) }));
      }
      const students = await Promise.all(Array.from({ length: REFUND_STUDENTS }, () => createCaller(ctx, 'student')));
      const bought: { student: Caller; paymentId: string }[] = [];
      await inBatches(students, 5, async (student) => {
        const cart = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(classes).id))];
        bought.push({ student, ...(await buy(ctx, student, cart)) });
      });

      // Refunds of every kind, some clicked twice at once, some requested and decided.
      let refunded = 0;
      await inBatches(bought, 5, async ({ student, paymentId }) => {
        const lines = await linesOf(paymentId);
        const line = pick(lines);
        const dice = random();
        const times = random() < 0.3 ? 2 : 1;
        if (dice < 0.2) {
          const answers = await Promise.all(
            Array.from({ length: times }, () => refund(admin, paymentId, { reason: 'full' })),
          );
          for (const res of answers) expect([200, 409]).toContain(res.statusCode);
          refunded += 1;
        } else if (dice < 0.45) {
          const answers = await Promise.all(
            Array.from({ length: times }, () => refund(admin, paymentId, { enrollmentId: line.id, reason: 'one' })),
          );
          for (const res of answers) expect([200, 409]).toContain(res.statusCode);
          refunded += 1;
        } else if (dice < 0.65) {
          const asked = await call(ctx, student, 'POST', '/api/refund-requests', {
            enrollmentId: line.id,
            reason: 'asked',
          });
          expect(asked.statusCode).toBe(201);
          const id = (asked.json() as RefundRequest)._id;
          const decision = random() < 0.7 ? 'approve' : 'decline';
          const res = await call(ctx, admin, 'POST', `/api/admin/refund-requests/${id}/${decision}`, {
            ...(decision === 'decline' ? { reason: 'no' } : {}),
          });
          expect(res.statusCode).toBe(200);
          if (decision === 'approve') refunded += 1;
        }
        // Some buy a refunded class again.
        const [again] = (await linesOf(paymentId)).filter((l) => l.status === 'refunded');
        if (again && random() < 0.3) await buy(ctx, student, [again.classId]);
      });
      expect(refunded).toBeGreaterThan(0);

      const [books] = await rawRows<{ paid: number; refunded: number; lines: number; refunded_lines: number }>(
        ctx.db,
        sql`select
          (select coalesce(sum(amount_cents), 0)::int from payments where status = 'succeeded') as paid,
          (select coalesce(sum(amount_cents), 0)::int from refunds where status = 'succeeded') as refunded,
          (select coalesce(sum(price_cents), 0)::int from enrollments where status = 'paid') as lines,
          (select coalesce(sum(price_cents), 0)::int from enrollments where status = 'refunded') as refunded_lines`,
      );
      expect(books!.paid - books!.refunded).toBe(books!.lines);
      expect(books!.refunded).toBe(books!.refunded_lines);

      // Every refund at the gateway is one refund in our books; a line is refunded at most once.
      const [gateway] = await rawRows<{ n: number; cents: number }>(
        ctx.db,
        sql`select count(*)::int as n, coalesce(sum(amount_cents), 0)::int as cents from test_gateway_refunds`,
      );
      const [ours] = await rawRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from refunds`);
      expect(gateway).toEqual({ n: ours!.n, cents: books!.refunded });
      const twice = await rawRows(
        ctx.db,
        sql`select enrollment_id from refunds where enrollment_id is not null group by enrollment_id having count(*) > 1`,
      );
      expect(twice).toEqual([]);
      const unrecorded = await rawRows(
        ctx.db,
        sql`select e.id from enrollments e left join refunds r on r.enrollment_id = e.id and r.status = 'succeeded'
            where e.status = 'refunded' and r.id is null`,
      );
      expect(unrecorded).toEqual([]);
      // Per payment: never more given back than was paid.
      const over = await rawRows(
        ctx.db,
        sql`select p.id from payments p join refunds r on r.payment_id = p.id and r.status = 'succeeded'
            group by p.id, p.amount_cents having sum(r.amount_cents) > p.amount_cents`,
      );
      expect(over).toEqual([]);

      // The class counters count the paid lines (decision 003), never cart or refunded ones.
      const counters = await rawRows(
        ctx.db,
        sql`select c.id from classes c left join enrollments e on e.class_id = c.id and e.status = 'paid'
            group by c.id, c.enrollment_count having count(e.id) <> c.enrollment_count`,
      );
      expect(counters).toEqual([]);

      // The stats answer what an independent SQL sum says, net of refunds.
      const stats = (await call(ctx, admin, 'GET', '/api/admin/stats')).json() as AdminStats;
      expect(stats.totalCents).toBe(books!.lines);
      for (const t of teachers) {
        // A teacher's earnings are the ledger's: their shares less what the refunds clawed back.
        const [earned] = await rawRows<{ cents: number; kept: number; paid: number }>(
          ctx.db,
          sql`select
                (select coalesce(sum(share_cents - clawback_cents), 0)::int from earning_lines
                  where teacher_id = ${t.id}) as cents,
                (select coalesce(sum(gross_cents), 0)::int from earning_lines
                  where teacher_id = ${t.id} and refunded_at is null) as kept,
                (select coalesce(sum(e.price_cents), 0)::int from enrollments e join classes c on c.id = e.class_id
                  where c.teacher_id = ${t.id} and e.status = 'paid') as paid`,
        );
        const mine = (await call(ctx, t, 'GET', '/api/teachers/me/stats')).json() as TeacherStats;
        expect(mine.totalCents).toBe(earned!.cents);
        expect(earned!.kept).toBe(earned!.paid);
      }
    },
  );
});

describe('with Stripe (a local fake of its API)', () => {
  const WEBHOOK_SECRET = 'whsec_test_skillhive_refunds';
  let fake: FakeStripe;
  let stripe: TestContext;
  let stripeAdmin: Caller;
  let stripeTeacher: Caller;

  beforeAll(async () => {
    fake = await startFakeStripe();
    stripe = await createTestApp({
      ...FAST_SIGNUP_ENV,
      STRIPE_SECRET_KEY: 'sk_test_skillhive',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_skillhive',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
    });
    [stripeAdmin, stripeTeacher] = await Promise.all([createCaller(stripe, 'admin'), createCaller(stripe, 'teacher')]);
  });
  afterAll(async () => {
    await stripe?.close();
    await fake?.close();
  });

  function sendWebhook(event: unknown) {
    const payload = JSON.stringify(event);
    return stripe.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      payload,
    });
  }

  /** A Stripe payment, fulfilled by its webhook as when the browser closed. */
  async function stripePurchase(prices: number[]) {
    const student = await createCaller(stripe, 'student');
    const classes: TestClass[] = [];
    for (const priceCents of prices) {
      const cls = await createClass(stripe, stripeTeacher, { priceCents });
      classes.push(cls);
      expect((await enroll(stripe, student, cls.id)).statusCode).toBeLessThan(300);
    }
    const intentId = (await createIntentOk(stripe, student)).clientSecret.split('_secret_')[0]!;
    const ok = await sendWebhook(paymentIntentEvent('payment_intent.succeeded', fake.setStatus(intentId, 'succeeded')));
    expect(ok.statusCode).toBe(200);
    const [payment] = await stripe.db.select().from(schema.payments).where(eq(schema.payments.transactionId, intentId));
    const lines = await linesOf(payment!.id, stripe);
    return { student, classes, intentId, paymentId: payment!.id, lines };
  }

  it("refunds one line through Stripe's Refunds API by amount, with an idempotency key", async () => {
    const { intentId, paymentId, lines } = await stripePurchase([1100, 2200]);
    const target = lines.find((l) => l.priceCents === 2200)!;
    const res = await refund(stripeAdmin, paymentId, { enrollmentId: target.id, reason: 'by Stripe' }, stripe);
    expect(res.statusCode).toBe(200);
    const made = fake.refunds.filter((r) => r.payment_intent === intentId);
    expect(made.map((r) => r.amount)).toEqual([2200]);
    const [row] = await refundRows(paymentId, stripe);
    expect(made[0]!.metadata).toEqual({ refund_id: row!.id });
    expect(row).toMatchObject({ gatewayRefundId: made[0]!.id, status: 'succeeded' });
    const call = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.idempotencyKey)!;
    expect(call.idempotencyKey).toMatch(/^skillhive-refund-/);

    // Stripe echoes it as charge.refunded: already recorded, nothing more.
    const echo = await sendWebhook(chargeRefundedEvent(fake.intents.get(intentId)!, 2200));
    expect(echo.statusCode).toBe(200);
    expect(await refundRows(paymentId, stripe)).toHaveLength(1);
  });

  it('records a refund made in the dashboard once, however often charge.refunded arrives', async () => {
    const { intentId, paymentId, lines, student } = await stripePurchase([1500, 2500]);
    fake.refundInDashboard(intentId, 1500);
    const event = chargeRefundedEvent(fake.intents.get(intentId)!, 1500);
    const answers = [await sendWebhook(event), await sendWebhook(event)];
    // A second delivery with a new event id (Stripe may send another event for the same charge).
    answers.push(await sendWebhook(chargeRefundedEvent(fake.intents.get(intentId)!, 1500)));
    for (const res of answers) expect(res.statusCode).toBe(200);
    expect(answers[1]!.json()).toMatchObject({ duplicate: true });

    const rows = await refundRows(paymentId, stripe);
    const line = lines.find((l) => l.priceCents === 1500)!;
    expect(rows).toMatchObject([{ enrollmentId: line.id, amountCents: 1500, refundedBy: null, status: 'succeeded' }]);
    const after = await linesOf(paymentId, stripe);
    expect(after.find((l) => l.id === line.id)!.status).toBe('refunded');
    expect(after.find((l) => l.id !== line.id)!.status).toBe('paid');
    expect((await latestMail(stripe, student.email, 'refund')).text).toContain('$15.00');
  });

  it('refunds once when the admin and the webhook for the same refund race', async () => {
    const { intentId, paymentId, lines } = await stripePurchase([3100]);
    const [res] = await Promise.all([
      refund(stripeAdmin, paymentId, { enrollmentId: lines[0]!.id, reason: 'race' }, stripe),
      sendWebhook(chargeRefundedEvent(fake.intents.get(intentId)!, 3100)),
    ]);
    expect(res!.statusCode).toBe(200);
    // Whatever came first, the charge has one refund and the books one record.
    expect(fake.refunds.filter((r) => r.payment_intent === intentId)).toHaveLength(1);
    expect(await refundRows(paymentId, stripe)).toHaveLength(1);
    const late = await sendWebhook(chargeRefundedEvent(fake.intents.get(intentId)!, 3100));
    expect(late.statusCode).toBe(200);
    expect(await refundRows(paymentId, stripe)).toHaveLength(1);
    const lineRows = await stripe.db
      .select()
      .from(schema.enrollments)
      .where(
        inArray(
          schema.enrollments.id,
          lines.map((l) => l.id),
        ),
      );
    expect(lineRows.map((l) => l.status)).toEqual(['refunded']);
  });
});
