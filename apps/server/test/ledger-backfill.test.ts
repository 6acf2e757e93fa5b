import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { normaliseCouponCode } from '@skillhive/shared/rules/coupons';
import type { Database } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import * as coupons from '../src/modules/coupons/coupons.repository.ts';
import { recordSalesBeforeLedger } from '../src/modules/earnings/ledger-backfill.ts';
import { createLocalStorage } from '../src/modules/uploads/storage.public.ts';
import { createTestApp, createTestDatabase, createUser, rawRows, type TestContext, type TestUser } from './harness.ts';
import { FAST_SIGNUP_ENV, buy, createClass } from './commerce-fixtures.ts';

/**
 * Sales from before the ledger reach it (decision 039 §10). Payments are made through the real
 * purchase flow (so the ledger wrote what a live sale writes), that ledger is kept, then deleted
 * — lines, held parts, journal and balances: exactly a database upgraded from before migration
 * 0016 — and the money-out job must write it again to the cent: a plain sale, a teacher's coupon,
 * a site-wide coupon, a cart partly refunded before, one refunded in full, a cart across two
 * teachers. Then the books reconcile, a second run changes nothing, and two runs at once (two
 * instances, on PostgreSQL truly concurrent) record each line once.
 */

const DAY = 86_400_000;
let clock = new Date('2026-03-02T10:00:00Z');
const now = () => clock;
const LEDGER = { platformBasisPoints: 2000, refundWindowDays: 14 };

let ctx: TestContext;
let admin: TestUser;
let tess: TestUser;
let otto: TestUser;

function rows<T = Record<string, unknown>>(query: SQL): Promise<T[]> {
  return rawRows<T>(ctx.db, query);
}

/** Every earning line as recordSale wrote it (what does not depend on when or by whom). */
function ledgerLines() {
  return rows(sql`select enrollment_id, payment_id, transaction_id, teacher_id, class_id, title, student_initials,
      currency, list_cents, discount_cents, coupon_source, gross_cents, fee_cents, share_cents, fee_basis_points,
      paid_at, refunded_at, clawback_cents
    from earning_lines order by enrollment_id`);
}

function ledgerTranches() {
  return rows(sql`select l.enrollment_id, t.teacher_id, t.amount_cents, t.due_at, t.session_id
    from earning_tranches t join earning_lines l on l.id = t.line_id order by l.enrollment_id, t.due_at`);
}

/** Everything the ledger holds, to compare a run that must change nothing. */
async function wholeLedger() {
  return {
    lines: await rows(sql`select * from earning_lines order by enrollment_id`),
    tranches: await rows(sql`select * from earning_tranches order by id`),
    entries: await rows(sql`select * from ledger_entries order by id`),
    balances: await rows(sql`select * from teacher_balances order by teacher_id`),
  };
}

/** The state of a database upgraded from before the ledger: its tables empty, the sales still there. */
async function forgetLedger(): Promise<void> {
  await ctx.db.execute(sql`delete from ledger_entries`);
  await ctx.db.execute(sql`delete from earning_tranches`);
  await ctx.db.execute(sql`delete from earning_lines`);
  await ctx.db.execute(sql`delete from teacher_balances`);
}

async function refund(paymentId: string, enrollmentId: string): Promise<void> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/admin/payments/${paymentId}/refunds`,
    headers: admin.headers,
    payload: { enrollmentId, reason: 'Changed their mind' },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function linesOfPayment(paymentId: string): Promise<string[]> {
  const found = await rows<{ id: string }>(sql`select id from enrollments where payment_id = ${paymentId} order by id`);
  return found.map((r) => r.id);
}

/** For every teacher: the journal equals the running balances, and shares − claw-backs = the buckets. */
async function expectBooksBalance(): Promise<void> {
  const balances = await rows<{ teacher_id: string; p: number; a: number; f: number; d: number; s: number; c: number }>(
    sql`select teacher_id, pending_cents p, available_cents a, frozen_cents f, paid_cents d, shares_cents s,
        clawbacks_cents c from teacher_balances`,
  );
  expect(balances.length).toBe(2);
  for (const b of balances) {
    expect(b.s - b.c).toBe(b.p + b.a + b.f + b.d);
    const [journal] = await rows(
      sql`select coalesce(sum(pending_cents),0)::int p, coalesce(sum(available_cents),0)::int a,
            coalesce(sum(frozen_cents),0)::int f, coalesce(sum(paid_cents),0)::int d
          from ledger_entries where teacher_id = ${b.teacher_id}`,
    );
    expect(journal).toEqual({ p: b.p, a: b.a, f: b.f, d: b.d });
    const [lines] = await rows(
      sql`select coalesce(sum(share_cents),0)::int s, coalesce(sum(clawback_cents),0)::int c
          from earning_lines where teacher_id = ${b.teacher_id}`,
    );
    expect(lines).toEqual({ s: b.s, c: b.c });
  }
  // Fees + shares of the lines still sold = what was collected and not given back.
  const [money] = await rows<{ split: number; collected: number; refunded: number }>(
    sql`select (select coalesce(sum(fee_cents + share_cents),0)::int from earning_lines where refunded_at is null) split,
          (select coalesce(sum(amount_cents),0)::int from payments where status = 'succeeded') collected,
          (select coalesce(sum(paid_cents),0)::int from enrollments where status = 'refunded') refunded`,
  );
  expect(money!.split).toBe(money!.collected - money!.refunded);
}

let live: { lines: Record<string, unknown>[]; tranches: Record<string, unknown>[] };
let expectedLines = 0;

beforeAll(async () => {
  // No payout runs in these tests: the released shares stay available, and the ledger can be
  // forgotten again (nothing refers to its parts).
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV, PAYOUT_MINIMUM_CENTS: '100000000' }, { now });
  [admin, tess, otto] = await Promise.all([
    createUser(ctx, 'admin'),
    createUser(ctx, 'teacher', { name: 'Tess Teacher' }),
    createUser(ctx, 'teacher', { name: 'Otto Other' }),
  ]);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

describe('sales from before the ledger (decision 039 §10)', () => {
  it('a fresh install with live sales has nothing to record', async () => {
    expect(await recordSalesBeforeLedger(ctx.db, LEDGER)).toBe(0);
    const a = await createClass(ctx, tess, { priceCents: 3333, title: 'Tess one' });
    const b = await createClass(ctx, tess, { priceCents: 3333, title: 'Tess two' });
    const c = await createClass(ctx, otto, { priceCents: 10_000, title: 'Otto one' });
    const d = await createClass(ctx, tess, { priceCents: 3333, title: 'Tess three' });
    const e = await createClass(ctx, otto, { priceCents: 4999, title: 'Otto two' });
    const teacherCode = normaliseCouponCode('TESS30');
    const siteCode = normaliseCouponCode('SITE15');
    expect(
      await coupons.insertCoupon(ctx.db, {
        code: teacherCode,
        kind: 'percent',
        value: 30,
        teacherId: tess.id,
        createdBy: tess.id,
      }),
    ).not.toBeNull();
    expect(
      await coupons.insertCoupon(ctx.db, {
        code: siteCode,
        kind: 'percent',
        value: 15,
        teacherId: null,
        createdBy: admin.id,
      }),
    ).not.toBeNull();
    const students = await Promise.all(
      ['Ann Able', 'Ben Bold', 'Cat Cole', 'Dan Dee', 'Eve East', 'Fay Fox'].map((name) =>
        createUser(ctx, 'student', { name }),
      ),
    );
    // Plain; a teacher's coupon; a site-wide coupon; three lines of $33.33 (the rounding case),
    // one refunded later; across two teachers; one refunded in full.
    await buy(ctx, students[0]!, [a.id]);
    await buy(ctx, students[1]!, [a.id, b.id], { couponCode: teacherCode });
    await buy(ctx, students[2]!, [a.id, c.id], { couponCode: siteCode });
    const partly = await buy(ctx, students[3]!, [a.id, b.id, d.id]);
    await buy(ctx, students[4]!, [c.id, e.id, b.id]);
    const whole = await buy(ctx, students[5]!, [e.id]);
    expectedLines = 1 + 2 + 2 + 2 + 3;
    // The last line by id: the cart's rounding gave the other two 67 ¢ of fee each (667 + 667 +
    // 666 = 20 % of 9999 ¢); recorded as a cart of two they would be 667 + 666.
    const [, , refundedLine] = await linesOfPayment(partly.paymentId);
    await refund(partly.paymentId, refundedLine!);
    await refund(whole.paymentId, (await linesOfPayment(whole.paymentId))[0]!);
    expect(await recordSalesBeforeLedger(ctx.db, LEDGER)).toBe(0);
    await expectBooksBalance();
    // What the live sales wrote, for the lines still sold: what the late recording must write.
    live = {
      lines: (await ledgerLines()).filter((l) => l.refunded_at === null),
      tranches: await ledgerTranches(),
    };
    const refundedIds = new Set([refundedLine, (await linesOfPayment(whole.paymentId))[0]]);
    live.tranches = live.tranches.filter((t) => !refundedIds.has(t.enrollment_id as string));
    expect(live.lines.length).toBe(expectedLines);
    expect(live.lines.filter((l) => l.coupon_source === 'teacher').length).toBe(2);
    expect(live.lines.filter((l) => l.coupon_source === 'site').length).toBe(2);
  }, 120_000);

  it('the money-out job records them as a live sale did, to the cent, and releases their shares', async () => {
    await forgetLedger();
    clock = new Date(clock.getTime() + 15 * DAY);
    const pass = await ctx.payoutJob.runOnce();
    expect(pass.recorded).toBe(expectedLines);
    // Recorded and released in the same pass: their refund window closed long ago.
    expect(pass.released).toBe(expectedLines);
    expect(await ledgerLines()).toEqual(live.lines);
    expect(await ledgerTranches()).toEqual(live.tranches);
    // Nothing of the lines refunded before: no line, no share, no claw-back.
    expect((await rows(sql`select 1 from ledger_entries where kind = 'refund'`)).length).toBe(0);
    const [tessBalance] = await rows<{ available_cents: number; pending_cents: number }>(
      sql`select available_cents, pending_cents from teacher_balances where teacher_id = ${tess.id}`,
    );
    const [tessShares] = await rows<{ s: number }>(
      sql`select sum(share_cents)::int s from earning_lines where teacher_id = ${tess.id}`,
    );
    expect(tessBalance).toEqual({ available_cents: tessShares!.s, pending_cents: 0 });
    await expectBooksBalance();
    // The teacher's Earnings page reads the ledger: the old sales are there.
    const page = await ctx.app.inject({ method: 'GET', url: '/api/teachers/me/earnings', headers: tess.headers });
    expect(page.json()).toMatchObject({ availableCents: tessShares!.s });
  });

  it('a second run, in this process or another, changes nothing', async () => {
    const before = await wholeLedger();
    expect((await ctx.payoutJob.runOnce()).recorded).toBe(0);
    expect(await recordSalesBeforeLedger(ctx.db, LEDGER, 2)).toBe(0);
    expect(await wholeLedger()).toEqual(before);
  });

  it('two instances at once record each line once', async () => {
    await forgetLedger();
    const counts = await Promise.all([
      recordSalesBeforeLedger(ctx.db, LEDGER, 2),
      recordSalesBeforeLedger(ctx.db, LEDGER, 3),
    ]);
    expect(counts[0] + counts[1]).toBe(expectedLines);
    expect(await ledgerLines()).toEqual(live.lines);
    expect(await ledgerTranches()).toEqual(live.tranches);
    const [entries] = await rows<{ n: number }>(sql`select count(*)::int n from ledger_entries where kind = 'share'`);
    expect(entries!.n).toBe(expectedLines);
    await ctx.payoutJob.runOnce();
    await expectBooksBalance();
  });
});

describe('the demo data (decision 039 §10)', () => {
  let database: Database;
  const uploads = mkdtempSync(path.join(tmpdir(), 'skillhive-backfill-uploads-'));
  afterAll(async () => {
    await database?.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  it('is recorded by the seed once: the late recording finds nothing', async () => {
    database = await createTestDatabase();
    expect(await seedIfEmpty(database.db, createLocalStorage(uploads), [])).not.toBeNull();
    const [before] = await rawRows<{ n: number }>(database.db, sql`select count(*)::int n from earning_lines`);
    expect(before!.n).toBeGreaterThan(0);
    expect(await recordSalesBeforeLedger(database.db, LEDGER)).toBe(0);
    const [after] = await rawRows<{ n: number }>(database.db, sql`select count(*)::int n from earning_lines`);
    expect(after).toEqual(before);
  }, 180_000);
});
