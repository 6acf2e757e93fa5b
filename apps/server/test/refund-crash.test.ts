import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefundRequest } from '@skillhive/shared/contracts/refunds';
import { buildApp } from '../src/app.ts';
import { openPostgres, schema, type Database } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { createLocalStorage } from '../src/modules/uploads/storage.public.ts';
import { FAST_SIGNUP_ENV, createCaller, createClass, createIntentOk, enroll } from './commerce-fixtures.ts';
import { paymentIntentEvent, startFakeStripe, type FakeStripe } from './fake-stripe.ts';
import {
  freePort,
  hasPostgresBinaries,
  spawnServer,
  startPgCluster,
  waitFor,
  waitReady,
  type PgCluster,
  type ServerProcess,
} from './fault-helpers.ts';

/**
 * Refunds always finish (decision 031), with the server process killed (SIGKILL) while it waits
 * for Stripe — before Stripe refunded, and after Stripe refunded but before the answer came back —
 * stopped (SIGTERM) past SHUTDOWN_TIMEOUT_MS while it waits, and with the database stopped (pg_ctl)
 * while Stripe's answer is on its way.
 * Two instances share a PostgreSQL cluster of this test's own: the spawned server approves and is
 * killed; the in-process one (its reconciler run by hand, its clock moved past the grace)
 * finishes the refund. Money at the gateway and the database agree to the cent afterwards.
 */
const AUTH_SECRET = 'test-secret-that-is-long-enough-1234567890';
const WEBHOOK_SECRET = 'whsec_test_skillhive_refund_crash';
const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_skillhive',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_skillhive',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

let cluster: PgCluster;
let fake: FakeStripe;
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>['app'];
let reconciler: Awaited<ReturnType<typeof buildApp>>['reconciler'];
let ctx: { app: typeof app; db: Database['db'] };
let dataDirs: string[] = [];
let skewMs = 0;

const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'skillhive-refund-crash-'));
  dataDirs.push(dir);
  return dir;
};

describe.skipIf(!hasPostgresBinaries)('a refund cut short by kill -9 of the server', () => {
  beforeAll(async () => {
    cluster = await startPgCluster();
    fake = await startFakeStripe();
    const env = loadEnv({
      NODE_ENV: 'test',
      DATA_DIR: tempDir(),
      PUBLIC_URL: 'http://localhost:3000',
      LOG_LEVEL: 'silent',
      DATABASE_URL: cluster.url,
      RECONCILE_INTERVAL_SECONDS: '0',
      ...FAST_SIGNUP_ENV,
      ...STRIPE_ENV,
      STRIPE_API_BASE: fake.url,
    });
    database = await openPostgres(cluster.url, {
      poolSize: 4,
      connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
      queryTimeoutMs: env.DB_QUERY_TIMEOUT_MS,
      statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    });
    await database.migrate();
    ({ app, reconciler } = await buildApp({
      env,
      database,
      storage: createLocalStorage(env.uploadDir),
      authSecret: AUTH_SECRET,
      logger: false,
      now: () => new Date(Date.now() + skewMs),
    }));
    await app.ready();
    ctx = { app, db: database.db };
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await database?.close().catch(() => {});
    await fake?.close();
    cluster?.destroy();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    dataDirs = [];
  });

  async function startOtherInstance(extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
    const server = spawnServer(await freePort(), {
      ...extraEnv,
      DATA_DIR: tempDir(),
      DATABASE_URL: cluster.url,
      AUTH_SECRET,
      RECONCILE_INTERVAL_SECONDS: '0',
      ...STRIPE_ENV,
      STRIPE_API_BASE: fake.url,
    });
    await waitReady(server, 60_000);
    return server;
  }

  async function paidAndRequested(priceCents: number) {
    const [teacher, student] = [await createCaller(ctx, 'teacher'), await createCaller(ctx, 'student')];
    const cls = await createClass(ctx, teacher, { priceCents });
    expect((await enroll(ctx, student, cls.id)).statusCode).toBeLessThan(300);
    const intentId = (await createIntentOk(ctx, student)).clientSecret.split('_secret_')[0]!;
    const payload = JSON.stringify(
      paymentIntentEvent('payment_intent.succeeded', fake.setStatus(intentId, 'succeeded')),
    );
    const hook = await app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      payload,
    });
    expect(hook.statusCode).toBe(200);
    const [payment] = await ctx.db.select().from(schema.payments).where(eq(schema.payments.transactionId, intentId));
    const [line] = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.paymentId, payment!.id));
    const asked = await app.inject({
      method: 'POST',
      url: '/api/refund-requests',
      headers: student.headers,
      payload: { enrollmentId: line!.id, reason: 'Not for me' },
    });
    expect(asked.statusCode).toBe(201);
    return { intentId, paymentId: payment!.id, lineId: line!.id, request: asked.json() as RefundRequest };
  }

  for (const moment of ['hang-before', 'hang-after'] as const) {
    it(`finishes the refund when the approving server is killed ${moment === 'hang-before' ? 'before' : 'after'} Stripe refunded`, async () => {
      const admin = await createCaller(ctx, 'admin');
      const { intentId, paymentId, lineId, request } = await paidAndRequested(4000);
      const other = await startOtherInstance();
      const refundCalls = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds').length;
      const callsBefore = refundCalls();
      fake.failRefunds = moment;
      try {
        const approving = fetch(`${other.origin}/api/admin/refund-requests/${request._id}/approve`, {
          method: 'POST',
          headers: admin.headers,
        }).catch(() => null);
        await waitFor(async () => refundCalls() > callsBefore, 20_000, 'the approval reaching Stripe');
        other.child.kill('SIGKILL');
        await other.exited;
        expect(await approving).toBeNull();
      } finally {
        fake.failRefunds = null;
      }
      const atStripe = () => fake.refunds.filter((r) => r.payment_intent === intentId);
      expect(atStripe()).toHaveLength(moment === 'hang-after' ? 1 : 0);
      const [pending] = await ctx.db.select().from(schema.refunds).where(eq(schema.refunds.paymentId, paymentId));
      expect(pending).toMatchObject({ status: 'pending', amountCents: 4000 });

      skewMs += 10 * 60_000;
      await reconciler.runOnce();

      const rows = await ctx.db.select().from(schema.refunds).where(eq(schema.refunds.paymentId, paymentId));
      expect(rows).toMatchObject([{ id: pending!.id, status: 'succeeded' }]);
      expect(atStripe().map((r) => r.amount)).toEqual([4000]);
      expect(rows[0]!.gatewayRefundId).toBe(atStripe()[0]!.id);
      const [line] = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.id, lineId));
      expect(line).toMatchObject({ status: 'refunded', paidCents: 4000 });
      const [decided] = await ctx.db
        .select()
        .from(schema.refundRequests)
        .where(eq(schema.refundRequests.id, request._id));
      expect(decided).toMatchObject({ status: 'approved', refundId: pending!.id });
    }, 120_000);
  }

  it('finishes the refund when the approving server is stopped (SIGTERM) past SHUTDOWN_TIMEOUT_MS after Stripe refunded, once restarted', async () => {
    const admin = await createCaller(ctx, 'admin');
    const { intentId, paymentId, lineId, request } = await paidAndRequested(2700);
    const other = await startOtherInstance({ SHUTDOWN_TIMEOUT_MS: '500' });
    const refundCalls = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds').length;
    const callsBefore = refundCalls();
    fake.failRefunds = 'hang-after';
    try {
      const approving = fetch(`${other.origin}/api/admin/refund-requests/${request._id}/approve`, {
        method: 'POST',
        headers: admin.headers,
      }).catch(() => null);
      await waitFor(async () => refundCalls() > callsBefore, 20_000, 'the approval reaching Stripe');
      // A graceful stop waits for the approval, which waits for Stripe past the shutdown timeout.
      other.child.kill('SIGTERM');
      await other.exited;
      expect(await approving).toBeNull();
    } finally {
      fake.failRefunds = null;
    }
    const atStripe = () => fake.refunds.filter((r) => r.payment_intent === intentId);
    expect(atStripe().map((r) => r.amount)).toEqual([2700]);
    const [pending] = await ctx.db.select().from(schema.refunds).where(eq(schema.refunds.paymentId, paymentId));
    expect(pending).toMatchObject({ status: 'pending', amountCents: 2700 });

    // Restarted: approving again resumes the refund with its key (Stripe refunds once) and settles it.
    const restarted = await startOtherInstance();
    try {
      const again = await fetch(`${restarted.origin}/api/admin/refund-requests/${request._id}/approve`, {
        method: 'POST',
        headers: admin.headers,
      });
      expect(again.status).toBe(200);
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
    const rows = await ctx.db.select().from(schema.refunds).where(eq(schema.refunds.paymentId, paymentId));
    expect(atStripe().map((r) => r.amount)).toEqual([2700]);
    expect(rows).toMatchObject([{ id: pending!.id, status: 'succeeded', gatewayRefundId: atStripe()[0]!.id }]);
    const [line] = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.id, lineId));
    expect(line).toMatchObject({ status: 'refunded', paidCents: 2700 });
  }, 120_000);

  it('an approval whose database went away after Stripe refunded is resumed by approving again, not 409', async () => {
    const admin = await createCaller(ctx, 'admin');
    const { intentId, paymentId, lineId, request } = await paidAndRequested(3300);
    const refundCalls = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds').length;
    const callsBefore = refundCalls();
    const approve = () =>
      app.inject({ method: 'POST', url: `/api/admin/refund-requests/${request._id}/approve`, headers: admin.headers });
    fake.failRefunds = 'hang-after';
    let first: Awaited<ReturnType<typeof approve>>;
    try {
      const approving = approve();
      await waitFor(async () => refundCalls() > callsBefore, 20_000, 'the approval reaching Stripe');
      cluster.stop();
      fake.releaseRefunds();
      first = await approving;
    } finally {
      fake.failRefunds = null;
      cluster.start();
    }
    // The decision committed; recording Stripe's answer met no database.
    expect(first.statusCode).toBe(503);
    await waitFor(
      async () => (await app.inject({ method: 'GET', url: '/api/ready' })).statusCode === 200,
      30_000,
      'the database back',
    );

    const again = await approve();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'approved' });
    const rows = await ctx.db.select().from(schema.refunds).where(eq(schema.refunds.paymentId, paymentId));
    const made = fake.refunds.filter((r) => r.payment_intent === intentId);
    expect(made.map((r) => r.amount)).toEqual([3300]);
    expect(rows).toMatchObject([{ status: 'succeeded', gatewayRefundId: made[0]!.id, amountCents: 3300 }]);
    const [line] = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.id, lineId));
    expect(line).toMatchObject({ status: 'refunded', paidCents: 3300 });
  }, 120_000);
});
