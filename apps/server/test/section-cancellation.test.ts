import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RescheduleOffer } from '@skillhive/shared/contracts/sections';
import { SECTION_MESSAGES } from '@skillhive/shared/rules/sections';
import { buildApp } from '../src/app.ts';
import { schema } from '../src/db/client.ts';
import { createSmtpSender } from '../src/modules/mail/mail.transport.ts';
import { createMailWorker } from '../src/modules/mail/mail.worker.ts';
import { createTestApp, createUser, rawRows, type TestContext, type TestUser } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  confirm,
  createCaller,
  createClass,
  createIntentOk,
  itAnswersEachRole,
  recordPayment,
  type Caller,
  type MatrixRole,
  type TestClass,
} from './commerce-fixtures.ts';
import { startSmtpServer } from './smtp-server.ts';

/**
 * Sections that cancel themselves, and a teacher's cancel and reschedule (decision 052), on a
 * scripted clock (the app's `now`): a section under its minimum at its deadline is cancelled once,
 * every paid student refunded to the cent and mailed once, also with two instances running the job
 * at the same moment; one at its minimum runs on. The teacher's endpoints, the student's "refund
 * me", their refusals and who may call them.
 */

const START = Date.parse('2026-03-20T12:00:00Z');
let clockMs = START;
const now = () => new Date(clockMs);

let ctx: TestContext;
let teacher: TestUser;
let otherTeacher: TestUser;
let admin: TestUser;
let cls: TestClass;

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV }, { now });
  [teacher, otherTeacher, admin] = await Promise.all([
    createUser(ctx, 'teacher'),
    createUser(ctx, 'teacher'),
    createUser(ctx, 'admin'),
  ]);
  cls = await createClass(ctx, teacher, { title: 'Live ceramics', priceCents: 4_999 });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

type Method = 'GET' | 'POST';
const call = (user: Caller | null, method: Method, url: string, payload?: Record<string, unknown>) =>
  ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

/** A section (Lisbon time) whose enrollment closes at `closes` (local), with one published session on `sessionAt`. */
async function createSection(options: { minimum: number | ''; closes: string; sessionAt: string; capacity?: number }) {
  const res = await call(teacher, 'POST', `/api/classes/${cls.id}/sections`, {
    timeZone: 'Europe/Lisbon',
    capacity: options.capacity ?? 10,
    minimum: options.minimum,
    enrollOpensAt: '2026-03-01T09:00',
    enrollClosesAt: options.closes,
  });
  expect(res.statusCode, res.body).toBe(201);
  const sectionId = (res.json() as { _id: string })._id;
  // Two weekly sessions, the first at `sessionAt`.
  const weekLater = options.sessionAt.replace(
    /-(\d\d)T/,
    (_m, day: string) => `-${String(Number(day) + 7).padStart(2, '0')}T`,
  );
  for (const [title, startsAt] of [
    ['Week 1', options.sessionAt],
    ['Week 2', weekLater],
  ] as const) {
    const session = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions`, {
      title,
      startsAt,
      timeZone: 'Europe/Lisbon',
      durationMinutes: 90,
      meetingUrl: 'https://meet.example.test/room',
      location: '',
      sectionId,
    });
    expect(session.statusCode, session.body).toBe(201);
  }
  const published = await call(teacher, 'POST', `/api/classes/${cls.id}/content/publish`, { sectionId });
  expect(published.statusCode, published.body).toBe(200);
  return sectionId;
}

/**
 * A student who buys a seat in `sectionId` through the API (carted, intent, card, payment); with
 * `cookie`, signed in by session cookie, which outlives a jump of the clock (a token does not).
 */
async function buyIn(
  sectionId: string,
  options: { cookie?: boolean } = {},
): Promise<Caller & { enrollmentId: string; paymentId: string }> {
  const student = options.cookie ? await createUser(ctx, 'student') : await createCaller(ctx);
  const carted = await call(student, 'POST', '/api/enrolled', { enrollId: cls.id, sectionId });
  expect(carted.statusCode, carted.body).toBe(201);
  const intent = await createIntentOk(ctx, student);
  const confirmed = await confirm(ctx, student, intent.clientSecret);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const { transactionId } = confirmed.json() as { transactionId: string };
  const paid = await recordPayment(ctx, student, { transactionId, cartIds: intent.cartIds });
  expect([200, 201]).toContain(paid.statusCode);
  return {
    ...student,
    enrollmentId: (carted.json() as { insertedId: string }).insertedId,
    paymentId: (paid.json() as { paymentResult: { insertedId: string } }).paymentResult.insertedId,
  };
}

async function sectionRow(id: string) {
  const [row] = await ctx.db.select().from(schema.sections).where(eq(schema.sections.id, id));
  return row!;
}

const mailsTo = (email: string, kind: string) =>
  ctx.db
    .select()
    .from(schema.mailOutbox)
    .where(and(eq(schema.mailOutbox.to, email.toLowerCase()), eq(schema.mailOutbox.kind, kind)));

/** The books of some lines: what was charged, what the refunds recorded, what the gateway gave back, the teacher's share kept. */
async function booksOf(enrollmentIds: string[]) {
  const [books] = await rawRows<{ paid: number; refunded: number; gateway: number; kept: number; lines: number }>(
    ctx.db,
    sql`select
      (select coalesce(sum(e.paid_cents), 0)::int from enrollments e where e.id in ${enrollmentIds}) as paid,
      (select coalesce(sum(r.amount_cents), 0)::int from refunds r
        where r.enrollment_id in ${enrollmentIds} and r.status = 'succeeded') as refunded,
      (select coalesce(sum(g.amount_cents), 0)::int from test_gateway_refunds g
        where g.metadata->>'refund_id' in (select r.id::text from refunds r where r.enrollment_id in ${enrollmentIds})) as gateway,
      (select coalesce(sum(l.share_cents - l.clawback_cents), 0)::int from earning_lines l
        where l.enrollment_id in ${enrollmentIds} and l.refunded_at is null) as kept,
      (select count(*)::int from enrollments e where e.id in ${enrollmentIds} and e.status = 'refunded') as lines`,
  );
  return books!;
}

describe('a section under its minimum at its deadline', () => {
  it('is cancelled by the job at its deadline and not before; every student refunded to the cent and mailed once', async () => {
    const sectionId = await createSection({ minimum: 3, closes: '2026-03-25T12:00', sessionAt: '2026-04-01T18:00' });
    const students = [await buyIn(sectionId), await buyIn(sectionId)];
    // A buyer still paying holds a seat; the cancellation releases it.
    // A signed-in session (the cookie), which outlives the jump of the clock below, unlike a token.
    const carting = await createUser(ctx, 'student');
    const held = await call(carting, 'POST', '/api/enrolled', { enrollId: cls.id, sectionId });
    expect(held.statusCode, held.body).toBe(201);

    clockMs = Date.parse('2026-03-25T11:59:00Z');
    expect(await ctx.sectionCancellations.runOnce()).toBe(0);
    expect((await sectionRow(sectionId)).status).toBe('active');

    clockMs = Date.parse('2026-03-25T12:00:00Z');
    expect(await ctx.sectionCancellations.runOnce()).toBe(1);
    const row = await sectionRow(sectionId);
    expect(row).toMatchObject({ status: 'cancelled', cancelReason: 'minimum_not_met' });
    expect(row.cancelledAt?.toISOString()).toBe('2026-03-25T12:00:00.000Z');
    // Running it again does nothing twice.
    expect(await ctx.sectionCancellations.runOnce()).toBe(0);

    const ids = students.map((s) => s.enrollmentId);
    expect(await booksOf(ids)).toEqual({ paid: 9_998, refunded: 9_998, gateway: 9_998, kept: 0, lines: 2 });
    for (const student of students) {
      expect(await mailsTo(student.email, 'section-cancelled')).toHaveLength(1);
      // The cancellation mail names the refund: no second mail for it.
      expect(await mailsTo(student.email, 'refund')).toHaveLength(0);
      const [mail] = await mailsTo(student.email, 'section-cancelled');
      expect(mail!.text).toContain('$49.99');
      const notes = await ctx.db
        .select()
        .from(schema.notifications)
        .where(eq(schema.notifications.recipientId, student.id));
      expect(notes.filter((n) => n.kind === 'schedule')).toHaveLength(1);
    }
    const [teacherMail, ...more] = await mailsTo(teacher.email, 'section-cancelled-teacher');
    expect(more).toEqual([]);
    expect(teacherMail!.text).toContain(`/dashboard/my-class/${cls.id}`);
    const [line] = await ctx.db
      .select({ until: schema.enrollments.seatHeldUntil })
      .from(schema.enrollments)
      .where(eq(schema.enrollments.id, (held.json() as { insertedId: string }).insertedId));
    expect(line?.until).toBeNull();
    // The carted line cannot be paid any more: nothing is charged.
    const intent = await call(carting, 'POST', '/api/create-payment-intent', {});
    expect(intent.statusCode).toBe(409);
    // The public schedule no longer offers it.
    const schedule = await call(null, 'GET', `/api/classes/${cls.id}/schedule`);
    expect((schedule.json() as { _id: string }[]).map((s) => s._id)).not.toContain(sectionId);
  });

  it('at or above its minimum it runs on, and is not looked at again', async () => {
    clockMs = START;
    const sectionId = await createSection({ minimum: 1, closes: '2026-03-26T12:00', sessionAt: '2026-04-02T18:00' });
    const student = await buyIn(sectionId);
    clockMs = Date.parse('2026-03-26T13:00:00Z');
    expect(await ctx.sectionCancellations.runOnce()).toBe(0);
    const row = await sectionRow(sectionId);
    expect(row.status).toBe('active');
    expect(row.minimumMetAt).not.toBeNull();
    expect(await mailsTo(student.email, 'section-cancelled')).toHaveLength(0);
    expect((await booksOf([student.enrollmentId])).lines).toBe(0);
  });

  it('two instances running the job at the same moment cancel it once; each mail goes out once through SMTP', async () => {
    clockMs = START;
    const sectionId = await createSection({ minimum: 5, closes: '2026-03-27T12:00', sessionAt: '2026-04-03T18:00' });
    const students = [await buyIn(sectionId), await buyIn(sectionId), await buyIn(sectionId)];
    const second = await buildApp({
      env: ctx.env,
      database: ctx.database,
      storage: ctx.storage,
      authSecret: 'test-secret-that-is-long-enough-1234567890',
      logger: false,
      now,
    });
    await second.app.ready();
    const smtp = await startSmtpServer();
    const sender = createSmtpSender(smtp.url, 'SkillHive <no-reply@skillhive.test>', 'skillhive.test');
    const worker = createMailWorker({ db: ctx.db, send: sender.send, log: ctx.app.log, intervalMs: 50 });
    try {
      clockMs = Date.parse('2026-03-27T12:00:01Z');
      const counts = await Promise.all([ctx.sectionCancellations.runOnce(), second.sectionCancellations.runOnce()]);
      expect(counts.sort()).toEqual([0, 1]);
      const ids = students.map((s) => s.enrollmentId);
      expect(await booksOf(ids)).toEqual({ paid: 14_997, refunded: 14_997, gateway: 14_997, kept: 0, lines: 3 });
      const refundRows = await ctx.db.select().from(schema.refunds).where(inArray(schema.refunds.enrollmentId, ids));
      expect(refundRows).toHaveLength(3);
      worker.start();
      await expect
        .poll(async () => (await ctx.db.select().from(schema.mailOutbox)).every((m) => m.status === 'sent'), {
          timeout: 15_000,
        })
        .toBe(true);
      for (const student of students) {
        const received = smtp.messages.filter(
          (m) =>
            m.to && JSON.stringify(m.to).includes(student.email.toLowerCase()) && /is cancelled/.test(m.subject ?? ''),
        );
        expect(received).toHaveLength(1);
      }
    } finally {
      await worker.stop();
      sender.close();
      await smtp.close();
      await second.app.close();
    }
  }, 60_000);

  it('a refund cut short at the gateway is finished by the reconciler, to the cent', async () => {
    clockMs = START;
    const sectionId = await createSection({ minimum: 4, closes: '2026-03-28T12:00', sessionAt: '2026-04-04T18:00' });
    const student = await buyIn(sectionId);
    // The gateway's refund step fails once, as a crash or an outage would leave it: pending.
    await ctx.db.execute(
      sql`alter table test_gateway_refunds add constraint block_refunds check (amount_cents < 0) not valid`,
    );
    try {
      clockMs = Date.parse('2026-03-28T12:00:00Z');
      expect(await ctx.sectionCancellations.runOnce()).toBe(1);
      const [pending] = await ctx.db
        .select()
        .from(schema.refunds)
        .where(eq(schema.refunds.enrollmentId, student.enrollmentId));
      expect(pending?.status).toBe('pending');
    } finally {
      await ctx.db.execute(sql`alter table test_gateway_refunds drop constraint block_refunds`);
    }
    clockMs += 3 * 60_000;
    await ctx.reconciler.runOnce();
    expect(await booksOf([student.enrollmentId])).toEqual({
      paid: 4_999,
      refunded: 4_999,
      gateway: 4_999,
      kept: 0,
      lines: 1,
    });
    expect(await mailsTo(student.email, 'section-cancelled')).toHaveLength(1);
    expect(await mailsTo(student.email, 'refund')).toHaveLength(0);
  });
});

describe("a teacher's cancel and reschedule", () => {
  it('the teacher cancels a section with a message: students refunded and told once; again is a 409', async () => {
    clockMs = START;
    const sectionId = await createSection({ minimum: '', closes: '2026-03-29T12:00', sessionAt: '2026-04-05T18:00' });
    const student = await buyIn(sectionId);
    const res = await call(teacher, 'POST', `/api/sections/${sectionId}/cancel`, { message: 'I broke my wrist.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, refunded: 1 });
    expect(await sectionRow(sectionId)).toMatchObject({ status: 'cancelled', cancelReason: 'teacher' });
    expect(await booksOf([student.enrollmentId])).toMatchObject({ paid: 4_999, refunded: 4_999, kept: 0, lines: 1 });
    const mails = await mailsTo(student.email, 'section-cancelled');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('I broke my wrist.');
    const again = await call(teacher, 'POST', `/api/sections/${sectionId}/cancel`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(SECTION_MESSAGES.cancelled);
    expect(await mailsTo(student.email, 'section-cancelled')).toHaveLength(1);
    // Nor can it be rescheduled or edited.
    const moved = await call(teacher, 'POST', `/api/sections/${sectionId}/reschedule`, {
      firstStartsAt: '2026-05-01T18:00',
    });
    expect(moved.statusCode).toBe(409);
  });

  it('refuses bad input (400), unknown sections (404), a section whose session started (409)', async () => {
    clockMs = START;
    const sectionId = await createSection({ minimum: '', closes: '2026-03-21T09:00', sessionAt: '2026-03-22T10:00' });
    for (const body of [{ message: 'x'.repeat(1001) }, { message: 42 }]) {
      const res = await call(teacher, 'POST', `/api/sections/${sectionId}/cancel`, body);
      expect(res.statusCode, res.body).toBe(400);
    }
    for (const body of [
      {},
      { firstStartsAt: 'next week' },
      { firstStartsAt: '2026-03-19T10:00' },
      { firstStartsAt: '2026-03-22T10:00' },
      { firstStartsAt: '2026-03-20T10:00' },
    ]) {
      const res = await call(teacher, 'POST', `/api/sections/${sectionId}/reschedule`, body);
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await call(teacher, 'POST', `/api/sections/${id}/cancel`, {})).statusCode).toBe(404);
      expect(
        (await call(teacher, 'POST', `/api/sections/${id}/reschedule`, { firstStartsAt: '2026-05-01T10:00' }))
          .statusCode,
      ).toBe(404);
    }
    clockMs = Date.parse('2026-03-22T10:30:00Z');
    const held = await call(teacher, 'POST', `/api/sections/${sectionId}/cancel`, {});
    expect(held.statusCode).toBe(409);
    expect(held.json().error.message).toBe(SECTION_MESSAGES.sessionHeld);
    const late = await call(teacher, 'POST', `/api/sections/${sectionId}/reschedule`, {
      firstStartsAt: '2026-05-01T10:00',
    });
    expect(late.statusCode).toBe(409);
    expect((await sectionRow(sectionId)).status).toBe('active');
  });

  it('a reschedule moves every session by as much, mails each student the new times, and offers a refund until the new start', async () => {
    clockMs = START;
    const sectionId = await createSection({ minimum: '', closes: '2026-03-30T12:00', sessionAt: '2026-04-06T18:00' });
    const [keeper, leaver, late] = [
      await buyIn(sectionId),
      await buyIn(sectionId),
      await buyIn(sectionId, { cookie: true }),
    ];
    const res = await call(admin, 'POST', `/api/sections/${sectionId}/reschedule`, {
      firstStartsAt: '2026-04-08T19:30',
      message: 'The studio floods on Mondays.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ modifiedCount: 2, firstSessionAt: '2026-04-08T18:30:00.000Z', offered: 3 });
    const sessions = await ctx.db
      .select({ startsAt: schema.classSessions.startsAt })
      .from(schema.classSessions)
      .where(eq(schema.classSessions.sectionId, sectionId))
      .orderBy(schema.classSessions.startsAt);
    expect(sessions.map((s) => s.startsAt.toISOString())).toEqual([
      '2026-04-08T18:30:00.000Z',
      '2026-04-15T18:30:00.000Z',
    ]);
    for (const student of [keeper, leaver, late]) {
      const mails = await mailsTo(student.email, 'section-rescheduled');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain('The studio floods on Mondays.');
      expect(mails[0]!.text).toContain('8 April 2026');
      expect(mails[0]!.text).toContain('15 April 2026');
      // One mail for the section, not one per moved session.
      expect(await mailsTo(student.email, 'session-rescheduled')).toHaveLength(0);
    }

    const offers = await call(keeper, 'GET', '/api/reschedule-offers');
    expect(offers.statusCode).toBe(200);
    const [offer] = offers.json() as RescheduleOffer[];
    expect(offer).toMatchObject({
      enrollmentId: keeper.enrollmentId,
      classId: cls.id,
      openUntil: '2026-04-08T18:30:00.000Z',
      amountCents: 4_999,
    });
    expect(offer!.sessions.map((s) => s.startsAt)).toEqual(['2026-04-08T18:30:00.000Z', '2026-04-15T18:30:00.000Z']);

    const kept = await call(keeper, 'POST', `/api/reschedule-offers/${keeper.enrollmentId}`, { answer: 'keep' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toEqual({ answer: 'keep', refundedCents: 0, pending: false });
    expect(((await call(keeper, 'GET', '/api/reschedule-offers')).json() as unknown[]).length).toBe(0);

    // Another student's enrollment is not theirs to answer.
    const foreign = await call(keeper, 'POST', `/api/reschedule-offers/${leaver.enrollmentId}`, { answer: 'refund' });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await call(leaver, 'POST', `/api/reschedule-offers/${leaver.enrollmentId}`, { answer: 'maybe' })).statusCode,
    ).toBe(400);

    const refunded = await call(leaver, 'POST', `/api/reschedule-offers/${leaver.enrollmentId}`, { answer: 'refund' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toEqual({ answer: 'refund', refundedCents: 4_999, pending: false });
    expect(await booksOf([leaver.enrollmentId])).toEqual({
      paid: 4_999,
      refunded: 4_999,
      gateway: 4_999,
      kept: 0,
      lines: 1,
    });
    expect(await mailsTo(leaver.email, 'refund')).toHaveLength(1);
    const twice = await call(leaver, 'POST', `/api/reschedule-offers/${leaver.enrollmentId}`, { answer: 'refund' });
    expect(twice.statusCode).toBe(409);
    expect((await booksOf([keeper.enrollmentId])).lines).toBe(0);

    // After the new first session has started, "refund me" is closed.
    clockMs = Date.parse('2026-04-08T18:30:00Z');
    const closed = await call(late, 'POST', `/api/reschedule-offers/${late.enrollmentId}`, { answer: 'refund' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.message).toBe(SECTION_MESSAGES.offerClosed);
    expect((await booksOf([late.enrollmentId])).lines).toBe(0);
  });
});

describe('permission matrix', () => {
  let sectionId: string;
  let buyer: Caller & { enrollmentId: string };
  const callers = {} as Record<Exclude<MatrixRole, 'anonymous'>, Caller>;
  let moves = 0;
  beforeAll(async () => {
    clockMs = START;
    sectionId = await createSection({ minimum: '', closes: '2026-03-31T12:00', sessionAt: '2026-04-10T18:00' });
    buyer = await buyIn(sectionId);
    Object.assign(callers, { student: buyer, teacher, otherTeacher, admin });
  }, 60_000);
  const OK = { anonymous: 401, student: 403, teacher: 200, otherTeacher: 403, admin: 200 };
  itAnswersEachRole(
    [
      {
        name: 'POST /api/sections/:id/reschedule',
        method: 'POST',
        url: () => `/api/sections/${sectionId}/reschedule`,
        // Each allowed call moves it again: a different time each time.
        body: () => ({ firstStartsAt: `2026-04-1${(moves += 1)}T10:00` }),
        expected: OK,
      },
      {
        name: 'GET /api/reschedule-offers',
        method: 'GET',
        url: () => '/api/reschedule-offers',
        expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 200, admin: 200 },
      },
      {
        name: 'POST /api/reschedule-offers/:id',
        method: 'POST',
        url: () => `/api/reschedule-offers/${buyer.enrollmentId}`,
        body: () => ({ answer: 'keep' }),
        expected: { anonymous: 401, student: 200, teacher: 404, otherTeacher: 404, admin: 404 },
      },
      {
        name: 'POST /api/sections/:id/cancel',
        method: 'POST',
        url: () => `/api/sections/${sectionId}/cancel`,
        body: () => ({}),
        // The teacher's cancel wins; the admin after it finds it cancelled.
        expected: { anonymous: 401, student: 403, teacher: 200, otherTeacher: 403, admin: 409 },
      },
    ],
    { ctx: () => ctx, callerOf: (role) => callers[role] },
  );
});
