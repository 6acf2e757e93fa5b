import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import Stripe from 'stripe';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { schema } from '../src/db/client.ts';
import { DEFAULT_STRIPE_JS_URL, loadEnv } from '../src/env.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  card,
  createCaller,
  type Caller,
  createClass,
  createIntent,
  createIntentOk,
  enrolOk,
  recordPayment,
} from './commerce-fixtures.ts';
import { paymentIntentEvent, startFakeStripe, type FakeStripe } from './fake-stripe.ts';

const WEBHOOK_SECRET = 'whsec_test_skillhive_webhook_secret';

/** The Content-Security-Policy header as directive → sources. */
function cspOf(res: { headers: Record<string, unknown> }): Record<string, string[]> {
  return Object.fromEntries(
    String(res.headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

let fake: FakeStripe;
let ctx: TestContext;
let teacher: TestUser;

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await createTestApp({
    ...FAST_SIGNUP_ENV,
    STRIPE_SECRET_KEY: 'sk_test_skillhive',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_skillhive',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
  });
  teacher = await createUser(ctx, 'teacher');
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

/** A student with a cart of these prices and a Stripe intent for it. */
async function cartWithIntent(prices: number[]) {
  const student = await createCaller(ctx, 'student');
  for (const priceCents of prices) await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents })).id);
  const intent = await createIntentOk(ctx, student);
  const intentId = intent.clientSecret.split('_secret_')[0]!;
  return { student, intent, intentId };
}

function sendWebhook(
  payload: string,
  options: { secret?: string; signedPayload?: string; header?: string | null } = {},
) {
  const signature =
    options.header === undefined
      ? Stripe.webhooks.generateTestHeaderString({
          payload: options.signedPayload ?? payload,
          secret: options.secret ?? WEBHOOK_SECRET,
        })
      : options.header;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    payload,
  });
}

async function paymentsOf(user: Caller) {
  return ctx.db.select().from(schema.payments).where(eq(schema.payments.studentId, user.id));
}
const retrievals = (intentId: string) =>
  fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intentId}`).length;

describe('Stripe configuration', () => {
  it('offers Stripe to the web app and hides the test gateway’s card routes', async () => {
    expect((await ctx.app.inject('/api/config')).json().payments).toEqual({
      gateway: 'stripe',
      publishableKey: 'pk_test_skillhive',
      stripeJsUrl: DEFAULT_STRIPE_JS_URL,
    });
    const student = await createUser(ctx, 'student');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/test-gateway/confirm',
      headers: student.headers,
      payload: { clientSecret: 'x', ...card() },
    });
    expect(res.statusCode).toBe(404);
  });

  it('opens the CSP to Stripe’s hosts for Stripe.js, its frames and its API', async () => {
    const csp = cspOf(await ctx.app.inject('/api/health'));
    expect(csp['script-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(csp['frame-src']).toEqual(['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']);
    expect(csp['connect-src']).toEqual(["'self'", 'https://api.stripe.com']);
  });

  it('documents the webhook', async () => {
    const spec = (await ctx.app.inject('/api/docs/json')).json();
    expect(spec.paths['/api/webhooks/stripe'].post.operationId).toBe('stripeWebhook');
  });
});

describe('POST /api/create-payment-intent with Stripe', () => {
  it('creates a PaymentIntent for the server’s total with an idempotency key and the cart in its metadata', async () => {
    const student = await createCaller(ctx, 'student');
    const ids = [
      await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 1234 })).id),
      await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 5000 })).id),
    ];
    const before = fake.requests.length;
    const res = await createIntent(ctx, student, { price: 1 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      amount: 6234,
      currency: 'usd',
      gateway: 'stripe',
      publishableKey: 'pk_test_skillhive',
      cartIds: [...ids].sort(),
    });
    const call = fake.requests[before]!;
    expect(call).toMatchObject({
      method: 'POST',
      path: '/v1/payment_intents',
      authorization: 'Bearer sk_test_skillhive',
    });
    // Each intent we create has a key of its own (the SDK resends it on a retry of that call).
    expect(call.idempotencyKey).toMatch(/^skillhive-intent-[0-9a-f-]{36}$/);
    const pi = fake.intents.get(body.clientSecret.split('_secret_')[0])!;
    expect(pi.client_secret).toBe(body.clientSecret);
    expect(pi.amount).toBe(6234);
    expect(pi.currency).toBe('usd');
    expect(pi.metadata).toMatchObject({ customer_ref: student.id, cart_count: '2' });
    expect(pi.metadata.cart_0!.split(',').sort()).toEqual([...ids].sort());

    // Asking again for the same cart reuses the open intent: Stripe is not asked again.
    const calls = fake.requests.length;
    const again = await createIntentOk(ctx, student);
    expect(again.clientSecret).toBe(body.clientSecret);
    expect(fake.requests.length).toBe(calls);
  });

  it('keeps carts longer than one metadata value in several keys', async () => {
    const { intent, intentId } = await cartWithIntent(Array.from({ length: 15 }, () => 100));
    const metadata = fake.intents.get(intentId)!.metadata;
    expect(metadata.cart_count).toBe('15');
    expect(Object.values(metadata).every((v) => v.length <= 500)).toBe(true);
    expect([...metadata.cart_0!.split(','), ...metadata.cart_1!.split(',')].sort()).toEqual(intent.cartIds);
  });
});

describe('recording Stripe payments', () => {
  it('refuses to record an intent that has not succeeded', async () => {
    const { student, intent, intentId } = await cartWithIntent([1500]);
    const res = await recordPayment(ctx, student, { transactionId: intentId, cartIds: intent.cartIds });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(PAYMENT_MESSAGES.notSucceeded);
    expect(
      (await recordPayment(ctx, student, { transactionId: 'pi_does_not_exist', cartIds: intent.cartIds })).statusCode,
    ).toBe(404);
    expect(await paymentsOf(student)).toHaveLength(0);
  });

  it('records what the browser reports once Stripe says it succeeded; the webhook then adds nothing', async () => {
    const { student, intent, intentId } = await cartWithIntent([1500, 2500]);
    const succeeded = fake.setStatus(intentId, 'succeeded');
    const res = await recordPayment(ctx, student, { transactionId: intentId, cartIds: intent.cartIds, price: 0.5 });
    expect(res.statusCode).toBe(201);
    const insertedId = res.json().paymentResult.insertedId;
    const hook = await sendWebhook(JSON.stringify(paymentIntentEvent('payment_intent.succeeded', succeeded)));
    expect(hook.statusCode).toBe(200);
    const payments = await paymentsOf(student);
    expect(payments).toEqual([
      expect.objectContaining({
        id: insertedId,
        amountCents: 4000,
        gateway: 'stripe',
        transactionId: intentId,
        status: 'succeeded',
      }),
    ]);
  });

  it('records every payment exactly once when the browser (twice) and the webhook race', async () => {
    const { student, intent, intentId } = await cartWithIntent([1000, 990]);
    const event = JSON.stringify(paymentIntentEvent('payment_intent.succeeded', fake.setStatus(intentId, 'succeeded')));
    const [a, b, hook] = await Promise.all([
      recordPayment(ctx, student, { transactionId: intentId, cartIds: intent.cartIds }),
      recordPayment(ctx, student, { transactionId: intentId, cartIds: intent.cartIds }),
      sendWebhook(event),
    ]);
    expect(hook.statusCode).toBe(200);
    expect([a.statusCode, b.statusCode].every((s) => s === 200 || s === 201)).toBe(true);
    expect(a.json().paymentResult.insertedId).toBe(b.json().paymentResult.insertedId);
    const payments = await paymentsOf(student);
    expect(payments.map((p) => p.id)).toEqual([a.json().paymentResult.insertedId]);
    const lines = await ctx.db.select().from(schema.enrollments).where(inArray(schema.enrollments.id, intent.cartIds));
    expect(lines.every((l) => l.status === 'paid' && l.paymentId === payments[0]!.id)).toBe(true);
  });
});

describe('POST /api/webhooks/stripe', () => {
  it('fulfils a signed payment_intent.succeeded (a closed browser still ends paid), re-reading the intent', async () => {
    const { student, intent, intentId } = await cartWithIntent([2000, 3050]);
    const payload = JSON.stringify(
      paymentIntentEvent('payment_intent.succeeded', fake.setStatus(intentId, 'succeeded')),
    );
    const before = retrievals(intentId);
    const res = await sendWebhook(payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    expect(retrievals(intentId)).toBe(before + 1);

    const [payment] = await paymentsOf(student);
    expect(payment).toMatchObject({
      email: student.email,
      amountCents: 5050,
      transactionId: intentId,
      status: 'succeeded',
    });
    expect([...payment!.cartIds].sort()).toEqual(intent.cartIds);
    const lines = await ctx.db.select().from(schema.enrollments).where(inArray(schema.enrollments.id, intent.cartIds));
    expect(lines.every((l) => l.status === 'paid')).toBe(true);

    // The browser coming back later gets the same payment.
    const late = await recordPayment(ctx, student, { transactionId: intentId, cartIds: intent.cartIds });
    expect(late.statusCode).toBe(200);
    expect(late.json()).toEqual({ paymentResult: { insertedId: payment!.id } });

    // A replayed event id is acknowledged without acting again (not even asking Stripe).
    const replay = await sendWebhook(payload);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(retrievals(intentId)).toBe(before + 1);
    expect(await paymentsOf(student)).toHaveLength(1);
    const events = await ctx.db
      .select()
      .from(schema.gatewayEvents)
      .where(eq(schema.gatewayEvents.id, JSON.parse(payload).id));
    expect(events).toEqual([expect.objectContaining({ type: 'payment_intent.succeeded' })]);
  });

  it('rejects a tampered body, a wrong secret and a missing signature with 400', async () => {
    const { student, intentId } = await cartWithIntent([1800]);
    const genuine = JSON.stringify(
      paymentIntentEvent('payment_intent.succeeded', fake.setStatus(intentId, 'succeeded')),
    );
    const tampered = genuine.replace('"amount":1800', '"amount":1');
    expect(tampered).not.toBe(genuine);
    const cases = [
      await sendWebhook(tampered, { signedPayload: genuine }),
      await sendWebhook(genuine, { secret: 'whsec_someone_else' }),
      await sendWebhook(genuine, { header: null }),
      await sendWebhook(genuine, { header: 't=1,v1=deadbeef' }),
    ];
    for (const res of cases) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
    }
    expect(await paymentsOf(student)).toHaveLength(0);
    expect(
      await ctx.db
        .select()
        .from(schema.gatewayEvents)
        .where(eq(schema.gatewayEvents.id, JSON.parse(genuine).id)),
    ).toHaveLength(0);
  });

  it('trusts Stripe’s current state over the event body', async () => {
    const { student, intentId } = await cartWithIntent([2200]);
    // A genuinely signed event whose body says succeeded, while Stripe says it has not.
    const claimed = { ...fake.intents.get(intentId)!, status: 'succeeded' as const };
    const res = await sendWebhook(JSON.stringify(paymentIntentEvent('payment_intent.succeeded', claimed)));
    expect(res.statusCode).toBe(200);
    expect(await paymentsOf(student)).toHaveLength(0);
  });

  it('acknowledges payment_failed and event types outside the allow-list without recording a payment', async () => {
    const { student, intentId } = await cartWithIntent([900]);
    const failed = await sendWebhook(
      JSON.stringify(
        paymentIntentEvent('payment_intent.payment_failed', fake.setStatus(intentId, 'requires_payment_method')),
      ),
    );
    expect(failed.statusCode).toBe(200);
    const other = JSON.stringify({
      ...paymentIntentEvent('payment_intent.succeeded', fake.setStatus(intentId, 'succeeded')),
      type: 'charge.refunded',
    });
    const before = retrievals(intentId);
    const ignored = await sendWebhook(other);
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json()).toEqual({ received: true });
    expect(retrievals(intentId)).toBe(before);
    expect(await paymentsOf(student)).toHaveLength(0);
  });
});

describe('one charge per cart with Stripe (decision 010)', () => {
  const intentIdOf = (clientSecret: string) => clientSecret.split('_secret_')[0]!;

  it('a newer overlapping cart cancels the older intent at Stripe, so it can never be charged', async () => {
    const student = await createCaller(ctx, 'student');
    await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 1000 })).id);
    const first = intentIdOf((await createIntentOk(ctx, student)).clientSecret);
    await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 2000 })).id);
    const second = await createIntentOk(ctx, student);
    expect(second.amount).toBe(3000);
    expect(fake.requests).toContainEqual(
      expect.objectContaining({ method: 'POST', path: `/v1/payment_intents/${first}/cancel` }),
    );
    expect(fake.intents.get(first)!.status).toBe('canceled');
    expect(fake.intents.get(intentIdOf(second.clientSecret))!.status).toBe('requires_payment_method');
  });

  it('an older intent charged just before the new cart was made is fulfilled, and the new intent covers the rest', async () => {
    const student = await createCaller(ctx, 'student');
    await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 1000 })).id);
    const first = intentIdOf((await createIntentOk(ctx, student)).clientSecret);
    await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 2000 })).id);
    fake.setStatus(first, 'succeeded'); // the first tab's Stripe.js confirmed it a moment ago
    const second = await createIntentOk(ctx, student);
    expect(second.amount).toBe(2000);
    const payments = await paymentsOf(student);
    expect(payments).toEqual([expect.objectContaining({ transactionId: first, amountCents: 1000 })]);
    expect(fake.refunds.filter((r) => r.payment_intent === first)).toEqual([]);
  });

  it('a charge whose class was archived meanwhile is refunded through Stripe when its webhook arrives', async () => {
    const student = await createCaller(ctx, 'student');
    const cls = await createClass(ctx, teacher, { priceCents: 1500 });
    await enrolOk(ctx, student, cls.id);
    const intentId = intentIdOf((await createIntentOk(ctx, student)).clientSecret);
    await ctx.db.update(schema.classes).set({ status: 'archived' }).where(eq(schema.classes.id, cls.id));
    const res = await sendWebhook(
      JSON.stringify(paymentIntentEvent('payment_intent.succeeded', fake.setStatus(intentId, 'succeeded'))),
    );
    expect(res.statusCode).toBe(200);
    expect(await paymentsOf(student)).toHaveLength(0);
    expect(fake.refunds.filter((r) => r.payment_intent === intentId)).toEqual([
      expect.objectContaining({ amount: 1500, status: 'succeeded' }),
    ]);
    const refundCall = fake.requests.find((r) => r.path === '/v1/refunds' && r.idempotencyKey?.includes(intentId));
    expect(refundCall).toBeDefined();
  });

  it('the reconciler re-reads our intents from Stripe and fulfils a charge no webhook or browser reported', async () => {
    const student = await createCaller(ctx, 'student');
    await enrolOk(ctx, student, (await createClass(ctx, teacher, { priceCents: 4200 })).id);
    const intentId = intentIdOf((await createIntentOk(ctx, student)).clientSecret);
    fake.setStatus(intentId, 'succeeded');
    const before = retrievals(intentId);
    await ctx.reconciler.runOnce();
    expect(retrievals(intentId)).toBeGreaterThan(before);
    expect(await paymentsOf(student)).toEqual([
      expect.objectContaining({ transactionId: intentId, amountCents: 4200 }),
    ]);
  });
});

describe('STRIPE_JS_URL (decision 017)', () => {
  const stripeKeys = {
    STRIPE_SECRET_KEY: 'sk_test_skillhive',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_skillhive',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  };

  it('accepts https anywhere and http only on loopback', () => {
    for (const url of [
      'https://js.stripe.com/v3/',
      'https://stripe-js.example.test/stripe.js',
      'http://127.0.0.1:4242/v3/',
      'http://localhost:4242/stripe.js',
      'http://[::1]:4242/stripe.js',
    ]) {
      expect(loadEnv({ ...stripeKeys, STRIPE_JS_URL: url }).STRIPE_JS_URL).toBe(url);
    }
    for (const url of [
      'http://js.stripe.com/v3/',
      'http://10.0.0.5/stripe.js',
      'http://127.0.0.1.example.test/stripe.js',
      'javascript:alert(1)',
      'ftp://127.0.0.1/stripe.js',
      'https://user:secret@js.stripe.com/v3/',
      'not a url',
    ]) {
      expect(() => loadEnv({ ...stripeKeys, STRIPE_JS_URL: url }), url).toThrow(/STRIPE_JS_URL/);
    }
  });

  it('defaults to Stripe’s own address', () => {
    expect(loadEnv(stripeKeys).STRIPE_JS_URL).toBe(DEFAULT_STRIPE_JS_URL);
    expect(DEFAULT_STRIPE_JS_URL).toMatch(/^https:\/\/js\.stripe\.com\//);
  });

  it('is what the web app loads, and replaces Stripe’s hosts in the CSP', async () => {
    const local = await createTestApp({
      ...FAST_SIGNUP_ENV,
      ...stripeKeys,
      STRIPE_API_BASE: fake.url,
      STRIPE_JS_URL: 'http://127.0.0.1:4242/v3/',
    });
    try {
      const config = (await local.app.inject('/api/config')).json();
      expect(config.payments.stripeJsUrl).toBe('http://127.0.0.1:4242/v3/');
      const csp = cspOf(await local.app.inject('/api/health'));
      expect(csp['script-src']).toEqual(["'self'", 'http://127.0.0.1:4242']);
      expect(csp['frame-src']).toEqual(['http://127.0.0.1:4242']);
      expect(csp['connect-src']).toEqual(["'self'", 'http://127.0.0.1:4242']);
      expect(JSON.stringify(csp)).not.toContain('stripe.com');
    } finally {
      await local.close();
    }
  });

  it('is neither offered nor allowed by the CSP on the test gateway', async () => {
    const plain = await createTestApp({ ...FAST_SIGNUP_ENV, STRIPE_JS_URL: 'http://127.0.0.1:4242/v3/' });
    try {
      expect((await plain.app.inject('/api/config')).json().payments).toEqual({
        gateway: 'test',
        publishableKey: null,
        stripeJsUrl: null,
      });
      const csp = cspOf(await plain.app.inject('/api/health'));
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['frame-src']).toEqual(["'none'"]);
      expect(csp['connect-src']).toEqual(["'self'"]);
    } finally {
      await plain.close();
    }
  });
});
