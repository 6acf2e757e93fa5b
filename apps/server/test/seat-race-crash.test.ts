import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { TEST_CARDS, createTestGateway } from '../src/modules/gateways/test-gateway.ts';
import {
  FAST_SIGNUP_ENV,
  card,
  createCaller,
  createClass,
  insertStudents,
  type Caller,
  type TestClass,
} from './commerce-fixtures.ts';
import { freePort, sleep, spawnServer, waitFor, waitReady, type ServerProcess } from './fault-helpers.ts';
import { createTestApp, rawRows, type TestContext } from './harness.ts';

/**
 * The race of decision 042 and the queue of decision 051 across two real server processes
 * (`node src/server.ts`, PAYMENTS_GATEWAY=test) on one PostgreSQL database, with one of them
 * killed (SIGKILL) while requests are in flight: 60 buyers race for 10 seats through cart, intent,
 * the test gateway's card form and POST /api/payments, over HTTP, spread across both instances; a
 * request that died with the killed instance is sent again to the other one, as a load balancer's
 * client retries it (every step is safe to repeat: carting answers the existing line, an intent for
 * the same cart is answered again, confirming a charged intent records it, recording twice
 * answers the same payment).
 *
 * A spawned server has the machine's clock, so time passing is written where it shows: seat holds
 * are moved into the past in SQL (`enrollments.seat_held_until`), twice during the run.
 *
 * Charges cut short: two buyers were charged at the gateway itself (as Stripe.js charges in the
 * browser) the moment the instance froze, and their recording was on its way to it when it was
 * killed; they closed the tab. Only instance A reconciles (RECONCILE_INTERVAL_SECONDS=1; B has it
 * off), so those charges stay open until A is started again and its reconciler settles them — paid
 * or refunded in full (decision 010). Then latecomers queue for the full section, three seats are
 * refunded at once, and the waitlist job (both instances, every second) offers them in joining order.
 *
 * PostgreSQL only (npm run test:postgres): a database of its own on TEST_DATABASE_URL's server.
 */
const AUTH_SECRET = 'test-secret-that-is-long-enough-1234567890';
const SEATS = 10;
const BUYERS = 60;
const PRICE_CENTS = 2500;

let ctx: TestContext;
let databaseUrl: string;
const tempDirs: string[] = [];
const running = new Set<ServerProcess>();

/** Thrown for a request that never got an answer: its instance died with it in flight. */
class Unanswered extends Error {}

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

async function call(
  server: ServerProcess,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  who: Pick<Caller, 'headers'> | null,
  body?: unknown,
): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${server.origin}${url}`, {
      method,
      headers: {
        ...(who?.headers ?? {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new Unanswered(`${method} ${url} on :${server.port}: ${String(error)}`);
  }
  const text = await res.text().catch((error: unknown) => {
    throw new Unanswered(`${method} ${url} on :${server.port}: ${String(error)}`);
  });
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, text };
}

const errorMessage = (answer: Answer) => (answer.body as { error?: { message?: string } }).error?.message;

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

/** A section's start and end of enrollment as the form takes them: wall-clock minutes in its zone. */
function localMinute(date: Date): string {
  return date.toISOString().slice(0, 16);
}

function startServer(port: number, env: Record<string, string>): ServerProcess {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-seat-crash-'));
  tempDirs.push(dataDir);
  const server = spawnServer(port, {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    AUTH_SECRET,
    PAYMENTS_GATEWAY: 'test',
    SEAT_HOLD_MINUTES: '15',
    WAITLIST_INTERVAL_SECONDS: '1',
    PAYOUT_JOB_INTERVAL_SECONDS: '0',
    SECTION_CANCEL_INTERVAL_SECONDS: '0',
    CATALOGUE_CACHE_TTL_SECONDS: '0',
    ...FAST_SIGNUP_ENV,
    ...env,
  });
  running.add(server);
  void server.exited.then(() => running.delete(server));
  return server;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('60 buyers racing for 10 seats on two instances, one killed', () => {
  beforeAll(async () => {
    ctx = await createTestApp({ ...FAST_SIGNUP_ENV });
    const [row] = await rawRows<{ name: string }>(ctx.db, sql`select current_database() as name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${row!.name}`;
    databaseUrl = url.toString();
  }, 120_000);

  afterAll(async () => {
    for (const server of running) server.child.kill('SIGKILL');
    await Promise.all([...running].map((s) => s.exited));
    await ctx?.close();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('exactly 10 paid, every charge paid or refunded in full (the cut-short ones by the restarted reconciler), offers in joining order', async () => {
    // --- Set-up: a teacher, an admin and their class in this process; 60 buyers and 12 latecomers.
    const teacher = await createCaller(ctx, 'teacher');
    const admin = await createCaller(ctx, 'admin');
    const cls: TestClass = await createClass(ctx, teacher, { title: 'Live glassblowing', priceCents: PRICE_CENTS });
    const buyers = await insertStudents(ctx, BUYERS, AUTH_SECRET);
    const latecomers = await insertStudents(ctx, 12, AUTH_SECRET);

    // --- Two instances: A reconciles every second, B never (so only A can settle what A left).
    const portA = await freePort();
    let a = startServer(portA, { RECONCILE_INTERVAL_SECONDS: '1' });
    const b = startServer(await freePort(), { RECONCILE_INTERVAL_SECONDS: '0' });
    await Promise.all([waitReady(a, 60_000), waitReady(b, 60_000)]);
    let aDown = false;
    /** The load balancer: A while it is up, else B. */
    const route = (preferred: 'a' | 'b') => (preferred === 'a' && !aDown ? a : b);

    /** Sends to `preferred`; a request that died with A is sent again to B, once. */
    async function send(
      preferred: 'a' | 'b',
      method: 'GET' | 'POST' | 'DELETE',
      url: string,
      who: Pick<Caller, 'headers'> | null,
      body?: unknown,
    ): Promise<Answer> {
      const server = route(preferred);
      try {
        return await call(server, method, url, who, body);
      } catch (error) {
        if (!(error instanceof Unanswered) || server !== a || !aDown) throw error;
        diedInFlight += 1;
        return call(b, method, url, who, body);
      }
    }
    let diedInFlight = 0;

    // The teacher opens a section of 10 seats over HTTP.
    const opened = await call(b, 'POST', `/api/classes/${cls.id}/sections`, teacher, {
      timeZone: 'UTC',
      capacity: SEATS,
      minimum: '',
      enrollOpensAt: localMinute(new Date(Date.now() - 24 * 3_600_000)),
      enrollClosesAt: localMinute(new Date(Date.now() + 60 * 24 * 3_600_000)),
    });
    expect(opened.status, opened.text).toBe(201);
    const section = (opened.body as { _id: string })._id;

    /** Time passing, as the database sees it: every live seat hold of the section runs out. */
    const expireHolds = () =>
      ctx.db.execute(
        sql`update enrollments set seat_held_until = now() - interval '1 minute'
            where section_id = ${section} and seat_held_until is not null`,
      );

    type Outcome = 'paid' | 'refused' | 'refunded' | 'cut short';
    type Started = { buyer: Caller; via: 'a' | 'b'; clientSecret: string; cartIds: string[] };

    /** Cart and intent: a started payment, or refused (409) when no seat is free. */
    async function start(buyer: Caller, via: 'a' | 'b'): Promise<Started | 'refused'> {
      const carted = await send(via, 'POST', '/api/enrolled', buyer, { enrollId: cls.id, sectionId: section });
      if (carted.status === 409) return 'refused';
      expect([200, 201], carted.text).toContain(carted.status);
      const intent = await send(via, 'POST', '/api/create-payment-intent', buyer, {});
      if (intent.status === 409) return 'refused';
      expect(intent.status, intent.text).toBe(200);
      const { clientSecret, cartIds } = intent.body as { clientSecret: string; cartIds: string[] };
      return { buyer, via, clientSecret, cartIds };
    }

    async function record({ buyer, via, cartIds }: Started, transactionId: string): Promise<Outcome> {
      const recorded = await send(via, 'POST', '/api/payments', buyer, { transactionId, cartIds });
      if (recorded.status === 409) {
        expect(errorMessage(recorded), recorded.text).toBe(PAYMENT_MESSAGES.seatRefunded);
        return 'refunded';
      }
      expect([200, 201], recorded.text).toContain(recorded.status);
      return 'paid';
    }

    let confirmsAnswered = 0;
    let onConfirmed: () => void = () => {};
    /** The card form: refused before charging when the seat is gone, else charged and settled. */
    async function payByForm(started: Started): Promise<Outcome> {
      const confirmed = await send(started.via, 'POST', '/api/test-gateway/confirm', started.buyer, {
        clientSecret: started.clientSecret,
        ...card(),
      });
      confirmsAnswered += 1;
      onConfirmed();
      if (confirmed.status === 409) {
        return errorMessage(confirmed) === PAYMENT_MESSAGES.seatRefunded ? 'refunded' : 'refused';
      }
      expect(confirmed.status, confirmed.text).toBe(200);
      return record(started, (confirmed.body as { transactionId: string }).transactionId);
    }

    const gateway = createTestGateway(ctx.db);
    /** Charged at the gateway first (Stripe.js in the browser: no check of ours), then recorded. */
    async function chargeAtGateway(clientSecret: string): Promise<string> {
      const intent = await gateway.findIntentByClientSecret(clientSecret);
      expect((await gateway.confirmCard(intent!.id, TEST_CARDS.succeeds)).status).toBe('succeeded');
      return intent!.id;
    }

    async function attempt(buyer: Caller, via: 'a' | 'b'): Promise<Outcome> {
      const started = await start(buyer, via);
      return started === 'refused' ? 'refused' : payByForm(started);
    }

    // --- Round 1: all 60 cart and start paying at once, spread over A and B: ten hold every seat.
    const round1 = await Promise.all(buyers.map((buyer, i) => start(buyer, i % 2 === 0 ? 'a' : 'b')));
    const holders = round1.filter((r): r is Started => r !== 'refused');
    expect(holders.length).toBe(SEATS);
    const waiting = buyers.filter((_, i) => round1[i] === 'refused');

    // Every hold runs out while those ten are still paying.
    await expireHolds();

    // --- Round 2: the ten pay while the fifty try again; A is frozen and killed once three card
    // confirmations were answered (the four holders paying by the form make sure there are three),
    // while the fifty are carting and starting to pay on both. Holders 0 and 1 close their tab:
    // they are charged at the gateway while A is frozen, and their recording, sent to A, dies with it.
    const closedTab = holders.slice(0, 2).map((h) => ({ ...h, via: 'a' as const }));
    const payers = holders.slice(2).map((h, i) => ({ ...h, via: i < 4 ? ('a' as const) : ('b' as const) }));
    let crashed!: Promise<void>;
    const cutShort: string[] = [];
    const closedTabOutcomes: Promise<Outcome>[] = [];
    const crash = async () => {
      a.child.kill('SIGSTOP');
      for (const buyer of closedTab) {
        const transactionId = await chargeAtGateway(buyer.clientSecret);
        cutShort.push(transactionId);
        closedTabOutcomes.push(
          call(a, 'POST', '/api/payments', buyer.buyer, { transactionId, cartIds: buyer.cartIds }).then(
            () => {
              throw new Error('a frozen instance answered');
            },
            (error: unknown) => {
              if (!(error instanceof Unanswered)) throw error;
              return 'cut short' as const;
            },
          ),
        );
      }
      // Whatever reached A meanwhile (and whatever it was doing) dies with it.
      await sleep(300);
      aDown = true;
      a.child.kill('SIGKILL');
      await a.exited;
      // Time passes again: holds taken before the crash run out while B serves everyone.
      await expireHolds();
    };
    onConfirmed = () => {
      if (confirmsAnswered === 3) crashed = crash();
    };
    const round2 = await Promise.all([
      ...payers.map((started, i) =>
        i % 2 === 0 ? chargeAtGateway(started.clientSecret).then((id) => record(started, id)) : payByForm(started),
      ),
      ...waiting.map((buyer, i) => attempt(buyer, i % 2 === 0 ? 'a' : 'b')),
    ]);
    await crashed;
    expect(aDown).toBe(true);
    expect(await Promise.all(closedTabOutcomes)).toEqual(['cut short', 'cut short']);

    // The two charges are taken at the gateway and not settled: nobody came back, and B does not reconcile.
    const statusOf = (ids: string[]) =>
      rawRows<{ id: string; status: string }>(
        ctx.db,
        sql`select id, status from payment_intents where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) order by id`,
      );
    expect((await statusOf(cutShort)).map((r) => r.status)).toEqual(['open', 'open']);

    // --- A is started again where its clients look. A claim its reconciler held when it died
    // lapses after the 5-minute lease (decision 010): that time passes in SQL too.
    await ctx.db.execute(
      sql`update payment_intents set lease_until = now() - interval '1 second' where lease_until is not null`,
    );
    a = startServer(portA, { RECONCILE_INTERVAL_SECONDS: '1' });
    await waitReady(a, 60_000);
    aDown = false;
    await waitFor(
      async () => (await statusOf(cutShort)).every((r) => r.status === 'succeeded' || r.status === 'refunded'),
      30_000,
      'the restarted reconciler to settle the charges cut short',
    );

    // --- Whoever was refused tries again, on both instances, until the seats left are sold.
    const paidCount = async () => {
      const [row] = await rawRows<{ n: number }>(
        ctx.db,
        sql`select count(*)::int as n from enrollments where section_id = ${section} and status = 'paid'`,
      );
      return row!.n;
    };
    const later: Outcome[] = [];
    for (let round = 0; round < 4 && (await paidCount()) < SEATS; round++) {
      const paidIds = new Set(
        (
          await rawRows<{ student_id: string }>(
            ctx.db,
            sql`select student_id from enrollments where section_id = ${section} and status = 'paid'`,
          )
        ).map((r) => r.student_id),
      );
      await expireHolds();
      const again = buyers.filter((buyer) => !paidIds.has(buyer.id));
      later.push(...(await Promise.all(again.map((buyer, i) => attempt(buyer, i % 2 === 0 ? 'a' : 'b')))));
    }
    console.info('seat race across instances', {
      round2: tally(round2),
      later: tally(later),
      diedInFlight,
      cutShort: (await statusOf(cutShort)).map((r) => r.status),
    });

    // --- Exactly 10 paid, nobody twice, every charge a seat's payment or refunded in full.
    expect(await paidCount()).toBe(SEATS);
    const perStudent = await rawRows<{ student_id: string; n: number }>(
      ctx.db,
      sql`select student_id, count(*)::int as n from enrollments
          where section_id = ${section} and status = 'paid' group by student_id having count(*) > 1`,
    );
    expect(perStudent).toEqual([]);
    const charged = await rawRows<{
      id: string;
      amount_cents: number;
      refunded: boolean;
      paid: boolean;
      ours: string | null;
    }>(
      ctx.db,
      sql`select i.id, i.amount_cents, i.refunded_at is not null as refunded,
            exists (select 1 from payments p where p.transaction_id = i.id) as paid,
            (select status from payment_intents o where o.id = i.id) as ours
          from test_gateway_intents i
          where i.status = 'succeeded' and i.customer_ref in (${sql.join(
            buyers.map((buyer) => sql`${buyer.id}`),
            sql`, `,
          )})`,
    );
    expect(charged.filter((c) => c.paid).length).toBe(SEATS);
    // Every charge settled: a payment of a seat or refunded in full, never both, never neither.
    for (const charge of charged) {
      expect({ id: charge.id, settled: charge.paid !== charge.refunded }).toEqual({ id: charge.id, settled: true });
      expect({ id: charge.id, ours: charge.ours }).toEqual({
        id: charge.id,
        ours: charge.paid ? 'succeeded' : 'refunded',
      });
      expect(charge.amount_cents).toBe(PRICE_CENTS);
    }
    expect(charged.map((c) => c.id)).toEqual(expect.arrayContaining(cutShort));
    // To the cent: the section's payments are its seats, and only refunded charges went back.
    const [sums] = await rawRows<{ paid: number; refunded: number; charged: number }>(
      ctx.db,
      sql`select
            (select coalesce(sum(p.amount_cents), 0)::int from payments p
              join enrollments e on e.payment_id = p.id where e.section_id = ${section}) as paid,
            (select coalesce(sum(amount_cents), 0)::int from test_gateway_intents
              where status = 'succeeded' and refunded_at is not null and id in (${sql.join(
                charged.map((c) => sql`${c.id}`),
                sql`, `,
              )})) as refunded,
            ${charged.reduce((sum, c) => sum + c.amount_cents, 0)}::int as charged`,
    );
    expect(sums!.paid).toBe(SEATS * PRICE_CENTS);
    expect(sums!.charged - sums!.refunded).toBe(sums!.paid);
    // No paid line keeps a seat hold; no intent is left open with a charge behind it.
    const heldOnPaid = await rawRows(
      ctx.db,
      sql`select id from enrollments where status = 'paid' and seat_held_until is not null`,
    );
    expect(heldOnPaid).toEqual([]);

    // --- The section is full: latecomers join its waiting list one after another, on both instances.
    for (const [i, person] of latecomers.entries()) {
      const joined = await call(i % 2 === 0 ? a : b, 'POST', `/api/sections/${section}/waitlist`, person);
      expect(joined.status, joined.text).toBe(201);
      expect((joined.body as { position: number }).position).toBe(i + 1);
    }
    const order = await rawRows<{ user_id: string }>(
      ctx.db,
      sql`select user_id from waitlist_entries where section_id = ${section} order by seq`,
    );
    expect(order.map((r) => r.user_id)).toEqual(latecomers.map((p) => p.id));

    // Three paid seats are refunded at once, on both instances, while both waitlist jobs run.
    const paidLines = await rawRows<{ payment_id: string; id: string }>(
      ctx.db,
      sql`select payment_id, id from enrollments where section_id = ${section} and status = 'paid' limit 3`,
    );
    const refunds = await Promise.all(
      paidLines.map((line, i) =>
        call(i % 2 === 0 ? a : b, 'POST', `/api/admin/payments/${line.payment_id}/refunds`, admin, {
          enrollmentId: line.id,
          reason: 'Cannot attend',
        }),
      ),
    );
    for (const res of refunds) expect(res.status, res.text).toBe(200);
    const offered = () =>
      rawRows<{ user_id: string }>(
        ctx.db,
        sql`select user_id from waitlist_entries where section_id = ${section} and status = 'offered' order by seq`,
      );
    await waitFor(async () => (await offered()).length >= 3, 20_000, 'three offers');
    // A few more passes of both jobs: still exactly three offers, to the first three who joined.
    await sleep(2_500);
    expect((await offered()).map((r) => r.user_id)).toEqual(latecomers.slice(0, 3).map((p) => p.id));
    const [mails] = await rawRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from mail_outbox where kind = 'waitlist-offer' and to_address in (${sql.join(
        latecomers.map((person) => sql`${person.email.toLowerCase()}`),
        sql`, `,
      )})`,
    );
    expect(mails!.n).toBe(3);
    // The fourth in line still finds the section full; the first claims the seat offered.
    const fourth = await call(b, 'POST', '/api/enrolled', latecomers[3]!, { enrollId: cls.id, sectionId: section });
    expect(fourth.status, fourth.text).toBe(409);
    const first = await call(a, 'POST', '/api/enrolled', latecomers[0]!, { enrollId: cls.id, sectionId: section });
    expect(first.status, first.text).toBe(201);
  }, 150_000);
});
