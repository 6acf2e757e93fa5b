import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { normaliseCouponCode } from '@skillhive/shared/rules/coupons';
import { buildApp } from '../src/app.ts';
import * as coupons from '../src/modules/coupons/coupons.repository.ts';
import { decidePayout } from '../src/modules/earnings/payouts.ts';
import { createGateway } from '../src/modules/gateways/create-gateway.ts';
import { isTestGateway } from '../src/modules/gateways/gateway.public.ts';
import { createTestApp, createUser, rawRows, type TestContext, type TestUser } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  card,
  CARDS,
  confirm,
  createClass,
  createIntent,
  enrolOk,
  inBatches,
  insertStudents,
  recordPayment,
  refreshTokens,
  type InsertedStudent,
  type IntentAnswer,
  type TestClass,
} from './commerce-fixtures.ts';
import { prng } from './seeded-random.ts';

/**
 * Money out against money in (decisions 039, 040), randomized: scripted students buy carts across
 * teachers, with teachers' and site coupons, in three rounds a few days apart; between rounds an
 * admin refunds lines (before and after they were paid out), chargebacks are raised and settled
 * won or lost, and the money-out job releases and pays (by transfer to connected accounts, by a
 * manual batch for the others). In the middle of it the process dies with payouts decided and not
 * sent — some already transferred at the gateway — and a new process on the same database takes
 * over. Afterwards, for every teacher, shares − claw-backs = paid out + balance to the cent,
 * fees + kept shares = what was collected and not given back, and the gateway transferred each
 * payout item once. MONEY_OUT_STUDENTS tunes the size (default 200); MONEY_OUT_SEED replays a run.
 */
const STUDENTS = Number(process.env.MONEY_OUT_STUDENTS ?? 200);
const SEED = Number(process.env.MONEY_OUT_SEED ?? Date.now() % 1_000_000);
const TEACHERS = 6;
const CLASSES = 24;
const ROUNDS = 3;
const PARALLEL = 10;
const AUTH_SECRET = 'money-out-reconciliation-secret-long-enough-0123';
const DAY = 86_400_000;

let clock = new Date('2026-03-02T10:00:00Z');
const now = () => clock;
const advance = (days: number) => {
  clock = new Date(clock.getTime() + days * DAY);
};

let ctx: TestContext;
/** The process now serving: replaced once, when the first one "dies" mid-payout. */
let app: TestContext['app'];
let payoutJob: TestContext['payoutJob'];

beforeAll(async () => {
  ctx = await createTestApp(
    {
      ...FAST_SIGNUP_ENV,
      RATE_LIMIT_COUPON_FAILURES_PER_IP: '1000000',
      PAYOUT_MINIMUM_CENTS: '1',
      PAYOUT_SCHEDULE: 'daily',
    },
    { authSecret: AUTH_SECRET, now },
  );
  ({ app, payoutJob } = ctx);
});
afterAll(async () => {
  if (app !== ctx?.app) await app?.close();
  await ctx?.close();
});

function rows<T = Record<string, unknown>>(query: SQL): Promise<T[]> {
  return rawRows<T>(ctx.db, query);
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

function call(user: { headers: Record<string, string> }, method: 'GET' | 'POST', url: string, payload?: object) {
  return app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
}

/** Through Stripe's (here the test gateway's) hosted onboarding, as earnings.test.ts walks it. */
async function onboard(teacher: TestUser): Promise<void> {
  const started = await call(teacher, 'POST', '/api/teachers/me/connect');
  check(started.statusCode === 200, `connect ${started.statusCode} ${started.body}`);
  const done = await app.inject({ method: 'POST', url: new URL(started.json().url).pathname });
  check(done.statusCode === 303, `onboarding ${done.statusCode}`);
  const back = await call(teacher, 'GET', '/api/teachers/me/connect/return');
  check(back.statusCode === 303, `connect return ${back.statusCode}`);
}

/** The process dies after deciding payouts: some transferred at the gateway, none written down as sent. */
async function dieMidPayout(teachers: TestUser[], pick: () => number): Promise<number> {
  const gateway = createGateway(ctx.env, ctx.db, now);
  if (!isTestGateway(gateway)) throw new Error('test gateway expected');
  let decided = 0;
  for (const teacher of teachers) {
    const payout = await decidePayout({ db: ctx.db, now, gatewayName: 'test' }, teacher.id, {
      minimumCents: 1,
      skipLocked: false,
    });
    if (!payout) continue;
    decided += 1;
    if (payout.status !== 'in_flight' || pick() < 0.5) continue;
    const items = await rows<{ id: string; payment_id: string; transaction_id: string; amount_cents: number }>(sql`
      select id, payment_id, transaction_id, amount_cents from payout_items where payout_id = ${payout.id}`);
    for (const item of items) {
      await gateway.createTransfer({
        accountId: payout.accountId!,
        amountCents: item.amount_cents,
        currency: 'usd',
        transferGroup: `payment_${item.payment_id}`,
        sourceIntentId: item.transaction_id,
        metadata: { payout_id: payout.id, payout_item: item.id },
        idempotencyKey: `payout-item-${item.id}`,
      });
    }
  }
  // A new process on the same database; the old one is gone.
  const restarted = await buildApp({
    env: ctx.env,
    database: ctx.database,
    storage: ctx.storage,
    authSecret: AUTH_SECRET,
    logger: false,
    now,
  });
  await restarted.app.ready();
  await app.close();
  ({ app, payoutJob } = restarted);
  return decided;
}

describe(`money out reconciles with money in (${STUDENTS} students, seed ${SEED})`, () => {
  it(
    'every teacher: shares − claw-backs = paid out + balance; fees + kept shares = net collected; no transfer twice',
    { timeout: 400_000 },
    async () => {
      const random = prng(SEED);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

      const admin = await createUser(ctx, 'admin');
      const teachers: TestUser[] = [];
      for (let i = 0; i < TEACHERS; i++) teachers.push(await createUser(ctx, 'teacher'));
      // Two in three take payouts by transfer; the others are paid by bank transfer batches.
      for (const teacher of teachers.filter((_, i) => i % 3 !== 2)) await onboard(teacher);
      const classes: TestClass[] = [];
      for (let i = 0; i < CLASSES; i++) {
        classes.push(
          await createClass(ctx, teachers[i % TEACHERS]!, { priceCents: 99 + Math.floor(random() * 19_901) }),
        );
      }
      // Site-wide coupons come out of the platform's fee, a teacher's out of that teacher's share.
      const couponCodes: string[] = [];
      const terms: Omit<coupons.NewCoupon, 'code' | 'createdBy'>[] = [
        { kind: 'percent', value: 15, teacherId: null },
        { kind: 'fixed', value: 250, teacherId: null },
        { kind: 'percent', value: 30, teacherId: teachers[0]!.id },
        { kind: 'fixed', value: 400, teacherId: teachers[1]!.id },
      ];
      for (const [i, t] of terms.entries()) {
        const code = normaliseCouponCode(`out-${SEED}-${i}`);
        check((await coupons.insertCoupon(ctx.db, { ...t, code, createdBy: t.teacherId ?? admin.id })) !== null, code);
        couponCodes.push(code);
      }
      const students = await insertStudents(ctx, STUDENTS, AUTH_SECRET, now);
      const owned = new Map<string, Set<string>>();
      const paymentsMade: string[] = [];
      let couponsUsed = 0;

      async function shop(student: InsertedStudent): Promise<void> {
        const mine = owned.get(student.id) ?? new Set<string>();
        owned.set(student.id, mine);
        const wanted = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(classes)))].filter(
          (c) => !mine.has(c.id),
        );
        if (wanted.length === 0) return;
        for (const c of wanted) await enrolOk({ app }, student, c.id);
        let couponCode = random() < 0.4 ? pick(couponCodes) : null;
        let created = await createIntent({ app }, student, couponCode ? { couponCode } : {});
        if (couponCode && created.statusCode !== 200) {
          // A teacher's code on a cart without their class is refused; the student pays without it.
          couponCode = null;
          created = await createIntent({ app }, student, {});
        }
        check(created.statusCode === 200, `intent ${created.statusCode} ${created.body}`);
        const intent = created.json() as IntentAnswer;
        const confirmed = await confirm({ app }, student, intent.clientSecret, card(CARDS.succeeds));
        check(confirmed.statusCode === 200, `confirm ${confirmed.statusCode} ${confirmed.body}`);
        const transactionId = (confirmed.json() as { transactionId: string }).transactionId;
        const paid = await recordPayment({ app }, student, { transactionId, cartIds: intent.cartIds });
        check(paid.statusCode === 200 || paid.statusCode === 201, `record ${paid.statusCode} ${paid.body}`);
        paymentsMade.push((paid.json() as { paymentResult: { insertedId: string } }).paymentResult.insertedId);
        if (couponCode) couponsUsed += 1;
        for (const c of wanted) mine.add(c.id);
      }

      /** Bank transfers for the teachers without an account: batched and marked paid. */
      async function payManualPayouts(): Promise<void> {
        const batch = await call(admin, 'POST', '/api/admin/payout-batches');
        if (batch.statusCode !== 201) return;
        const id = (batch.json() as { _id: string })._id;
        const marked = await call(admin, 'POST', `/api/admin/payout-batches/${id}/mark-paid`);
        check(marked.statusCode === 200, `mark paid ${marked.statusCode} ${marked.body}`);
      }

      const disputed = new Set<string>();
      const refundedPayments = new Set<string>();
      const openDisputes: string[] = [];
      let refundsAfterPayout = 0;
      let diedWithDecided = 0;

      for (let round = 0; round < ROUNDS; round++) {
        await refreshTokens(students, AUTH_SECRET, now);
        await inBatches(
          // Most buy in the first round; a fifth come back in each later one.
          students.filter(() => random() < (round === 0 ? 0.6 : 0.2)),
          PARALLEL,
          (student) => shop(student),
        );

        // An admin refunds a few lines of any age: some still pending, some already paid out.
        const candidates = paymentsMade.filter((id) => !disputed.has(id));
        for (const paymentId of candidates.filter(() => random() < 0.06)) {
          const [line] = await rows<{ id: string; paid_out: boolean }>(sql`
            select e.id, exists (select 1 from earning_lines l join earning_tranches t on t.line_id = l.id
              where l.enrollment_id = e.id and t.payout_id is not null) as paid_out
            from enrollments e where e.payment_id = ${paymentId} and e.status = 'paid' order by e.id limit 1`);
          if (!line) continue;
          const res = await call(admin, 'POST', `/api/admin/payments/${paymentId}/refunds`, {
            reason: 'Reconciliation',
            enrollmentId: line.id,
          });
          check(res.statusCode === 200, `refund ${res.statusCode} ${res.body}`);
          refundedPayments.add(paymentId);
          if (line.paid_out) refundsAfterPayout += 1;
        }

        // Chargebacks on untouched payments; the ones raised before settle now, won or lost.
        for (const id of openDisputes.splice(0)) {
          const closed = await call(admin, 'POST', `/api/admin/test-gateway/disputes/${id}/close`, {
            outcome: random() < 0.5 ? 'won' : 'lost',
          });
          check(closed.statusCode === 200, `close dispute ${closed.statusCode} ${closed.body}`);
        }
        for (const paymentId of candidates.filter((id) => !refundedPayments.has(id) && random() < 0.03)) {
          const [payment] = await rows<{ transaction_id: string }>(sql`
            select transaction_id from payments where id = ${paymentId}`);
          const raised = await call(admin, 'POST', '/api/admin/test-gateway/disputes', {
            transactionId: payment!.transaction_id,
          });
          check(raised.statusCode === 201, `dispute ${raised.statusCode} ${raised.body}`);
          disputed.add(paymentId);
          openDisputes.push((raised.json() as { _id: string })._id);
        }

        // Days pass; the money-out job releases and pays. In round two the process dies mid-payout.
        advance(8);
        if (round === 1) {
          await payoutJob.runOnce();
          advance(8);
          const { releaseDue } = await import('../src/modules/earnings/ledger.ts');
          await releaseDue(ctx.db, now());
          diedWithDecided = await dieMidPayout(teachers, random);
          advance(1);
        }
        await payoutJob.runOnce();
        await payManualPayouts();
      }
      for (const id of openDisputes) {
        await call(admin, 'POST', `/api/admin/test-gateway/disputes/${id}/close`, { outcome: 'lost' });
      }
      advance(30);
      await payoutJob.runOnce();
      await payManualPayouts();

      // The run exercised what it claims to.
      expect(paymentsMade.length).toBeGreaterThan(STUDENTS / 2);
      expect(couponsUsed).toBeGreaterThan(0);
      expect(diedWithDecided).toBeGreaterThan(0);
      if (STUDENTS >= 100) {
        expect(refundsAfterPayout).toBeGreaterThan(0);
        expect(disputed.size).toBeGreaterThan(0);
      }

      // --- Every teacher's books -------------------------------------------------------------------
      const balances = await rows<{
        teacher_id: string;
        pending_cents: number;
        available_cents: number;
        frozen_cents: number;
        paid_cents: number;
        shares_cents: number;
        clawbacks_cents: number;
      }>(sql`select * from teacher_balances`);
      expect(balances.length).toBeGreaterThan(0);
      if (STUDENTS >= 100) expect(balances.length).toBe(TEACHERS);
      for (const b of balances) {
        const [journal] = await rows<{ p: number; a: number; f: number; d: number }>(sql`
          select coalesce(sum(pending_cents),0)::int p, coalesce(sum(available_cents),0)::int a,
            coalesce(sum(frozen_cents),0)::int f, coalesce(sum(paid_cents),0)::int d
          from ledger_entries where teacher_id = ${b.teacher_id}`);
        expect(journal).toEqual({ p: b.pending_cents, a: b.available_cents, f: b.frozen_cents, d: b.paid_cents });
        const [lines] = await rows<{ shares: number; clawbacks: number }>(sql`
          select coalesce(sum(share_cents),0)::int shares, coalesce(sum(clawback_cents),0)::int clawbacks
          from earning_lines where teacher_id = ${b.teacher_id}`);
        expect(lines).toEqual({ shares: b.shares_cents, clawbacks: b.clawbacks_cents });
        // Paid out = the payouts that reached the teacher, net of what they recovered of a debt.
        const [out] = await rows<{ paid: number }>(sql`
          select coalesce(sum(amount_cents),0)::int paid from payouts
          where teacher_id = ${b.teacher_id} and status = 'paid'`);
        expect(out!.paid).toBe(b.paid_cents);
        expect(b.shares_cents - b.clawbacks_cents).toBe(
          out!.paid + b.pending_cents + b.available_cents + b.frozen_cents,
        );
      }
      // Nothing left in flight after the restart's reconciler.
      expect(await rows(sql`select id from payouts where status = 'in_flight'`)).toEqual([]);

      // --- The platform --------------------------------------------------------------------------
      const [money] = await rows<{ collected: number; refunded: number; lost: number; kept: number; fees: number }>(sql`
        select
          (select coalesce(sum(amount_cents),0)::int from payments where status = 'succeeded') collected,
          (select coalesce(sum(amount_cents),0)::int from refunds where status = 'succeeded') refunded,
          (select coalesce(sum(amount_cents),0)::int from disputes where status = 'lost') lost,
          (select coalesce(sum(l.fee_cents + l.share_cents),0)::int from earning_lines l
             join enrollments e on e.id = l.enrollment_id where e.status = 'paid') kept,
          (select coalesce(sum(fee_cents),0)::int from earning_lines) fees`);
      expect(money!.kept).toBe(money!.collected - money!.refunded - money!.lost);
      // A line given back keeps no share: its claw-back is its whole share.
      expect(
        await rows(sql`
          select l.id from earning_lines l join enrollments e on e.id = l.enrollment_id
          where (e.status = 'refunded') <> (l.clawback_cents = l.share_cents and l.share_cents > 0)
            and l.share_cents > 0`),
      ).toEqual([]);

      // --- The gateway ---------------------------------------------------------------------------
      const [transfers] = await rows<{ n: number; items: number; total: number }>(sql`
        select count(*)::int n, count(distinct metadata->>'payout_item')::int items,
          coalesce(sum(amount_cents - reversed_cents),0)::int total from test_gateway_transfers`);
      expect(transfers!.n).toBe(transfers!.items);
      const [viaGateway] = await rows<{ total: number }>(sql`
        select coalesce(sum(i.amount_cents - i.reversed_cents),0)::int total
        from payout_items i join payouts p on p.id = i.payout_id
        where p.status = 'paid' and p.method = 'gateway'`);
      expect(viaGateway!.total).toBe(transfers!.total);
    },
  );
});
