import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { createTestApp, createUser, signUp, TEST_PASSWORD, type TestContext } from '../../../server/test/harness.ts';
import { createClass, FAST_SIGNUP_ENV } from '../../../server/test/commerce-fixtures.ts';
import { startFakeStripe } from '../../../server/test/fake-stripe.ts';
import { CATALOGUE, type CatalogueTitle, type RealServer } from './real-server.ts';

/**
 * Web unit tests talk to the real server (apps/server), in this process, on loopback: the app the
 * server suites build (`createTestApp`: a fresh migrated PGlite, every response checked against
 * the OpenAPI document), listening on 127.0.0.1. Two of them: the default configuration (the test
 * gateway takes cards) and one configured for Stripe, whose API is the typed local stand-in of
 * the server suites (fake-stripe.ts, the one boundary we cannot reach).
 *
 * Set up here as the server suites set it up: an admin (ADMIN_EMAILS, signed up and verified
 * through the real routes), a teacher (role given in the database, as `createUser` does) and
 * accepted classes (inserted, as commerce-fixtures' `createClass` does). Everything else a test
 * needs (students, enrollments, payments) it makes through the real API (src/test/real-api.ts).
 */

/** A free loopback port: PUBLIC_URL (the origin better-auth trusts) must name it before the app is built. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function startServer(settings: Record<string, string>): Promise<{ info: RealServer; ctx: TestContext }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const admin = { email: `admin.${process.pid}@example.test`, password: TEST_PASSWORD };
  const ctx = await createTestApp({
    ...FAST_SIGNUP_ENV,
    RATE_LIMIT_TOKENS_PER_MINUTE: '100000',
    RATE_LIMIT_MAIL_REQUESTS: '100000',
    PUBLIC_URL: baseUrl,
    ADMIN_EMAILS: admin.email,
    ...settings,
  });
  await ctx.app.listen({ host: '127.0.0.1', port });
  await signUp(ctx, { ...admin, name: 'Ada Admin' });
  const teacher = await createUser(ctx, 'teacher', { name: 'Tess Teacher' });
  const classes = {} as Record<CatalogueTitle, string>;
  for (const [title, priceCents] of Object.entries(CATALOGUE) as [CatalogueTitle, number][]) {
    classes[title] = (await createClass(ctx, teacher, { title, priceCents })).id;
  }
  return { info: { baseUrl, admin, teacher: { email: teacher.email, password: TEST_PASSWORD }, classes }, ctx };
}

export default async function setup(project: TestProject) {
  const stripeApi = await startFakeStripe();
  const starting = [
    startServer({}),
    startServer({
      STRIPE_SECRET_KEY: 'sk_test_skillhive',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_skillhive',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_skillhive_webhook_secret',
      STRIPE_API_BASE: stripeApi.url,
    }),
  ];
  const results = await Promise.allSettled(starting);
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.ctx] : []));
  const close = async () => {
    for (const ctx of started) await ctx.close();
    await stripeApi.close();
  };
  const [main, stripe] = results;
  if (main?.status !== 'fulfilled' || stripe?.status !== 'fulfilled') {
    await close();
    throw results.find((result) => result.status === 'rejected')?.reason;
  }
  project.provide('realServer', main.value.info);
  project.provide('stripeServer', stripe.value.info);
  return close;
}
