import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, createClass } from './commerce-fixtures.ts';
import type { paths } from './generated/api.ts';
import { createTestApp, createUser, latestMail, TEST_PASSWORD, uniqueEmail, type TestContext } from './harness.ts';

/**
 * The document is enough for an outside integrator (decision 012): a client typed only by what
 * openapi-typescript generates from it walks the marketplace flow of spec §4. Its requests go
 * through app.inject, so every answer is also contract-checked.
 */
describe('a typed client generated from the OpenAPI document', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  /** fetch for openapi-fetch, answered by the app in process (no port needed). */
  async function injectFetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const body = request.body ? await request.text() : undefined;
    const response = await ctx.app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      ...(body !== undefined ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) headers.append(name, String(v));
    }
    return new Response(response.rawPayload.length > 0 ? new Uint8Array(response.rawPayload) : null, {
      status: response.statusCode,
      headers,
    });
  }

  const clientWith = (headers: Record<string, string> = {}) =>
    createClient<paths>({ baseUrl: 'http://localhost:3000', fetch: injectFetch, headers });

  it('signs up, enrolls, pays with the test gateway and sees the payment', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const offered = await createClass(ctx, teacher, { priceCents: 4500 });

    const anonymous = clientWith();
    const email = uniqueEmail('integrator');
    const signUp = await anonymous.POST('/api/auth/sign-up/email', {
      body: {
        name: 'Ada Integrator',
        email,
        password: TEST_PASSWORD,
        phone: '+1 555-010-12345',
        image: 'https://example.test/ada.png',
      },
    });
    expect(signUp.response.status).toBe(200);
    expect(signUp.data?.user.email).toBe(email);
    const cookie = signUp.response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

    // Paying needs a verified address: the link from the sign-up mail, followed as a browser would.
    const { link } = await latestMail(ctx, email, 'verify-email');
    const verified = await anonymous.GET('/api/auth/verify-email', {
      params: { query: { token: link.searchParams.get('token')!, callbackURL: '/email-verified' } },
      redirect: 'manual',
    });
    expect(verified.response.status).toBe(302);
    expect(verified.response.headers.get('location')).toBe('/email-verified');

    const issued = await clientWith({ cookie }).POST('/api/jwt', { body: { email } });
    expect(issued.response.status).toBe(200);
    const student = clientWith({ authorization: `Bearer ${issued.data!.token}` });

    const enrolled = await student.POST('/api/enrolled', { body: { enrollId: offered.id } });
    expect(enrolled.response.status).toBe(201);
    expect(enrolled.data).toMatchObject({ created: true, status: 'pending' });

    const intent = await student.POST('/api/create-payment-intent', { body: {} });
    expect(intent.data).toMatchObject({ amount: 4500, gateway: 'test', cartIds: [enrolled.data!.insertedId] });

    const confirmed = await student.POST('/api/test-gateway/confirm', {
      body: { clientSecret: intent.data!.clientSecret, ...card('4242424242424242') },
    });
    expect(confirmed.data?.status).toBe('succeeded');

    const paid = await student.POST('/api/payments', {
      body: { transactionId: confirmed.data!.transactionId!, cartIds: intent.data!.cartIds },
    });
    expect([200, 201]).toContain(paid.response.status);

    const history = await student.GET('/api/payments/{email}', { params: { path: { email } } });
    expect(history.response.headers.get('x-total-count')).toBe('1');
    expect(history.data?.[0]?._id).toBe(paid.data!.paymentResult.insertedId);

    const taken = await student.GET('/api/enrolled/{emailOrId}', {
      params: { path: { emailOrId: email }, query: { status: 'paid' } },
    });
    expect(taken.data?.map((e) => e.enrollId)).toEqual([offered.id]);

    // Errors come typed as the ErrorResponse envelope.
    const again = await student.DELETE('/api/enrolled/{emailOrId}', {
      params: { path: { emailOrId: enrolled.data!.insertedId } },
    });
    expect(again.response.status).toBe(409);
    expect(again.error?.error.code).toBe('conflict');
  });
});
