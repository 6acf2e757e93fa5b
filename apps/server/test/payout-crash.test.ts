import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openPglite, openPostgres, type Database, type Db } from '../src/db/client.ts';
import { loadEnv, type Env } from '../src/env.ts';
import { releaseDue } from '../src/modules/earnings/ledger.ts';
import { createLocalStorage } from '../src/modules/uploads/storage.public.ts';
import {
  FAST_SIGNUP_ENV,
  createCaller,
  createClass,
  createIntentOk,
  enrolOk,
  type Caller,
  type TestClass,
} from './commerce-fixtures.ts';
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
import { rawRows } from './harness.ts';

/**
 * A payout run cut short by kill -9 of the server (decision 040), at its two dangerous moments:
 * after a payout was decided (committed in flight) but before Stripe transferred, and after Stripe
 * transferred but before the answer came back and was written down. The server is `node
 * src/server.ts` as a user runs it, on the suite's database kind: PGlite in a DATA_DIR by default,
 * a PostgreSQL cluster of this test's own on the PostgreSQL pass (TEST_DATABASE_URL set), as
 * refund-crash.test.ts does. Stripe is the local fake, whose POST /v1/transfers holds the request
 * open (`hang-before`: nothing transferred; `hang-after`: transferred) until the test kills the
 * server — a deterministic stop, with no test branch in the server.
 *
 * Then the server is started again on the same database with its money-out job on: the scheduled
 * run pays the teacher nobody decided yet, and once the 2-minute grace of the two payouts left in
 * flight has passed, the reconciler settles them (asking Stripe first whether it made each
 * transfer). Afterwards: every payout item transferred exactly once at Stripe, every released cent
 * paid, and for every teacher shares − claw-backs = paid out + balance to the cent.
 *
 * The grace is real time (the spawned server's clock is the machine's), so the test waits about
 * two minutes once.
 */
const KIND: 'pglite' | 'postgres' = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const AUTH_SECRET = 'payout-crash-secret-that-is-long-enough-0123456789';
const WEBHOOK_SECRET = 'whsec_test_skillhive_payout_crash';
const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_skillhive',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_skillhive',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};
/** Shares are released at purchase (no refund window), so payouts are due at once. */
const MONEY_ENV = {
  REFUND_WINDOW_DAYS: '0',
  PAYOUT_MINIMUM_CENTS: '1',
  PAYOUT_SCHEDULE: 'daily',
  RECONCILE_INTERVAL_SECONDS: '0',
};

let cluster: PgCluster | undefined;
let fake: FakeStripe;
let env: Env;
let dataDir: string;
const tempDirs: string[] = [];
const running = new Set<ServerProcess>();

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};

function openDatabase(): Promise<Database> {
  return cluster ? openPostgres(cluster.url, 4) : openPglite(dataDir);
}

/**
 * The database opened in this process, with the app on it, for set-up and for reading the books.
 * On PGlite the spawned server and this process cannot hold DATA_DIR at once, so the two take turns.
 */
async function withApp<T>(work: (ctx: { app: Awaited<ReturnType<typeof buildApp>>['app']; db: Db }) => Promise<T>) {
  const database = await openDatabase();
  try {
    await database.migrate();
    const { app } = await buildApp({
      env,
      database,
      storage: createLocalStorage(env.uploadDir),
      authSecret: AUTH_SECRET,
      logger: false,
    });
    await app.ready();
    try {
      return await work({ app, db: database.db });
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

async function startServer(extraEnv: Record<string, string>): Promise<ServerProcess> {
  const server = spawnServer(await freePort(), {
    ...MONEY_ENV,
    ...STRIPE_ENV,
    STRIPE_API_BASE: fake.url,
    AUTH_SECRET,
    ...(cluster ? { DATABASE_URL: cluster.url, DATA_DIR: tempDir('skillhive-payout-crash-') } : { DATA_DIR: dataDir }),
    ...extraEnv,
  });
  running.add(server);
  void server.exited.then(() => running.delete(server));
  await waitReady(server, 90_000);
  return server;
}

const transferPosts = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/transfers');

/**
 * Asks the server to run payouts now and kills it (SIGKILL) while Stripe holds its first transfer:
 * `hang-before` before Stripe made it, `hang-after` after.
 */
async function killMidTransfer(admin: Caller, moment: 'hang-before' | 'hang-after'): Promise<void> {
  const server = await startServer({ PAYOUT_JOB_INTERVAL_SECONDS: '0' });
  const before = transferPosts().length;
  fake.connect.failTransfers = moment;
  try {
    const run = fetch(`${server.origin}/api/admin/payouts/run`, { method: 'POST', headers: admin.headers }).catch(
      () => null,
    );
    await waitFor(async () => transferPosts().length > before, 30_000, 'the payout run reaching Stripe');
    server.child.kill('SIGKILL');
    await server.exited;
    expect(await run).toBeNull();
  } finally {
    fake.connect.failTransfers = null;
  }
}

interface Balance {
  teacher_id: string;
  pending_cents: number;
  available_cents: number;
  frozen_cents: number;
  paid_cents: number;
  shares_cents: number;
  clawbacks_cents: number;
}

/** shares − claw-backs = paid out + balance for every teacher; the balances are their journal's sums. */
async function expectBooksBalance(db: Db, teacherIds: string[]): Promise<Balance[]> {
  const balances = await rawRows<Balance>(db, sql`select * from teacher_balances order by teacher_id`);
  expect(balances.map((b) => b.teacher_id)).toEqual([...teacherIds].sort());
  for (const b of balances) {
    const [journal] = await rawRows<{ p: number; a: number; f: number; d: number }>(
      db,
      sql`select coalesce(sum(pending_cents),0)::int p, coalesce(sum(available_cents),0)::int a,
            coalesce(sum(frozen_cents),0)::int f, coalesce(sum(paid_cents),0)::int d
          from ledger_entries where teacher_id = ${b.teacher_id}`,
    );
    expect(journal).toEqual({ p: b.pending_cents, a: b.available_cents, f: b.frozen_cents, d: b.paid_cents });
    const [lines] = await rawRows<{ shares: number; clawbacks: number }>(
      db,
      sql`select coalesce(sum(share_cents),0)::int shares, coalesce(sum(clawback_cents),0)::int clawbacks
          from earning_lines where teacher_id = ${b.teacher_id}`,
    );
    expect(lines).toEqual({ shares: b.shares_cents, clawbacks: b.clawbacks_cents });
    // A payout counts as paid from its decision (decision 040): in flight, or transferred.
    const [out] = await rawRows<{ paid: number }>(
      db,
      sql`select coalesce(sum(amount_cents),0)::int paid from payouts
          where teacher_id = ${b.teacher_id} and status in ('in_flight', 'paid')`,
    );
    expect(out!.paid).toBe(b.paid_cents);
    expect(b.shares_cents - b.clawbacks_cents).toBe(out!.paid + b.pending_cents + b.available_cents + b.frozen_cents);
  }
  return balances;
}

describe.skipIf(KIND === 'postgres' && !hasPostgresBinaries)(
  `a payout run cut short by kill -9 of the server (${KIND})`,
  () => {
    beforeAll(async () => {
      if (KIND === 'postgres') cluster = await startPgCluster();
      fake = await startFakeStripe();
      dataDir = tempDir('skillhive-payout-crash-data-');
      env = loadEnv({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        PUBLIC_URL: 'http://localhost:3000',
        LOG_LEVEL: 'silent',
        ...(cluster ? { DATABASE_URL: cluster.url } : {}),
        ...FAST_SIGNUP_ENV,
        ...MONEY_ENV,
        PAYOUT_JOB_INTERVAL_SECONDS: '0',
        ...STRIPE_ENV,
        STRIPE_API_BASE: fake.url,
      });
    }, 90_000);

    afterAll(async () => {
      for (const server of running) server.child.kill('SIGKILL');
      await Promise.all([...running].map((s) => s.exited));
      await fake?.close();
      cluster?.destroy();
      for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
    });

    it('transfers every payout item exactly once, pays every released cent and balances every teacher', async () => {
      // --- Set-up in this process: three teachers with connected accounts, four carts, two refunds.
      const { admin, teachers } = await withApp(async (ctx) => {
        const admin = await createCaller(ctx, 'admin');
        const teachers: Awaited<ReturnType<typeof createCaller>>[] = [];
        for (let i = 0; i < 3; i++) {
          const teacher = await createCaller(ctx, 'teacher');
          const started = await ctx.app.inject({
            method: 'POST',
            url: '/api/teachers/me/connect',
            headers: teacher.headers,
          });
          expect(started.statusCode).toBe(200);
          // Stripe's hosted onboarding, submitted as the teacher would; then back at SkillHive.
          const submitted = await fetch((started.json() as { url: string }).url, {
            method: 'POST',
            body: new URLSearchParams({ holder: 'Tara Teacher', iban: 'DE89370400440532013000' }),
            redirect: 'manual',
          });
          expect(submitted.status).toBe(303);
          const back = await ctx.app.inject({
            method: 'GET',
            url: '/api/teachers/me/connect/return',
            headers: teacher.headers,
          });
          expect(back.statusCode).toBe(303);
          teachers.push(teacher);
        }
        const classes: TestClass[][] = [];
        for (const [i, teacher] of teachers.entries()) {
          classes.push([
            await createClass(ctx, teacher, { priceCents: 2999 + i * 1000 }),
            await createClass(ctx, teacher, { priceCents: 1333 + i * 777 }),
          ]);
        }
        const [t1, t2, t3] = classes as [TestClass[], TestClass[], TestClass[]];
        const carts: TestClass[][] = [
          [t1[0]!, t2[0]!, t3[0]!],
          [t1[1]!, t2[1]!],
          [t3[1]!, t1[0]!],
          [t2[0]!, t3[0]!],
        ];
        const lines: { paymentId: string; enrollmentId: string; teacherId: string }[] = [];
        for (const cart of carts) {
          const student = await createCaller(ctx, 'student');
          for (const c of cart) await enrolOk(ctx, student, c.id);
          const intentId = (await createIntentOk(ctx, student)).clientSecret.split('_secret_')[0]!;
          const payload = JSON.stringify(
            paymentIntentEvent('payment_intent.succeeded', fake.setStatus(intentId, 'succeeded')),
          );
          const hook = await ctx.app.inject({
            method: 'POST',
            url: '/api/webhooks/stripe',
            headers: {
              'content-type': 'application/json',
              'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
            },
            payload,
          });
          expect(hook.statusCode).toBe(200);
          lines.push(
            ...(await rawRows<{ paymentId: string; enrollmentId: string; teacherId: string }>(
              ctx.db,
              sql`select l.payment_id "paymentId", l.enrollment_id "enrollmentId", l.teacher_id "teacherId"
                from earning_lines l join payments p on p.id = l.payment_id
                where p.transaction_id = ${intentId} order by l.enrollment_id`,
            )),
          );
        }
        expect(lines).toHaveLength(9);
        // No refund window: every share is available at once.
        expect(await releaseDue(ctx.db, new Date())).toBe(9);
        // A line of each of the last two carts refunded after release: its share is clawed back
        // from available (every teacher keeps at least two lines to pay out).
        for (const line of [lines[5]!, lines[7]!]) {
          const res = await ctx.app.inject({
            method: 'POST',
            url: `/api/admin/payments/${line.paymentId}/refunds`,
            headers: admin.headers,
            payload: { reason: 'Not for me', enrollmentId: line.enrollmentId },
          });
          expect(res.statusCode).toBe(200);
        }
        const [clawed] = await rawRows<{ n: number }>(
          ctx.db,
          sql`select count(*)::int n from earning_lines where clawback_cents > 0`,
        );
        expect(clawed!.n).toBe(2);
        return { admin, teachers };
      });
      const teacherIds = teachers.map((t) => t.id);

      // --- Killed after deciding the first teacher's payout, before Stripe transferred anything;
      // then, restarted, killed after Stripe made the second teacher's first transfer.
      await killMidTransfer(admin, 'hang-before');
      await killMidTransfer(admin, 'hang-after');

      const decided = await withApp(async ({ db }) => {
        const payouts = await rawRows<{ id: string; teacher_id: string; status: string; amount_cents: number }>(
          db,
          sql`select id, teacher_id, status, amount_cents from payouts order by created_at`,
        );
        // Both decisions committed before Stripe was asked; nothing written down as transferred.
        expect(payouts.map((p) => p.status)).toEqual(['in_flight', 'in_flight']);
        const items = await rawRows<{ id: string; payout_id: string; transfer_id: string | null }>(
          db,
          sql`select id, payout_id, transfer_id from payout_items`,
        );
        expect(items.length).toBeGreaterThan(2);
        expect(items.every((i) => i.transfer_id === null)).toBe(true);
        // The books hold at the instant of the crash: the payouts count as paid already.
        const balances = await expectBooksBalance(db, teacherIds);
        for (const payout of payouts) {
          const balance = balances.find((b) => b.teacher_id === payout.teacher_id)!;
          expect(balance).toMatchObject({ available_cents: 0, paid_cents: payout.amount_cents });
        }
        return { payouts, items };
      });
      const [first, second] = decided.payouts as [(typeof decided.payouts)[0], (typeof decided.payouts)[0]];
      // Stripe made exactly one transfer: the second payout's first item; the first payout's none.
      const made = [...fake.connect.transfers.values()];
      expect(made).toHaveLength(1);
      const heldItem = decided.items.find((i) => i.id === made[0]!.metadata.payout_item)!;
      expect(heldItem.payout_id).toBe(second.id);
      expect(decided.items.some((i) => i.payout_id === first.id)).toBe(true);

      // --- Restarted with its money-out job on: it settles both once their grace is over, and
      // its scheduled run pays the third teacher.
      const restarted = await startServer({ PAYOUT_JOB_INTERVAL_SECONDS: '1' });
      try {
        await waitFor(
          async () => {
            const res = await fetch(`${restarted.origin}/api/admin/payouts?limit=100`, { headers: admin.headers });
            const rows = (await res.json()) as { status: string }[];
            return rows.length === 3 && rows.every((r) => r.status === 'paid');
          },
          200_000,
          'the restarted server to settle every payout',
        );
      } finally {
        restarted.child.kill('SIGTERM');
        await restarted.exited;
      }

      await withApp(async ({ db }) => {
        const items = await rawRows<{ id: string; amount_cents: number; transfer_id: string | null; account: string }>(
          db,
          sql`select i.id, i.amount_cents, i.transfer_id, p.account_id account
            from payout_items i join payouts p on p.id = i.payout_id where p.status = 'paid'`,
        );
        // Each item transferred exactly once, for its amount, to its teacher's account, and written down.
        const transfers = [...fake.connect.transfers.values()];
        expect(transfers).toHaveLength(items.length);
        for (const item of items) {
          const atStripe = transfers.filter((t) => t.metadata.payout_item === item.id);
          expect(atStripe).toHaveLength(1);
          expect(atStripe[0]).toMatchObject({
            id: item.transfer_id,
            amount: item.amount_cents,
            destination: item.account,
          });
        }
        // The transfer Stripe made before the kill was found, not asked for again.
        expect(transferPosts().filter((r) => r.idempotencyKey === `payout-item-${heldItem.id}`)).toHaveLength(1);
        // None lost: every released cent was paid, and the books balance.
        const balances = await expectBooksBalance(db, teacherIds);
        for (const b of balances) {
          expect(b).toMatchObject({ pending_cents: 0, available_cents: 0, frozen_cents: 0 });
          expect(b.paid_cents).toBeGreaterThan(0);
        }
        const paidOut = balances.reduce((sum, b) => sum + b.paid_cents, 0);
        expect(transfers.reduce((sum, t) => sum + t.amount - t.amount_reversed, 0)).toBe(paidOut);
        expect(await rawRows(db, sql`select id from payouts where status <> 'paid'`)).toEqual([]);
      });
    }, 420_000);
  },
);
