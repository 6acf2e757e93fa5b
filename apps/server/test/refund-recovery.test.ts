import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import type { AdminPayment, RefundRequest } from '@skillhive/shared/contracts/refunds';
import { schema } from '../src/db/client.ts';
import { createTestApp, type TestContext } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  createCaller,
  createClass,
  createIntentOk,
  enroll,
  type TestClass,
} from './commerce-fixtures.ts';
import { paymentIntentEvent, startFakeStripe, type FakeStripe } from './fake-stripe.ts';

/**
 * Refunds that always finish (decision 031): an approved refund whose gateway step fails — Stripe
 * answering 500 before or after it refunded — is answered 202 "in progress", resumed by approving
 * again, and completed by the reconciler once it has been pending longer than the grace; money at
 * the gateway and the database agree to the cent afterwards. Faults come from the fake Stripe
 * server (a real HTTP server standing for the third party).
 */

type Caller = Awaited<ReturnType<typeof createCaller>>;

const WEBHOOK_SECRET = 'whsec_test_skillhive_refund_recovery';
let fake: FakeStripe;
let ctx: TestContext;
let admin: Caller;
let teacher: Caller;
/** The app's clock runs this far ahead of the wall clock: tests move it past the grace. */
let skewMs = 0;

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await createTestApp(
    {
      ...FAST_SIGNUP_ENV,
      STRIPE_SECRET_KEY: 'sk_test_skillhive',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_skillhive',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
    },
    { now: () => new Date(Date.now() + skewMs) },
  );
  [admin, teacher] = await Promise.all([createCaller(ctx, 'admin'), createCaller(ctx, 'teacher')]);
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

function call(user: Caller, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  return ctx.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
}

function sendWebhook(event: unknown) {
  const payload = JSON.stringify(event);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
    payload,
  });
}

/** A Stripe payment of one class, fulfilled by its webhook, and the student's refund request for it. */
async function paidAndRequested(priceCents: number) {
  const student = await createCaller(ctx, 'student');
  const cls: TestClass = await createClass(ctx, teacher, { priceCents });
  expect((await enroll(ctx, student, cls.id)).statusCode).toBeLessThan(300);
  const intentId = (await createIntentOk(ctx, student)).clientSecret.split('_secret_')[0]!;
  const ok = await sendWebhook(paymentIntentEvent('payment_intent.succeeded', fake.setStatus(intentId, 'succeeded')));
  expect(ok.statusCode).toBe(200);
  const [payment] = await ctx.db.select().from(schema.payments).where(eq(schema.payments.transactionId, intentId));
  const [line] = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.paymentId, payment!.id));
  const asked = await call(student, 'POST', '/api/refund-requests', { enrollmentId: line!.id, reason: 'Not for me' });
  expect(asked.statusCode).toBe(201);
  return { intentId, paymentId: payment!.id, lineId: line!.id, request: asked.json() as RefundRequest };
}

/** Money at the gateway, refund records and refunded lines agree to the cent. */
async function expectMoneyAgrees(intentId: string, paymentId: string) {
  const atStripe = fake.refunds.filter((r) => r.payment_intent === intentId).reduce((sum, r) => sum + r.amount, 0);
  const rows = await ctx.db.select().from(schema.refunds).where(eq(schema.refunds.paymentId, paymentId));
  const recorded = rows.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amountCents, 0);
  const lines = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.paymentId, paymentId));
  const refundedLines = lines.filter((l) => l.status === 'refunded').reduce((sum, l) => sum + (l.paidCents ?? 0), 0);
  expect({ recorded, refundedLines }).toEqual({ recorded: atStripe, refundedLines: atStripe });
  expect(rows.filter((r) => r.status === 'pending')).toEqual([]);
}

async function refundRowOf(paymentId: string) {
  const rows = await ctx.db.select().from(schema.refunds).where(eq(schema.refunds.paymentId, paymentId));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** Past the grace during which a pending refund is left to the call that made it. */
const PAST_GRACE_MS = 10 * 60_000;

describe('an approved refund whose gateway step fails still finishes', () => {
  it('answers 202 "in progress" when Stripe fails before refunding; approving again resumes it, not 409', async () => {
    const { intentId, paymentId, lineId, request } = await paidAndRequested(4000);
    fake.failRefunds = 'before';
    try {
      const first = await call(admin, 'POST', `/api/admin/refund-requests/${request._id}/approve`);
      expect(first.statusCode).toBe(202);
      expect(first.json()).toMatchObject({ _id: request._id, status: 'approved' });
      expect(await refundRowOf(paymentId)).toMatchObject({ status: 'pending', amountCents: 4000 });

      // Still failing: the decision stands and the answer says so again.
      const second = await call(admin, 'POST', `/api/admin/refund-requests/${request._id}/approve`);
      expect(second.statusCode).toBe(202);
    } finally {
      fake.failRefunds = null;
    }
    // The admin sees the refund pending on the payment.
    const found = await call(admin, 'GET', `/api/admin/payments?q=${intentId}`);
    expect((found.json() as AdminPayment[])[0]!.refunds).toMatchObject([{ status: 'pending', amountCents: 4000 }]);

    const third = await call(admin, 'POST', `/api/admin/refund-requests/${request._id}/approve`);
    expect(third.statusCode).toBe(200);
    expect(third.json()).toMatchObject({ status: 'approved' });
    expect(await refundRowOf(paymentId)).toMatchObject({ status: 'succeeded' });
    const [line] = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.id, lineId));
    expect(line!.status).toBe('refunded');
    expect(fake.refunds.filter((r) => r.payment_intent === intentId).map((r) => r.amount)).toEqual([4000]);
    await expectMoneyAgrees(intentId, paymentId);
  });

  it('the reconciler completes a refund Stripe made but whose answer was lost, once the grace has passed', async () => {
    const { intentId, paymentId, request } = await paidAndRequested(4000);
    fake.failRefunds = 'after';
    try {
      const res = await call(admin, 'POST', `/api/admin/refund-requests/${request._id}/approve`);
      expect(res.statusCode).toBe(202);
    } finally {
      fake.failRefunds = null;
    }
    // The student has the money back already; the books do not know yet.
    expect(fake.refunds.filter((r) => r.payment_intent === intentId).map((r) => r.amount)).toEqual([4000]);
    const pending = await refundRowOf(paymentId);
    expect(pending.status).toBe('pending');

    // Within the grace the reconciler leaves it to the call that made it.
    await ctx.reconciler.runOnce();
    expect((await refundRowOf(paymentId)).status).toBe('pending');

    skewMs += PAST_GRACE_MS;
    await ctx.reconciler.runOnce();
    const done = await refundRowOf(paymentId);
    expect(done).toMatchObject({ status: 'succeeded', id: pending.id });
    // Asked again with the same idempotency key: still one refund at Stripe.
    const made = fake.refunds.filter((r) => r.payment_intent === intentId);
    expect(made.map((r) => r.amount)).toEqual([4000]);
    expect(done.gatewayRefundId).toBe(made[0]!.id);
    const keys = fake.requests
      .filter(
        (r) => r.method === 'POST' && r.path === '/v1/refunds' && r.idempotencyKey === `skillhive-refund-${done.id}`,
      )
      .map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(1);
    await expectMoneyAgrees(intentId, paymentId);
  });

  it("answers an admin's direct refund cut short by a gateway error 202 in progress; the reconciler completes it", async () => {
    const { intentId, paymentId, lineId } = await paidAndRequested(2500);
    fake.failRefunds = 'before';
    try {
      const res = await call(admin, 'POST', `/api/admin/payments/${paymentId}/refunds`, {
        enrollmentId: lineId,
        reason: 'Asked by phone',
      });
      // The decision committed: in progress, not a 503 whose retry would be refused.
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({
        refunds: [expect.objectContaining({ enrollmentId: lineId, amountCents: 2500, status: 'pending' })],
        refundedCents: 0,
      });
    } finally {
      fake.failRefunds = null;
    }
    const pending = await refundRowOf(paymentId);
    expect(pending.status).toBe('pending');
    // Admins see it in progress, with its payment and class, until the reconciler finishes it.
    const listed = await call(admin, 'GET', '/api/admin/refunds/pending?limit=100');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual(
      expect.objectContaining({
        _id: pending.id,
        transactionId: intentId,
        amountCents: 2500,
        status: 'pending',
        refundedBy: admin.email,
        title: expect.any(String),
      }),
    );
    skewMs += PAST_GRACE_MS;
    await ctx.reconciler.runOnce();
    expect((await refundRowOf(paymentId)).status).toBe('succeeded');
    await expectMoneyAgrees(intentId, paymentId);
    const after = (await call(admin, 'GET', '/api/admin/refunds/pending?limit=100')).json() as { _id: string }[];
    expect(after.map((item) => item._id)).not.toContain(pending.id);
  });

  it('lists pending refunds paged, with their total; bad paging is a 400', async () => {
    for (const query of ['limit=0', 'page=0', 'limit=abc', 'page=-1']) {
      const bad = await call(admin, 'GET', `/api/admin/refunds/pending?${query}`);
      expect(bad.statusCode, query).toBe(400);
    }
    const res = await call(admin, 'GET', '/api/admin/refunds/pending?limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toMatch(/^\d+$/);
  });
});
