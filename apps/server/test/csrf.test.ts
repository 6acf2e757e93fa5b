import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe } from './fake-stripe.ts';
import { createTestApp, createUser, tokenFor, type TestContext, type TestUser } from './harness.ts';

/**
 * Cross-site request forgery (hardening §5): an unsafe request that carries the session cookie
 * must come from PUBLIC_URL's origin; safe methods and cookie-less requests are unaffected.
 */
let ctx: TestContext;
let student: TestUser;
const ORIGIN = 'http://localhost:3000';
beforeAll(async () => {
  ctx = await createTestApp({ PUBLIC_URL: ORIGIN });
  student = await createUser(ctx, 'student');
});
afterAll(async () => {
  await ctx?.close();
});

async function imageUpload(headers: Record<string, string>) {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png()
    .toBuffer();
  const boundary = `----csrf${randomBytes(6).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/uploads/images',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([Buffer.from(head), png, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

function expectRefused(response: { statusCode: number; json(): unknown }) {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toMatchObject({
    error: { code: 'forbidden', message: 'Cross-site requests are not allowed' },
    requestId: expect.any(String),
  });
}

describe('cookie-authenticated unsafe requests', () => {
  it('refuses a cross-site multipart upload carrying the session cookie, and stores nothing', async () => {
    expectRefused(await imageUpload({ ...student.headers, origin: 'https://evil.example' }));
    expectRefused(await imageUpload({ ...student.headers, 'sec-fetch-site': 'cross-site' }));
    // The same upload from our own pages goes through.
    expect(
      (await imageUpload({ ...student.headers, origin: ORIGIN, 'sec-fetch-site': 'same-origin' })).statusCode,
    ).toBe(200);
    expect((await imageUpload(student.headers)).statusCode).toBe(200);
  });

  it('refuses every unsafe method from another origin, a sibling site, or an opaque origin', async () => {
    const refusals: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:3001' },
      { origin: 'https://localhost:3000' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://shop.localhost:3000' },
      { 'sec-fetch-site': 'cross-site', origin: ORIGIN },
    ];
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const extra of refusals) {
        const response = await ctx.app.inject({
          method,
          url: '/api/jwt',
          headers: { ...student.headers, ...extra },
          payload: { email: student.email },
        });
        expectRefused(response);
      }
    }
  });

  it('lets our own origin through, and a same-site request whose Origin is ours', async () => {
    for (const extra of [{ origin: ORIGIN }, { origin: ORIGIN, 'sec-fetch-site': 'same-site' }, {}]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/jwt',
        headers: { ...student.headers, ...extra },
        payload: { email: student.email },
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('refuses a cross-site sign-out under /api/auth too', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { ...student.headers, 'sec-fetch-site': 'cross-site' },
    });
    expectRefused(response);
  });
});

describe('requests the check leaves alone', () => {
  it('serves safe methods from any origin', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await ctx.app.inject({
        method,
        url: '/api/users/profile/' + encodeURIComponent(student.email),
        headers: { ...student.headers, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('accepts a Bearer token without a cookie from any origin, multipart included', async () => {
    const token = await tokenFor(ctx, student);
    const response = await imageUpload({
      authorization: `Bearer ${token}`,
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(response.statusCode).toBe(200);
  });

  it('lets the Stripe webhook (no cookie) reach its signature check', async () => {
    const fake = await startFakeStripe();
    const stripe = await createTestApp({
      PUBLIC_URL: ORIGIN,
      STRIPE_SECRET_KEY: 'sk_test_skillhive',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_skillhive',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_csrf',
      STRIPE_API_BASE: fake.url,
    });
    try {
      const response = await stripe.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': 't=1,v1=bad',
          origin: 'https://hooks.stripe.com',
          'sec-fetch-site': 'cross-site',
        },
        payload: '{"id":"evt_1","type":"payment_intent.succeeded"}',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
    } finally {
      await stripe.close();
      await fake.close();
    }
  });
});
