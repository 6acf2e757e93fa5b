import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type {
  AdminPayout,
  Dispute,
  EarningLine,
  EarningsSummary,
  PayoutBatch,
  TeacherFeeRate,
} from '@skillhive/shared/contracts/earnings';
import { schema } from '../src/db/client.ts';
import { isTestGateway } from '../src/modules/gateways/gateway.public.ts';
import { createGateway } from '../src/modules/gateways/create-gateway.ts';
import { createTestApp, createUser, rawRows, type TestContext, type TestUser } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  createClass,
  expectBadPagingRefused,
  itAnswersEachRole,
  type MatrixEndpoint,
  type MatrixRole,
} from './commerce-fixtures.ts';

/**
 * Money out (decisions 039, 040) through the API, on the built-in test gateway with an injected
 * clock: the split at fulfilment, release after the refund window, payouts through a connected
 * account and by manual batch, a refund after payout leaving a debt the next payout recovers,
 * disputes won and lost, a payout cut short and settled by the reconciler, and who may see what.
 */

/** Session cookies: they do not depend on the app's clock, which these tests move by weeks. */
type Caller = TestUser;

const DAY = 86_400_000;
let clock = new Date('2026-03-02T10:00:00Z');
const now = () => clock;
const advance = (days: number) => {
  clock = new Date(clock.getTime() + days * DAY);
};

let ctx: TestContext;
let admin: Caller;
let teacher: Caller;
let other: Caller;
let student: Caller;

function call(user: Caller | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) {
  return ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });
}

async function summaryOf(user: Caller): Promise<EarningsSummary> {
  const res = await call(user, 'GET', '/api/teachers/me/earnings');
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function linesOf(user: Caller, query = ''): Promise<EarningLine[]> {
  const res = await call(user, 'GET', `/api/teachers/me/earnings/lines${query}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function onboard(user: Caller): Promise<void> {
  const started = await call(user, 'POST', '/api/teachers/me/connect');
  expect(started.statusCode).toBe(200);
  const url = new URL(started.json().url);
  const page = await ctx.app.inject({ method: 'GET', url: url.pathname });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toContain('text/html');
  const done = await ctx.app.inject({ method: 'POST', url: url.pathname });
  expect(done.statusCode).toBe(303);
  expect(done.headers.location).toBe('http://localhost:3000/api/teachers/me/connect/return');
  const back = await call(user, 'GET', '/api/teachers/me/connect/return');
  expect(back.statusCode).toBe(303);
  expect(back.headers.location).toContain('/dashboard/earnings');
}

/** For every teacher: the journal and the running balances agree, and shares − claw-backs = the buckets. */
async function expectBooksBalance(): Promise<void> {
  const balances = await ctx.db.select().from(schema.teacherBalances);
  for (const b of balances) {
    const [sums] = await rawRows<{ p: number; a: number; f: number; d: number }>(
      ctx.db,
      sql`select coalesce(sum(pending_cents),0)::int p, coalesce(sum(available_cents),0)::int a,
            coalesce(sum(frozen_cents),0)::int f, coalesce(sum(paid_cents),0)::int d
          from ledger_entries where teacher_id = ${b.teacherId}`,
    );
    expect(sums).toEqual({ p: b.pendingCents, a: b.availableCents, f: b.frozenCents, d: b.paidCents });
    expect(b.sharesCents - b.clawbacksCents).toBe(b.pendingCents + b.availableCents + b.frozenCents + b.paidCents);
    const [lines] = await rawRows<{ shares: number; clawbacks: number }>(
      ctx.db,
      sql`select coalesce(sum(share_cents),0)::int shares, coalesce(sum(clawback_cents),0)::int clawbacks
          from earning_lines where teacher_id = ${b.teacherId}`,
    );
    expect(lines).toEqual({ shares: b.sharesCents, clawbacks: b.clawbacksCents });
  }
  // Paid out through the gateway = what the gateway transferred, net of reversals; no item transferred twice.
  const [transfers] = await rawRows<{ n: number; items: number; total: number }>(
    ctx.db,
    sql`select count(*)::int n, count(distinct metadata->>'payout_item')::int items,
          coalesce(sum(amount_cents - reversed_cents),0)::int total from test_gateway_transfers`,
  );
  expect(transfers!.n).toBe(transfers!.items);
  const [paidByGateway] = await rawRows<{ total: number }>(
    ctx.db,
    sql`select coalesce(sum(i.amount_cents - i.reversed_cents),0)::int total
          from payout_items i where i.transfer_id is not null`,
  );
  expect(paidByGateway!.total).toBe(transfers!.total);
}

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV, PAYOUT_MINIMUM_CENTS: '2000', PAYOUT_SCHEDULE: 'daily' }, { now });
  [admin, teacher, other, student] = await Promise.all([
    createUser(ctx, 'admin'),
    createUser(ctx, 'teacher', { name: 'Tess Teacher' }),
    createUser(ctx, 'teacher', { name: 'Otto Other' }),
    createUser(ctx, 'student', { name: 'Sam van Student' }),
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

describe('the split at fulfilment and the release (decision 039)', () => {
  it('splits a cart across teachers once, to the cent, and holds the shares until the refund window closes', async () => {
    const a = await createClass(ctx, teacher, { priceCents: 10_000, title: 'Tess class' });
    const b = await createClass(ctx, other, { priceCents: 3333, title: 'Otto class' });
    await buy(ctx, student, [a.id, b.id]);

    const [mine] = await linesOf(teacher);
    expect(mine).toMatchObject({
      title: 'Tess class',
      studentInitials: 'S. S.',
      grossCents: 10_000,
      feeCents: 2000,
      shareCents: 8000,
      state: 'pending',
      feePercent: 20,
    });
    const [theirs] = await linesOf(other);
    // 20 % of 13 333 ¢ is 2666.6 ¢: the cart's fees are 2667 ¢, the cent goes to the largest remainder.
    expect(theirs).toMatchObject({ grossCents: 3333, feeCents: 667, shareCents: 2666 });
    expect(JSON.stringify(await linesOf(teacher))).not.toContain(student.email);
    expect(JSON.stringify(await linesOf(teacher))).not.toContain('Student');
    expect(await summaryOf(teacher)).toMatchObject({ pendingCents: 8000, availableCents: 0, paidCents: 0 });

    // Still refundable on day 13: nothing released.
    advance(13);
    expect((await ctx.payoutJob.runOnce()).released).toBe(0);
    advance(2);
    await onboard(teacher);
    const pass = await ctx.payoutJob.runOnce();
    expect(pass.released).toBe(2);
    // Teacher has a connected account: paid by transfer; the other teacher is queued for a bank transfer.
    expect(pass.run).toMatchObject({ paid: 1, manual: 1 });
    expect(await summaryOf(teacher)).toMatchObject({ pendingCents: 0, availableCents: 0, paidCents: 8000 });
    expect((await linesOf(teacher))[0]!.state).toBe('paid');
    const payouts = (await call(teacher, 'GET', '/api/teachers/me/payouts')).json();
    expect(payouts).toMatchObject([{ amountCents: 8000, status: 'paid', method: 'gateway' }]);
    expect(payouts[0].transferId).toMatch(/^tr_test_/);
    await expectBooksBalance();
  });

  it('pays manual payouts through a CSV batch an admin marks paid', async () => {
    const created = await call(admin, 'POST', '/api/admin/payout-batches');
    expect(created.statusCode).toBe(201);
    const batch: PayoutBatch = created.json();
    expect(batch).toMatchObject({ status: 'open', count: 1, totalCents: 2666 });
    expect((await call(admin, 'POST', '/api/admin/payout-batches')).statusCode).toBe(409);
    const csv = await call(admin, 'GET', `/api/admin/payout-batches/${batch._id}/csv`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Otto Other');
    expect(csv.body).toContain('26.66');
    const paid = await call(admin, 'POST', `/api/admin/payout-batches/${batch._id}/mark-paid`);
    expect(paid.json()).toMatchObject({ status: 'paid' });
    expect((await call(admin, 'POST', `/api/admin/payout-batches/${batch._id}/mark-paid`)).statusCode).toBe(409);
    expect((await call(other, 'GET', '/api/teachers/me/payouts')).json()).toMatchObject([{ status: 'paid' }]);
  });

  it('a refund after payout leaves a debt the next payout recovers first; other teachers untouched', async () => {
    const [line] = await linesOf(teacher);
    const otherBefore = await summaryOf(other);
    const refunded = await call(admin, 'POST', `/api/admin/payments/${await paymentOf(line!.enrollmentId)}/refunds`, {
      enrollmentId: line!.enrollmentId,
      reason: 'Changed their mind',
    });
    expect(refunded.statusCode).toBe(200);
    expect(await summaryOf(teacher)).toMatchObject({
      availableCents: -8000,
      negativeBalanceCents: 8000,
      paidCents: 8000,
    });
    expect(await summaryOf(other)).toEqual(otherBefore);

    const c = await createClass(ctx, teacher, { priceCents: 25_000 });
    const buyer = await createUser(ctx, 'student');
    await buy(ctx, buyer, [c.id]);
    advance(15);
    const pass = await ctx.payoutJob.runOnce();
    expect(pass.run).toMatchObject({ paid: 1 });
    // 20 000 ¢ share − 8 000 ¢ debt = 12 000 ¢ paid.
    const [latest] = (await call(teacher, 'GET', '/api/teachers/me/payouts')).json();
    expect(latest).toMatchObject({ amountCents: 12_000, recoveredCents: 8000, status: 'paid' });
    expect(await summaryOf(teacher)).toMatchObject({ availableCents: 0, negativeBalanceCents: 0, paidCents: 20_000 });
    await expectBooksBalance();
  });
});

async function paymentOf(enrollmentId: string): Promise<string> {
  const [row] = await rawRows<{ payment_id: string }>(
    ctx.db,
    sql`select payment_id from earning_lines where enrollment_id = ${enrollmentId}`,
  );
  return row!.payment_id;
}

describe('disputes (decision 039)', () => {
  it('freezes the lines, then a loss refunds and claws back, a win releases', async () => {
    const c = await createClass(ctx, other, { priceCents: 5000 });
    const lost = await createUser(ctx, 'student');
    const won = await createUser(ctx, 'student');
    const lostBuy = await buy(ctx, lost, [c.id]);
    const wonBuy = await buy(ctx, won, [c.id]);
    const before = await summaryOf(other);

    const raised = await call(admin, 'POST', '/api/admin/test-gateway/disputes', {
      transactionId: lostBuy.transactionId,
    });
    expect(raised.statusCode).toBe(201);
    const dispute: Dispute = raised.json();
    expect(dispute).toMatchObject({ status: 'open', amountCents: 5000, lines: [{ shareCents: 4000 }] });
    expect(dispute.evidenceDueBy).not.toBeNull();
    const raisedWon: Dispute = (
      await call(admin, 'POST', '/api/admin/test-gateway/disputes', { transactionId: wonBuy.transactionId })
    ).json();
    const frozen = (await linesOf(other)).filter((l) => l.state === 'frozen');
    expect(frozen).toHaveLength(2);

    // The refund window passes: frozen shares do not move.
    advance(15);
    await ctx.payoutJob.runOnce();
    expect((await summaryOf(other)).pendingCents).toBe(before.pendingCents);

    const closed = await call(admin, 'POST', `/api/admin/test-gateway/disputes/${dispute._id}/close`, {
      outcome: 'lost',
    });
    expect(closed.json()).toMatchObject({ status: 'lost' });
    expect(
      (await call(admin, 'POST', `/api/admin/test-gateway/disputes/${dispute._id}/close`, { outcome: 'won' }))
        .statusCode,
    ).toBe(409);
    const afterLoss = await summaryOf(other);
    expect(afterLoss.pendingCents).toBe(before.pendingCents - 4000);
    expect(afterLoss.clawbacksCents).toBe(before.clawbacksCents + 4000);
    const enrollments = await rawRows<{ status: string }>(
      ctx.db,
      sql`select status from enrollments where payment_id = ${lostBuy.paymentId}`,
    );
    expect(enrollments).toEqual([{ status: 'refunded' }]);

    await call(admin, 'POST', `/api/admin/test-gateway/disputes/${raisedWon._id}/close`, { outcome: 'won' });
    await ctx.payoutJob.runOnce();
    const lines = await linesOf(other);
    expect(lines.filter((l) => l.state === 'frozen')).toHaveLength(0);
    expect(lines.find((l) => l.state === 'refunded')).toBeTruthy();
    const queue = (await call(admin, 'GET', '/api/admin/disputes')).json() as Dispute[];
    expect(queue.map((d) => d.status).sort()).toEqual(['lost', 'won']);
    await expectBooksBalance();
  });
});

describe('payouts cut short (decision 040)', () => {
  it('a payout committed before its transfer is finished by the reconciler, once, even when the transfer was made', async () => {
    const c = await createClass(ctx, teacher, { priceCents: 4000 });
    await buy(ctx, await createUser(ctx, 'student'), [c.id]);
    advance(15);
    // Release only, as if the process died right after deciding the payout.
    const { releaseDue } = await import('../src/modules/earnings/ledger.ts');
    const { decidePayout, settleInFlight } = await import('../src/modules/earnings/payouts.ts');
    await releaseDue(ctx.db, now());
    const gateway = createGateway(ctx.env, ctx.db, now);
    if (!isTestGateway(gateway)) throw new Error('test gateway expected');
    const deps = { db: ctx.db, gateway, now, log: ctx.app.log, minimumCents: 1 };
    const payout = await decidePayout({ ...deps, gatewayName: 'test' }, teacher.id, {
      minimumCents: 1,
      skipLocked: false,
    });
    expect(payout).toMatchObject({ status: 'in_flight', amountCents: 3200 });
    // The transfer reached the gateway, the process died before writing it down.
    const [item] = await rawRows<{ id: string; payment_id: string; transaction_id: string }>(
      ctx.db,
      sql`select id, payment_id, transaction_id from payout_items where payout_id = ${payout!.id}`,
    );
    await gateway.createTransfer({
      accountId: payout!.accountId!,
      amountCents: 3200,
      currency: 'usd',
      transferGroup: `payment_${item!.payment_id}`,
      sourceIntentId: item!.transaction_id,
      metadata: { payout_id: payout!.id, payout_item: item!.id },
      idempotencyKey: `payout-item-${item!.id}`,
    });
    // Not due yet: the deciding call has its grace period.
    expect(await settleInFlight(deps)).toEqual({ settled: 0, failed: 0 });
    advance(1);
    const [a, b] = await Promise.all([settleInFlight(deps), settleInFlight(deps)]);
    expect(a.settled + b.settled).toBe(1);
    const [status] = await rawRows<{ status: string }>(
      ctx.db,
      sql`select status from payouts where id = ${payout!.id}`,
    );
    expect(status).toEqual({ status: 'paid' });
    await expectBooksBalance();
  });
});

describe('fee rates (decision 039)', () => {
  it('an admin sets a teacher’s own rate, audited; it applies to the next sales', async () => {
    const set = await call(admin, 'PUT', `/api/admin/teachers/${teacher.id}/fee-rate`, { feePercent: 12.5 });
    expect(set.statusCode).toBe(200);
    expect(set.json() as TeacherFeeRate).toEqual({
      teacherId: teacher.id,
      feePercent: 12.5,
      ownFeePercent: 12.5,
      platformFeePercent: 20,
    });
    const [audit] = await rawRows<{ action: string }>(
      ctx.db,
      sql`select action from audit_log where target_id = ${teacher.id} and action = 'teacher.fee_rate'`,
    );
    expect(audit).toEqual({ action: 'teacher.fee_rate' });
    const c = await createClass(ctx, teacher, { priceCents: 1000 });
    await buy(ctx, await createUser(ctx, 'student'), [c.id]);
    expect((await linesOf(teacher))[0]).toMatchObject({ feeCents: 125, shareCents: 875, feePercent: 12.5 });
    const reset = await call(admin, 'PUT', `/api/admin/teachers/${teacher.id}/fee-rate`, { feePercent: null });
    expect(reset.json()).toMatchObject({ feePercent: 20, ownFeePercent: null });
  });

  it('refuses bad rates and non-teachers', async () => {
    for (const feePercent of [-1, 100.01, 12.345, '20', true]) {
      const res = await call(admin, 'PUT', `/api/admin/teachers/${teacher.id}/fee-rate`, { feePercent });
      expect(res.statusCode, String(feePercent)).toBe(400);
    }
    expect((await call(admin, 'GET', `/api/admin/teachers/${student.id}/fee-rate`)).statusCode).toBe(409);
    expect((await call(admin, 'GET', '/api/admin/teachers/nobody/fee-rate')).statusCode).toBe(404);
  });
});

describe('reads', () => {
  it('the monthly statement is CSV of that month only, and the fee revenue adds up', async () => {
    const csv = await call(teacher, 'GET', '/api/teachers/me/earnings/statement?month=2026-03');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe('paid_at,class,student,gross,fee,share,clawback,state,currency');
    expect(csv.body).toContain('Tess class');
    expect(csv.body).not.toContain(student.email);
    const empty = await call(teacher, 'GET', '/api/teachers/me/earnings/statement?month=2020-01');
    expect(empty.body.split('\r\n').filter(Boolean)).toHaveLength(2);
    const revenue = (await call(admin, 'GET', '/api/admin/earnings/revenue')).json() as {
      grossCents: number;
      feeCents: number;
      sharesCents: number;
    }[];
    expect(revenue).toHaveLength(12);
    for (const month of revenue) expect(month.feeCents + month.sharesCents).toBe(month.grossCents);
    const upcoming = await call(admin, 'GET', '/api/admin/payouts/upcoming');
    expect(upcoming.statusCode).toBe(200);
    const all = (await call(admin, 'GET', '/api/admin/payouts')).json() as AdminPayout[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all[0]!.teacher.email).toMatch(/@/);
  });

  it('refuses bad input with clear 4xx', async () => {
    expect((await call(teacher, 'GET', '/api/teachers/me/earnings/statement?month=2026-13')).statusCode).toBe(400);
    expect((await call(teacher, 'GET', '/api/teachers/me/earnings/statement')).statusCode).toBe(400);
    expect((await call(teacher, 'GET', '/api/teachers/me/earnings/lines?month=March')).statusCode).toBe(400);
    await expectBadPagingRefused((q) => call(teacher, 'GET', `/api/teachers/me/earnings/lines${q}`));
    await expectBadPagingRefused((q) => call(admin, 'GET', `/api/admin/payouts${q}`));
    expect((await call(admin, 'GET', '/api/admin/payouts?status=lost')).statusCode).toBe(400);
    expect((await call(admin, 'POST', '/api/admin/payouts/not-a-uuid/retry')).statusCode).toBe(404);
    expect((await call(admin, 'POST', `/api/admin/payouts/${crypto.randomUUID()}/retry`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/api/admin/payout-batches/x/csv`)).statusCode).toBe(404);
    expect(
      (await call(admin, 'POST', '/api/admin/test-gateway/disputes', { transactionId: 'pi_nope' })).statusCode,
    ).toBe(404);
    expect((await call(admin, 'POST', '/api/admin/test-gateway/disputes', {})).statusCode).toBe(400);
    expect(
      (await call(admin, 'POST', `/api/admin/test-gateway/disputes/${crypto.randomUUID()}/close`, { outcome: 'maybe' }))
        .statusCode,
    ).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: '/test-gateway/connect/acct_test_nope' })).statusCode).toBe(404);
  });
});

describe('who may call what', () => {
  const callerOf = (role: Exclude<MatrixRole, 'anonymous'>) => ({ student, teacher, otherTeacher: other, admin })[role];
  const teacherOnly = { anonymous: 401, student: 403, teacher: 200, otherTeacher: 200, admin: 403 };
  const adminOnly = { anonymous: 401, student: 403, teacher: 403, otherTeacher: 403, admin: 200 };
  const endpoints: MatrixEndpoint[] = [
    { name: 'GET earnings', method: 'GET', url: () => '/api/teachers/me/earnings', expected: teacherOnly },
    { name: 'GET lines', method: 'GET', url: () => '/api/teachers/me/earnings/lines', expected: teacherOnly },
    {
      name: 'GET statement',
      method: 'GET',
      url: () => '/api/teachers/me/earnings/statement?month=2026-03',
      expected: teacherOnly,
    },
    { name: 'GET my payouts', method: 'GET', url: () => '/api/teachers/me/payouts', expected: teacherOnly },
    { name: 'GET payouts', method: 'GET', url: () => '/api/admin/payouts', expected: adminOnly },
    { name: 'GET upcoming', method: 'GET', url: () => '/api/admin/payouts/upcoming', expected: adminOnly },
    { name: 'GET batches', method: 'GET', url: () => '/api/admin/payout-batches', expected: adminOnly },
    { name: 'GET revenue', method: 'GET', url: () => '/api/admin/earnings/revenue', expected: adminOnly },
    { name: 'GET disputes', method: 'GET', url: () => '/api/admin/disputes', expected: adminOnly },
    {
      name: 'GET fee rate',
      method: 'GET',
      url: () => `/api/admin/teachers/${teacher.id}/fee-rate`,
      expected: adminOnly,
    },
    { name: 'POST run', method: 'POST', url: () => '/api/admin/payouts/run', expected: adminOnly },
    {
      name: 'POST retry',
      method: 'POST',
      url: () => `/api/admin/payouts/${crypto.randomUUID()}/retry`,
      expected: { ...adminOnly, admin: 404 },
    },
    {
      // The run above queued the other teacher's released share (the dispute they won) for a bank transfer.
      name: 'POST batch',
      method: 'POST',
      url: () => '/api/admin/payout-batches',
      expected: { ...adminOnly, admin: 201 },
    },
    {
      name: 'POST mark paid',
      method: 'POST',
      url: () => `/api/admin/payout-batches/${crypto.randomUUID()}/mark-paid`,
      expected: { ...adminOnly, admin: 404 },
    },
    {
      name: 'POST test dispute',
      method: 'POST',
      url: () => '/api/admin/test-gateway/disputes',
      body: () => ({ transactionId: 'pi_unknown' }),
      expected: { ...adminOnly, admin: 404 },
    },
    {
      name: 'POST close test dispute',
      method: 'POST',
      url: () => `/api/admin/test-gateway/disputes/${crypto.randomUUID()}/close`,
      body: () => ({ outcome: 'won' }),
      expected: { ...adminOnly, admin: 404 },
    },
  ];
  itAnswersEachRole(endpoints, { ctx: () => ctx, callerOf });

  it('PUT fee rate: only admins', async () => {
    for (const [user, status] of [
      [null, 401],
      [student, 403],
      [teacher, 403],
    ] as const) {
      const res = await call(user, 'PUT', `/api/admin/teachers/${teacher.id}/fee-rate`, { feePercent: 1 });
      expect(res.statusCode).toBe(status);
    }
  });

  it('POST connect: teachers only', async () => {
    expect((await call(null, 'POST', '/api/teachers/me/connect')).statusCode).toBe(401);
    expect((await call(student, 'POST', '/api/teachers/me/connect')).statusCode).toBe(403);
    expect((await call(admin, 'POST', '/api/teachers/me/connect')).statusCode).toBe(403);
  });

  it('a teacher sees only their own ledger', async () => {
    const mine = await linesOf(teacher);
    const theirs = await linesOf(other);
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    const ids = new Set(mine.map((l) => l._id));
    expect(theirs.some((l) => ids.has(l._id))).toBe(false);
  });
});
