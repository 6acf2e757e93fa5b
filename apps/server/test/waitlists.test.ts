import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECTION_MESSAGES } from '@skillhive/shared/rules/sections';
import { WAITLIST_MESSAGES } from '@skillhive/shared/rules/waitlists';
import { schema } from '../src/db/client.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
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

/**
 * Waitlists of full sections (decision 051): joining and leaving with their refusals, offers in
 * joining order when a seat frees (a refund, an expired hold), an unclaimed offer passing to the
 * next, claiming by carting and paying, offers never beyond the free seats, two job passes at
 * once making one offer, and who may read a section's queue. The app's clock is this suite's.
 */

const HOLD_MINUTES = 15;
// Shorter than the Bearer tokens of the callers (an hour), which the suite's clock also ages.
const OFFER_MINUTES = 30;
let clockMs = Date.parse('2026-03-20T12:00:00Z');
const now = () => new Date(clockMs);
const advance = (minutes: number) => {
  clockMs += minutes * 60_000;
};

let ctx: TestContext;
let teacher: TestUser;
let otherTeacher: TestUser;
let admin: TestUser;
let cls: TestClass;

beforeAll(async () => {
  ctx = await createTestApp(
    { ...FAST_SIGNUP_ENV, SEAT_HOLD_MINUTES: String(HOLD_MINUTES), WAITLIST_OFFER_MINUTES: String(OFFER_MINUTES) },
    { now },
  );
  [teacher, otherTeacher, admin] = await Promise.all([
    createUser(ctx, 'teacher'),
    createUser(ctx, 'teacher'),
    createUser(ctx, 'admin'),
  ]);
  cls = await createClass(ctx, teacher, { title: 'Live glassblowing', priceCents: 4000 });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

async function createSection(capacity: number, window = { opens: '2026-01-01T09:00', closes: '2026-12-01T09:00' }) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/classes/${cls.id}/sections`,
    headers: teacher.headers,
    payload: {
      timeZone: 'Europe/Lisbon',
      capacity,
      minimum: '',
      enrollOpensAt: window.opens,
      enrollClosesAt: window.closes,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { _id: string })._id;
}

type Who = Pick<Caller, 'headers'> | null;
const call = (user: Who, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

const join = (user: Who, sectionId: string) => call(user, 'POST', `/api/sections/${sectionId}/waitlist`);
const leave = (user: Who, sectionId: string) => call(user, 'DELETE', `/api/sections/${sectionId}/waitlist`);
const enrollIn = (user: Who, sectionId: string) => call(user, 'POST', '/api/enrolled', { enrollId: cls.id, sectionId });

async function joinOk(user: Who, sectionId: string) {
  const res = await join(user, sectionId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; position: number | null; status: string };
}

/** Cart, intent, card 4242, payment: answers the payment's id. */
async function buySeat(user: Caller, sectionId: string): Promise<string> {
  const carted = await enrollIn(user, sectionId);
  expect(carted.statusCode, carted.body).toBe(201);
  const intent = await createIntentOk(ctx, user);
  const confirmed = await confirm(ctx, user, intent.clientSecret);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const { transactionId } = confirmed.json() as { transactionId: string };
  const paid = await recordPayment(ctx, user, { transactionId, cartIds: intent.cartIds });
  expect([200, 201], paid.body).toContain(paid.statusCode);
  return (paid.json() as { paymentResult: { insertedId: string } }).paymentResult.insertedId;
}

async function refund(paymentId: string) {
  const res = await call(admin, 'POST', `/api/admin/payments/${paymentId}/refunds`, { reason: 'Cannot attend' });
  expect(res.statusCode, res.body).toBe(200);
}

async function statusesOf(sectionId: string): Promise<Record<string, string>> {
  const rows = await ctx.db
    .select({ userId: schema.waitlistEntries.userId, status: schema.waitlistEntries.status })
    .from(schema.waitlistEntries)
    .where(eq(schema.waitlistEntries.sectionId, sectionId));
  return Object.fromEntries(rows.map((row) => [row.userId, row.status]));
}

async function offerMailsTo(email: string): Promise<number> {
  const rows = await ctx.db
    .select({ id: schema.mailOutbox.id })
    .from(schema.mailOutbox)
    .where(and(eq(schema.mailOutbox.to, email.toLowerCase()), eq(schema.mailOutbox.kind, 'waitlist-offer')));
  return rows.length;
}

async function offerNotificationsOf(userId: string) {
  return ctx.db
    .select({ link: schema.notifications.link, title: schema.notifications.title })
    .from(schema.notifications)
    .where(and(eq(schema.notifications.recipientId, userId), eq(schema.notifications.kind, 'offer')));
}

const schedule = async (sectionId: string) =>
  (
    (await call(null, 'GET', `/api/classes/${cls.id}/schedule`)).json() as {
      _id: string;
      seatsLeft: number;
      full: boolean;
    }[]
  ).find((s) => s._id === sectionId);

describe('joining and leaving', () => {
  it('a full section takes people in joining order; each refusal is a clear 4xx', async () => {
    const section = await createSection(1);
    const [a, b, c] = await Promise.all([createCaller(ctx), createCaller(ctx), createCaller(ctx)]);
    // Not full yet: enroll instead.
    const early = await join(b, section);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(WAITLIST_MESSAGES.notFull);
    expect((await enrollIn(a, section)).statusCode).toBe(201);
    expect(await schedule(section)).toMatchObject({ seatsLeft: 0, full: true });
    // The buyer holding the seat has the class in their cart.
    expect((await join(a, section)).json().error.message).toBe(WAITLIST_MESSAGES.inCart);
    expect(await joinOk(b, section)).toMatchObject({ position: 1, status: 'waiting' });
    expect(await joinOk(c, section)).toMatchObject({ position: 2, status: 'waiting' });
    const again = await join(b, section);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(WAITLIST_MESSAGES.alreadyWaiting);
    // Its teacher cannot wait for their own class.
    const own = await join(teacher, section);
    expect(own.statusCode).toBe(409);
    expect(own.json().error.message).toBe(WAITLIST_MESSAGES.ownClass);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await join(b, id)).statusCode, id).toBe(404);
      expect((await leave(b, id)).statusCode, id).toBe(404);
    }
    expect((await join(null, section)).statusCode).toBe(401);
    // Mine, with positions; leaving moves the next one up.
    const mine = (await call(c, 'GET', '/api/waitlist')).json();
    expect(mine).toEqual([
      expect.objectContaining({
        sectionId: section,
        classId: cls.id,
        classTitle: cls.title,
        position: 2,
        offerExpiresAt: null,
      }),
    ]);
    expect((await leave(b, section)).json()).toEqual({ deletedCount: 1 });
    expect((await leave(b, section)).statusCode).toBe(404);
    expect((await call(c, 'GET', '/api/waitlist')).json()[0].position).toBe(1);
    // Someone waiting keeps the seat a lapsed hold gave back from a newcomer...
    advance(HOLD_MINUTES + 1);
    const d = await createCaller(ctx);
    const newcomer = await enrollIn(d, section);
    expect(newcomer.statusCode).toBe(409);
    expect(newcomer.json().error.message).toBe(SECTION_MESSAGES.full);
    // ...and may take it at once; the entry is then claimed.
    expect((await enrollIn(c, section)).statusCode).toBe(201);
    expect((await statusesOf(section))[c.id]).toBe('claimed');
  });

  it('is a 409 for a section not open, cancelled, or a class already paid for', async () => {
    const closed = await createSection(1, { opens: '2026-01-01T09:00', closes: '2026-03-01T09:00' });
    const b = await createCaller(ctx);
    expect((await join(b, closed)).json().error.message).toBe(SECTION_MESSAGES.notOpen);
    const cancelled = await createSection(1);
    await ctx.db
      .update(schema.sections)
      .set({ status: 'cancelled', cancelledAt: new Date(), cancelReason: 'teacher' })
      .where(eq(schema.sections.id, cancelled));
    const refused = await join(b, cancelled);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(SECTION_MESSAGES.cancelled);
    const section = await createSection(1);
    await buySeat(b, section);
    const paid = await join(b, section);
    expect(paid.statusCode).toBe(409);
    expect(paid.json().error.message).toBe(WAITLIST_MESSAGES.alreadyEnrolled);
  });
});

describe('offers', () => {
  it('a refund offers the seat to the first person waiting, by e-mail and notification, who claims it and pays', async () => {
    const section = await createSection(1);
    const [a, b, c, d] = await Promise.all([
      createCaller(ctx),
      createCaller(ctx),
      createCaller(ctx),
      createCaller(ctx),
    ]);
    const paymentId = await buySeat(a, section);
    await joinOk(b, section);
    await joinOk(c, section);
    await refund(paymentId);
    expect(await statusesOf(section)).toMatchObject({ [b.id]: 'offered', [c.id]: 'waiting' });
    expect(await offerMailsTo(b.email)).toBe(1);
    expect(await offerMailsTo(c.email)).toBe(0);
    expect(await offerNotificationsOf(b.id)).toEqual([
      { link: `/classes/${cls.id}`, title: `A seat is held for you: ${cls.title}` },
    ]);
    const mine = (await call(b, 'GET', '/api/waitlist')).json();
    expect(mine[0]).toMatchObject({
      status: 'offered',
      position: null,
      offerExpiresAt: new Date(clockMs + OFFER_MINUTES * 60_000).toISOString(),
    });
    // The seat is b's: the section shows full, and neither the next in line nor a newcomer takes it.
    expect(await schedule(section)).toMatchObject({ seatsLeft: 0, full: true });
    expect((await enrollIn(c, section)).statusCode).toBe(409);
    expect((await enrollIn(d, section)).statusCode).toBe(409);
    // The job's next pass offers nothing more and mails nobody twice.
    expect(await ctx.waitlistJob.runOnce()).toBe(0);
    expect(await offerMailsTo(b.email)).toBe(1);
    // b claims it: carting consumes the offer, and b pays.
    await buySeat(b, section);
    expect((await statusesOf(section))[b.id]).toBe('claimed');
    const paid = await ctx.db
      .select({ studentId: schema.enrollments.studentId })
      .from(schema.enrollments)
      .where(and(eq(schema.enrollments.sectionId, section), eq(schema.enrollments.status, 'paid')));
    expect(paid).toEqual([{ studentId: b.id }]);
  });

  it('an expired hold frees its seat for the job; an unclaimed offer passes to the next and cannot be claimed', async () => {
    const section = await createSection(1);
    const [a, b, c] = await Promise.all([createCaller(ctx), createCaller(ctx), createCaller(ctx)]);
    expect((await enrollIn(a, section)).statusCode).toBe(201);
    await joinOk(b, section);
    await joinOk(c, section);
    // While the hold is live, nothing is offered.
    expect(await ctx.waitlistJob.runOnce()).toBe(0);
    advance(HOLD_MINUTES + 1);
    expect(await ctx.waitlistJob.runOnce()).toBe(1);
    expect(await statusesOf(section)).toMatchObject({ [b.id]: 'offered', [c.id]: 'waiting' });
    // The first buyer's lapsed hold does not take the seat back from the offer.
    const intent = await call(a, 'POST', '/api/create-payment-intent', {});
    expect(intent.statusCode).toBe(409);
    // b lets the offer run out; claiming it afterwards is refused with a clear message.
    advance(OFFER_MINUTES + 1);
    const late = await enrollIn(b, section);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(WAITLIST_MESSAGES.offerExpired);
    expect(await ctx.waitlistJob.runOnce()).toBe(1);
    expect(await statusesOf(section)).toMatchObject({ [b.id]: 'expired', [c.id]: 'offered' });
    expect(await offerMailsTo(c.email)).toBe(1);
    await buySeat(c, section);
    expect((await statusesOf(section))[c.id]).toBe('claimed');
    // b may join again, last.
    expect(await joinOk(b, section)).toMatchObject({ position: 1 });
  });

  it('offers never exceed the free seats, and leaving with an offer passes it on at once', async () => {
    const section = await createSection(2);
    const buyers = await Promise.all([createCaller(ctx), createCaller(ctx)]);
    const payments = [];
    for (const buyer of buyers) payments.push(await buySeat(buyer, section));
    const waiting = await Promise.all(Array.from({ length: 4 }, () => createCaller(ctx)));
    for (const person of waiting) await joinOk(person, section);
    await refund(payments[0]!);
    expect(await ctx.waitlistJob.runOnce()).toBe(0);
    let statuses = await statusesOf(section);
    expect(waiting.map((p) => statuses[p.id])).toEqual(['offered', 'waiting', 'waiting', 'waiting']);
    await refund(payments[1]!);
    statuses = await statusesOf(section);
    expect(waiting.map((p) => statuses[p.id])).toEqual(['offered', 'offered', 'waiting', 'waiting']);
    expect((await leave(waiting[0]!, section)).statusCode).toBe(200);
    statuses = await statusesOf(section);
    expect(waiting.map((p) => statuses[p.id])).toEqual(['left', 'offered', 'offered', 'waiting']);
    expect(await ctx.waitlistJob.runOnce()).toBe(0);
  });

  it('two passes of the job at once make one offer for one free seat', async () => {
    const section = await createSection(1);
    const a = await createCaller(ctx);
    expect((await enrollIn(a, section)).statusCode).toBe(201);
    const waiting = await Promise.all(Array.from({ length: 3 }, () => createCaller(ctx)));
    for (const person of waiting) await joinOk(person, section);
    advance(HOLD_MINUTES + 1);
    const made = await Promise.all([ctx.waitlistJob.runOnce(), ctx.waitlistJob.runOnce(), ctx.waitlistJob.runOnce()]);
    expect(made.reduce((sum, n) => sum + n, 0)).toBe(1);
    const statuses = await statusesOf(section);
    expect(waiting.map((p) => statuses[p.id])).toEqual(['offered', 'waiting', 'waiting']);
    expect(await offerMailsTo(waiting[0]!.email)).toBe(1);
  });
});

describe('a cancelled section', () => {
  it('closes its waiting list and tells everyone waiting or offered a seat, once', async () => {
    const section = await createSection(1);
    const [a, b, c] = await Promise.all([createCaller(ctx), createCaller(ctx), createCaller(ctx)]);
    const paymentId = await buySeat(a, section);
    await joinOk(b, section);
    await joinOk(c, section);
    await refund(paymentId);
    expect(await statusesOf(section)).toMatchObject({ [b.id]: 'offered', [c.id]: 'waiting' });
    // Its teacher cancels it (decision 052): the queue closes with the cancellation, and the job
    // passing over it afterwards tells nobody twice.
    const cancelled = await call(teacher, 'POST', `/api/sections/${section}/cancel`, {});
    expect(cancelled.statusCode).toBe(200);
    await ctx.waitlistJob.runOnce();
    expect(await statusesOf(section)).toMatchObject({ [b.id]: 'cancelled', [c.id]: 'cancelled' });
    for (const person of [b, c]) {
      const mails = await ctx.db
        .select({ id: schema.mailOutbox.id })
        .from(schema.mailOutbox)
        .where(
          and(eq(schema.mailOutbox.to, person.email.toLowerCase()), eq(schema.mailOutbox.kind, 'waitlist-cancelled')),
        );
      expect(mails).toHaveLength(1);
      expect((await offerNotificationsOf(person.id)).map((n) => n.title)).toContain(`Section cancelled: ${cls.title}`);
    }
    expect((await call(c, 'GET', '/api/waitlist')).json()).toEqual([]);
  });
});

describe('permission matrix of the waitlist endpoints', () => {
  let section = '';
  beforeAll(async () => {
    section = await createSection(1);
    const holder = await createCaller(ctx);
    expect((await enrollIn(holder, section)).statusCode).toBe(201);
  });
  let student: Caller & { name: string };
  beforeAll(async () => {
    student = await createCaller(ctx);
  });
  const callers: Record<Exclude<MatrixRole, 'anonymous'>, () => Caller> = {
    student: () => student,
    teacher: () => teacher,
    otherTeacher: () => otherTeacher,
    admin: () => admin,
  };
  itAnswersEachRole(
    [
      {
        name: 'POST /api/sections/:id/waitlist',
        method: 'POST',
        url: () => `/api/sections/${section}/waitlist`,
        expected: { anonymous: 401, student: 201, teacher: 409, otherTeacher: 201, admin: 201 },
      },
      {
        name: 'GET /api/sections/:id/waitlist',
        method: 'GET',
        url: () => `/api/sections/${section}/waitlist`,
        expected: { anonymous: 401, student: 403, teacher: 200, otherTeacher: 403, admin: 200 },
      },
      {
        name: 'GET /api/waitlist',
        method: 'GET',
        url: () => '/api/waitlist',
        expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 200, admin: 200 },
      },
    ],
    { ctx: () => ctx, callerOf: (role) => callers[role]() },
  );

  it('the queue names people by display name, in joining order, without e-mail addresses', async () => {
    const res = await call(teacher, 'GET', `/api/sections/${section}/waitlist`);
    const queue = res.json() as { position: number; studentName: string; status: string }[];
    expect(queue.map((q) => q.position)).toEqual([1, 2, 3]);
    expect(queue.map((q) => q.studentName)).toEqual([otherTeacher.name, admin.name, student.name]);
    expect(res.body).not.toContain('@');
    expect((await call(admin, 'GET', '/api/sections/00000000-0000-4000-8000-000000000000/waitlist')).statusCode).toBe(
      404,
    );
  });

  it('DELETE /api/sections/:id/waitlist: anonymous → 401, someone not waiting → 404, the person waiting → 200', async () => {
    expect((await leave(null, section)).statusCode).toBe(401);
    expect((await leave(teacher, section)).statusCode).toBe(404);
    expect((await leave(student, section)).statusCode).toBe(200);
  });
});
