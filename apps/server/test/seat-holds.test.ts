import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { SECTION_MESSAGES } from '@skillhive/shared/rules/sections';
import { schema } from '../src/db/client.ts';
import { TEST_CARDS, createTestGateway } from '../src/modules/gateways/test-gateway.ts';
import { createTestApp, createUser, rawRows, type TestContext, type TestUser } from './harness.ts';
import {
  CARDS,
  FAST_SIGNUP_ENV,
  card,
  confirm,
  createCaller,
  createClass,
  createIntent,
  createIntentOk,
  recordPayment,
  type Caller,
  type TestClass,
} from './commerce-fixtures.ts';

/**
 * Seats that cannot oversell (decision 042): carting a class of a section with seats and creating
 * its payment intent hold a seat for SEAT_HOLD_MINUTES; declines, removals and time free it; a
 * charge whose hold expired gets a free seat or is refunded at once. The app's clock is this
 * suite's, moved past holds as it goes.
 */

const HOLD_MINUTES = 15;
const START = Date.parse('2026-03-20T12:00:00Z');
let clockMs = START;
const now = () => new Date(clockMs);
const pastHolds = () => {
  clockMs += (HOLD_MINUTES + 1) * 60_000;
};

let ctx: TestContext;
let teacher: TestUser;
let cls: TestClass;

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV, SEAT_HOLD_MINUTES: String(HOLD_MINUTES) }, { now });
  teacher = await createUser(ctx, 'teacher');
  cls = await createClass(ctx, teacher, { title: 'Live pottery', priceCents: 2500 });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

/** A section of `cls` (or another class) with `capacity` seats, open from before the clock to well after it. */
async function createSection(capacity: number, classId = cls.id): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/classes/${classId}/sections`,
    headers: teacher.headers,
    payload: {
      timeZone: 'Europe/Lisbon',
      capacity,
      minimum: '',
      enrollOpensAt: '2026-01-01T09:00',
      enrollClosesAt: '2026-12-01T09:00',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { _id: string })._id;
}

const enrollIn = (user: Caller, sectionId: string, classId = cls.id) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/enrolled',
    headers: user.headers,
    payload: { enrollId: classId, sectionId },
  });

async function enrollOk(user: Caller, sectionId: string): Promise<string> {
  const res = await enrollIn(user, sectionId);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { insertedId: string }).insertedId;
}

async function paidOf(sectionId: string): Promise<number> {
  const rows = await ctx.db
    .select({ id: schema.enrollments.id })
    .from(schema.enrollments)
    .where(and(eq(schema.enrollments.sectionId, sectionId), eq(schema.enrollments.status, 'paid')));
  return rows.length;
}

async function holdOf(enrollmentId: string): Promise<Date | null> {
  const [row] = await ctx.db
    .select({ until: schema.enrollments.seatHeldUntil })
    .from(schema.enrollments)
    .where(eq(schema.enrollments.id, enrollmentId));
  return row?.until ?? null;
}

/** intent → confirm 4242 → POST /api/payments; answers the last response. */
async function pay(user: Caller) {
  const intent = await createIntentOk(ctx, user);
  const confirmed = await confirm(ctx, user, intent.clientSecret);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const { transactionId } = confirmed.json() as { transactionId: string };
  return recordPayment(ctx, user, { transactionId, cartIds: intent.cartIds });
}

describe('seat holds', () => {
  it('carting holds a seat until SEAT_HOLD_MINUTES; a full section is a clear 409', async () => {
    const section = await createSection(2);
    const [a, b, c] = await Promise.all([createCaller(ctx), createCaller(ctx), createCaller(ctx)]);
    const line = await enrollOk(a, section);
    expect((await holdOf(line))?.toISOString()).toBe(new Date(clockMs + HOLD_MINUTES * 60_000).toISOString());
    await enrollOk(b, section);
    const refused = await enrollIn(c, section);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(SECTION_MESSAGES.full);
    // Nothing was carted for the refused buyer.
    const lines = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.studentId, c.id));
    expect(lines).toEqual([]);
  });

  it('removing a line from the cart frees its seat', async () => {
    const section = await createSection(1);
    const [a, b] = await Promise.all([createCaller(ctx), createCaller(ctx)]);
    const line = await enrollOk(a, section);
    expect((await enrollIn(b, section)).statusCode).toBe(409);
    const removed = await ctx.app.inject({ method: 'DELETE', url: `/api/enrolled/${line}`, headers: a.headers });
    expect(removed.statusCode, removed.body).toBe(200);
    await enrollOk(b, section);
  });

  it('an expired hold is a free seat: the next buyer takes it and the first cannot pay for it', async () => {
    const section = await createSection(1);
    const [a, b] = await Promise.all([createCaller(ctx), createCaller(ctx)]);
    await enrollOk(a, section);
    pastHolds();
    await enrollOk(b, section);
    const intent = await createIntent(ctx, a);
    expect(intent.statusCode).toBe(409);
    expect(intent.json().error.message).toBe(SECTION_MESSAGES.fullWhilePaying);
    expect((await pay(b)).statusCode).toBe(200);
    expect(await paidOf(section)).toBe(1);
  });

  it('creating the payment intent renews the hold, and a buyer whose hold expired pays for a seat still free', async () => {
    const section = await createSection(1);
    const a = await createCaller(ctx);
    const line = await enrollOk(a, section);
    pastHolds();
    const intent = await createIntentOk(ctx, a);
    expect((await holdOf(line))?.getTime()).toBe(clockMs + HOLD_MINUTES * 60_000);
    // The hold runs out again before the card is confirmed: the seat is still nobody else's.
    pastHolds();
    const confirmed = await confirm(ctx, a, intent.clientSecret);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await paidOf(section)).toBe(1);
    expect(await holdOf(line)).toBeNull();
  });

  it('a declined card frees the seat; paying again holds it again', async () => {
    const section = await createSection(1);
    const [a, b] = await Promise.all([createCaller(ctx), createCaller(ctx)]);
    const line = await enrollOk(a, section);
    const intent = await createIntentOk(ctx, a);
    const declined = await confirm(ctx, a, intent.clientSecret, card(CARDS.declined));
    expect(declined.statusCode).toBe(402);
    expect(await holdOf(line)).toBeNull();
    // The seat is free: b carts it, and a's next attempt is refused before any charge.
    await enrollOk(b, section);
    const again = await confirm(ctx, a, intent.clientSecret);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(SECTION_MESSAGES.fullWhilePaying);
    expect((await pay(b)).statusCode).toBe(200);
    expect(await paidOf(section)).toBe(1);
  });

  it('a charge whose hold expired while the section filled up is refunded at once, with a clear message', async () => {
    const section = await createSection(1);
    const [a, b] = await Promise.all([createCaller(ctx), createCaller(ctx)]);
    const line = await enrollOk(a, section);
    const intent = await createIntentOk(ctx, a);
    pastHolds();
    expect((await pay(await enrollThen(b, section))).statusCode).toBe(200);
    // The card is charged at the gateway itself (as Stripe.js confirms in the browser), past the hold.
    const gateway = createTestGateway(ctx.db, now);
    const charged = await gateway.findIntentByClientSecret(intent.clientSecret);
    expect((await gateway.confirmCard(charged!.id, TEST_CARDS.succeeds)).status).toBe('succeeded');
    const recorded = await recordPayment(ctx, a, { transactionId: charged!.id, cartIds: intent.cartIds });
    expect(recorded.statusCode).toBe(409);
    expect(recorded.json().error.message).toBe(PAYMENT_MESSAGES.seatRefunded);
    expect(await paidOf(section)).toBe(1);
    const [line2] = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.id, line));
    expect(line2).toMatchObject({ status: 'pending', paymentId: null, reservedBy: null });
    const [ours] = await ctx.db
      .select({ status: schema.paymentIntents.status })
      .from(schema.paymentIntents)
      .where(eq(schema.paymentIntents.id, charged!.id));
    expect(ours?.status).toBe('refunded');
    // The whole charge went back through the gateway (a full refund), and no payment was written.
    const [atGateway] = await ctx.db
      .select({ refundedAt: schema.testGatewayIntents.refundedAt })
      .from(schema.testGatewayIntents)
      .where(eq(schema.testGatewayIntents.id, charged!.id));
    expect(atGateway?.refundedAt).not.toBeNull();
    const payments = await ctx.db.select().from(schema.payments).where(eq(schema.payments.transactionId, charged!.id));
    expect(payments).toEqual([]);
    const mails = await ctx.db
      .select({ subject: schema.mailOutbox.subject })
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.to, a.email.toLowerCase()));
    expect(mails.some((m) => /refund/i.test(m.subject))).toBe(true);
  });
});

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

describe('the public schedule', () => {
  it('lists upcoming sections with published session times, seats left and deadline, to anyone; never a meeting link', async () => {
    const live = await createClass(ctx, teacher, { title: 'Live sculpture' });
    const section = await createSection(2, live.id);
    const session = await ctx.app.inject({
      method: 'POST',
      url: `/api/classes/${live.id}/sessions`,
      headers: teacher.headers,
      payload: {
        sectionId: section,
        title: 'Clay basics',
        startsAt: '2026-12-07T18:00',
        timeZone: 'Europe/Lisbon',
        durationMinutes: 90,
        meetingUrl: 'https://meet.example.test/secret-room',
        location: '',
      },
    });
    expect(session.statusCode, session.body).toBe(201);
    const schedule = (user: TestUser | null) =>
      ctx.app.inject({ method: 'GET', url: `/api/classes/${live.id}/schedule`, headers: user?.headers ?? {} });
    // A draft session is not shown yet.
    expect((await schedule(null)).json()[0].sessions).toEqual([]);
    const published = await ctx.app.inject({
      method: 'POST',
      url: `/api/class-sessions/${(session.json() as { _id: string })._id}/publish`,
      headers: teacher.headers,
      payload: { published: true },
    });
    expect(published.statusCode, published.body).toBe(200);
    // Permission matrix: anyone reads it, the same for every role.
    const [student, admin] = await Promise.all([createUser(ctx, 'student'), createUser(ctx, 'admin')]);
    for (const user of [null, student, teacher, admin]) {
      const res = await schedule(user);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([
        {
          _id: section,
          timeZone: 'Europe/Lisbon',
          capacity: 2,
          seatsLeft: 2,
          full: false,
          enrollOpensAt: '2026-01-01T09:00:00.000Z',
          enrollClosesAt: '2026-12-01T09:00:00.000Z',
          open: true,
          sessions: [{ title: 'Clay basics', startsAt: '2026-12-07T18:00:00.000Z', durationMinutes: 90 }],
        },
      ]);
      expect(res.body).not.toContain('secret-room');
    }
    // A held seat is taken; a full section says so and cannot be bought.
    const [a, b] = await Promise.all([createCaller(ctx), createCaller(ctx)]);
    expect((await enrollIn(a, section, live.id)).statusCode).toBe(201);
    expect((await schedule(null)).json()[0]).toMatchObject({ seatsLeft: 1, full: false, open: true });
    expect((await enrollIn(b, section, live.id)).statusCode).toBe(201);
    expect((await schedule(null)).json()[0]).toMatchObject({ seatsLeft: 0, full: true, open: false });
    // Holds expire: the seats are free again.
    pastHolds();
    expect((await schedule(null)).json()[0]).toMatchObject({ seatsLeft: 2, full: false });
  });

  it('is a 404 for a class not accepted, an unknown class and an id that is no uuid', async () => {
    const pending = await createClass(ctx, teacher, { status: 'pending' });
    for (const id of [pending.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/classes/${id}/schedule` });
      expect(res.statusCode, id).toBe(404);
    }
  });
});

async function enrollThen(user: Caller, sectionId: string): Promise<Caller> {
  await enrollOk(user, sectionId);
  return user;
}

/**
 * The race of decision 042 on PostgreSQL (npm run test:postgres): 60 buyers, 10 seats, through
 * intent, card and payment at once, with every hold expiring in the middle of the run.
 */
describe('60 buyers racing for 10 seats', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'exactly 10 paid, every other charge refused or refunded, no seat sold twice',
    async () => {
      const SEATS = 10;
      const section = await createSection(SEATS);
      const buyers = await Promise.all(Array.from({ length: 60 }, () => createCaller(ctx)));

      type Outcome = 'paid' | 'refused' | 'refunded';
      type Started = { buyer: Caller; clientSecret: string; cartIds: string[] };

      /** Cart and intent: a started payment, or refused (409) when no seat is free. */
      async function start(buyer: Caller): Promise<Started | 'refused'> {
        const carted = await enrollIn(buyer, section);
        if (carted.statusCode === 409) return 'refused';
        expect([200, 201], carted.body).toContain(carted.statusCode);
        const intent = await createIntent(ctx, buyer);
        if (intent.statusCode === 409) return 'refused';
        expect(intent.statusCode, intent.body).toBe(200);
        const { clientSecret, cartIds } = intent.json() as { clientSecret: string; cartIds: string[] };
        return { buyer, clientSecret, cartIds };
      }

      /** The card form: refused before charging when the seat is gone, else charged and settled. */
      async function payByForm({ buyer, clientSecret, cartIds }: Started): Promise<Outcome> {
        const confirmed = await confirm(ctx, buyer, clientSecret);
        if (confirmed.statusCode === 409) {
          return confirmed.json().error.message === PAYMENT_MESSAGES.seatRefunded ? 'refunded' : 'refused';
        }
        expect(confirmed.statusCode, confirmed.body).toBe(200);
        const { transactionId } = confirmed.json() as { transactionId: string };
        const recorded = await recordPayment(ctx, buyer, { transactionId, cartIds });
        if (recorded.statusCode === 409) return 'refunded';
        expect([200, 201], recorded.body).toContain(recorded.statusCode);
        return 'paid';
      }

      /** Charged at the gateway first (as Stripe.js does in the browser), then recorded. */
      async function payAtGateway({ buyer, clientSecret, cartIds }: Started): Promise<Outcome> {
        const gateway = createTestGateway(ctx.db, now);
        const intent = await gateway.findIntentByClientSecret(clientSecret);
        expect((await gateway.confirmCard(intent!.id, TEST_CARDS.succeeds)).status).toBe('succeeded');
        const recorded = await recordPayment(ctx, buyer, { transactionId: intent!.id, cartIds });
        if (recorded.statusCode === 409) {
          expect(recorded.json().error.message).toBe(PAYMENT_MESSAGES.seatRefunded);
          return 'refunded';
        }
        expect([200, 201], recorded.body).toContain(recorded.statusCode);
        return 'paid';
      }

      async function attempt(buyer: Caller): Promise<Outcome> {
        const started = await start(buyer);
        return started === 'refused' ? 'refused' : payByForm(started);
      }

      // All 60 cart and start paying at once: ten hold every seat, fifty are refused.
      const round1 = await Promise.all(buyers.map(start));
      const holders = round1.filter((r): r is Started => r !== 'refused');
      expect(holders.length).toBe(SEATS);
      // Every hold expires while those ten are still paying...
      pastHolds();
      // ...and they pay (half charged at the gateway before any check) while the fifty try again.
      const waiting = buyers.filter((_, i) => round1[i] === 'refused');
      const round2 = await Promise.all([
        ...holders.map((started, i) => (i % 2 === 0 ? payAtGateway(started) : payByForm(started))),
        ...waiting.map(attempt),
      ]);
      // Whoever was refused tries once more, until the seats left are sold.
      const refused = [...holders.map((h) => h.buyer), ...waiting].filter(
        (_, i) => round2[i] === 'refused' || round2[i] === 'refunded',
      );
      const round3 = await Promise.all(refused.map(attempt));
      console.info('seat race outcomes', { round2: tally(round2), round3: tally(round3) });
      expect([...round2, ...round3].filter((o) => o === 'paid').length).toBe(SEATS);

      const paid = await paidOf(section);
      expect(paid).toBe(SEATS);
      // No student paid twice and no line was paid twice: one paid line per paying student.
      const perStudent = await rawRows<{ student_id: string; n: number }>(
        ctx.db,
        sql`select student_id, count(*)::int as n from enrollments
            where section_id = ${section} and status = 'paid' group by student_id having count(*) > 1`,
      );
      expect(perStudent).toEqual([]);
      // Money: every charge made is the payment of a seat or was refunded in full at the gateway.
      const charged = await rawRows<{ id: string; amount_cents: number; refunded: boolean; paid: boolean }>(
        ctx.db,
        sql`select i.id, i.amount_cents, i.refunded_at is not null as refunded,
              exists (select 1 from payments p where p.transaction_id = i.id) as paid
            from test_gateway_intents i
            where i.status = 'succeeded' and i.customer_ref in (${sql.join(
              buyers.map((b) => sql`${b.id}`),
              sql`, `,
            )})`,
      );
      expect(charged.filter((c) => c.paid).length).toBe(SEATS);
      for (const charge of charged) expect(charge.paid !== charge.refunded, charge.id).toBe(true);
      const [sum] = await rawRows<{ cents: number }>(
        ctx.db,
        sql`select coalesce(sum(p.amount_cents), 0)::int as cents from payments p
            join enrollments e on e.payment_id = p.id where e.section_id = ${section}`,
      );
      expect(sum?.cents).toBe(SEATS * cls.priceCents);
      // Nobody holds a seat past the run's paid ones: holds live only on pending lines.
      const heldOnPaid = await ctx.db
        .select({ id: schema.enrollments.id })
        .from(schema.enrollments)
        .where(and(eq(schema.enrollments.status, 'paid'), isNotNull(schema.enrollments.seatHeldUntil)));
      expect(heldOnPaid).toEqual([]);

      // The section is full: latecomers join its waiting list, all at once (decision 051).
      pastHolds();
      const latecomers = await Promise.all(Array.from({ length: 12 }, () => createCaller(ctx)));
      const joined = await Promise.all(
        latecomers.map((person) =>
          ctx.app.inject({ method: 'POST', url: `/api/sections/${section}/waitlist`, headers: person.headers }),
        ),
      );
      for (const res of joined) expect(res.statusCode, res.body).toBe(201);
      const positions = joined.map((res) => (res.json() as { position: number }).position);
      expect([...positions].sort((a, b) => a - b)).toEqual(latecomers.map((_, i) => i + 1));
      // The order they joined in, as the database recorded it.
      const order = await rawRows<{ user_id: string }>(
        ctx.db,
        sql`select user_id from waitlist_entries where section_id = ${section} order by seq`,
      );
      // Three paid seats are refunded at once, while the job runs twice: three offers, to the first three.
      const paidLines = await rawRows<{ payment_id: string; id: string }>(
        ctx.db,
        sql`select payment_id, id from enrollments where section_id = ${section} and status = 'paid' limit 3`,
      );
      const admin = await createUser(ctx, 'admin');
      const refunds = await Promise.all([
        ...paidLines.map((line) =>
          ctx.app.inject({
            method: 'POST',
            url: `/api/admin/payments/${line.payment_id}/refunds`,
            headers: admin.headers,
            payload: { enrollmentId: line.id, reason: 'Cannot attend' },
          }),
        ),
        ctx.waitlistJob.runOnce(),
        ctx.waitlistJob.runOnce(),
      ]);
      for (const res of refunds.slice(0, 3)) expect((res as { statusCode: number }).statusCode).toBe(200);
      await ctx.waitlistJob.runOnce();
      const offered = await rawRows<{ user_id: string }>(
        ctx.db,
        sql`select user_id from waitlist_entries where section_id = ${section} and status = 'offered' order by seq`,
      );
      expect(offered.map((row) => row.user_id)).toEqual(order.slice(0, 3).map((row) => row.user_id));
      const offerMails = await rawRows<{ n: number }>(
        ctx.db,
        sql`select count(*)::int as n from mail_outbox where kind = 'waitlist-offer' and to_address in (${sql.join(
          latecomers.map((person) => sql`${person.email.toLowerCase()}`),
          sql`, `,
        )})`,
      );
      expect(offerMails[0]?.n).toBe(3);
      // The fourth in line, and anyone else, still finds the section full.
      const fourth = latecomers.find((person) => person.id === order[3]!.user_id)!;
      expect((await enrollIn(fourth, section)).statusCode).toBe(409);
    },
    240_000,
  );
});
