/**
 * `npm run chaos`: money under crashes (decision 010). Buyers pay for carts through the built
 * server (apps/server/dist/server.js) while it is killed with SIGKILL and restarted, on PGlite and
 * on PostgreSQL; then the books are checked straight in the database:
 *
 * - every payment the API acknowledged (a confirm that answered `succeeded`, a recorded payment
 *   id) is there, once;
 * - after the reconciler's interval, no charge succeeded at the gateway without a payment or a
 *   refund;
 * - no enrollment is paid twice, and the payments add up to the paid lines to the cent.
 *
 * Loopback only, bounded in time: CHAOS_SECONDS (default 40) of load per database, CHAOS_BUYERS
 * (default 12) concurrent buyers, a kill every CHAOS_KILL_EVERY_MS (default 5000). CHAOS_PG_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres) names a server where a database of its
 * own is created and dropped; CHAOS_ONLY=pglite|postgres runs one of them.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from '../apps/server/src/db/client.ts';
import pg from 'pg';
import {
  HOST,
  cleanupAll,
  freePort,
  onCleanup,
  randomSecret,
  startServer,
  stopProcess,
  tempDir,
  type RunningServer,
} from './procs.ts';
import { startMailCatcher } from '../scripts/mail-catcher.ts';

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 40);
const BUYERS = Number(process.env.CHAOS_BUYERS ?? 12);
const KILL_EVERY_MS = Number(process.env.CHAOS_KILL_EVERY_MS ?? 5_000);
const RECONCILE_SECONDS = 2;
const PG_URL = process.env.CHAOS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ONLY = process.env.CHAOS_ONLY;

type Query = (sqlText: string) => Promise<Record<string, unknown>[]>;

interface Figures {
  database: string;
  seconds: number;
  buyers: number;
  kills: number;
  /** Buyer requests that failed because the server was down (retried). */
  refusedRequests: number;
  acknowledgedCharges: number;
  acknowledgedPayments: number;
  payments: number;
  refunds: number;
  missingAcknowledged: number;
  chargesWithoutPayment: number;
  linesPaidTwice: number;
  booksOffByCents: number;
  restartMsMax: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runDatabase(kind: 'pglite' | 'postgres'): Promise<Figures> {
  const dir = tempDir(`chaos-${kind}`);
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const name = `skillhive_chaos_${randomBytes(4).toString('hex')}`;
    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };
    await admin(`create database "${name}"`);
    onCleanup(() => admin(`drop database if exists "${name}" with (force)`));
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const port = await freePort();
  const authSecret = randomSecret();
  const origin = `http://${HOST}:${port}`;
  let restartMsMax = 0;
  // A real SMTP server: each buyer verifies its address from the mail before it can pay.
  const mail = await startMailCatcher();
  onCleanup(() => mail.close());
  const start = async (): Promise<RunningServer> => {
    const server = await startServer({
      port,
      dataDir,
      databaseUrl,
      authSecret,
      seed: true,
      logFile: path.join(dir, 'server.log'),
      extraEnv: {
        RECONCILE_INTERVAL_SECONDS: String(RECONCILE_SECONDS),
        RATE_LIMIT_AUTH_PER_MINUTE: '100000',
        RATE_LIMIT_TOKENS_PER_MINUTE: '100000',
        SMTP_URL: mail.url,
        MAIL_WORKER_INTERVAL_MS: '200',
      },
    });
    restartMsMax = Math.max(restartMsMax, Math.round(server.readyMs));
    return server;
  };
  let server = await start();

  let refused = 0;
  /** One API call; while the server is down it is retried (a connection refused is not an answer). */
  async function call(method: string, url: string, headers: Record<string, string>, body?: unknown) {
    for (;;) {
      try {
        const res = await fetch(`${origin}${url}`, {
          method,
          headers: { origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await res.text();
        return { status: res.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
      } catch {
        refused += 1;
        await sleep(200);
      }
    }
  }

  const classes = (await call('GET', '/api/classes?limit=24', {})).json as unknown as { _id: string }[];
  if (!Array.isArray(classes) || classes.length < 4) throw new Error('chaos: the seeded catalogue is missing');

  const acknowledgedCharges = new Set<string>();
  const acknowledgedPayments = new Set<string>();
  const deadline = performance.now() + SECONDS * 1000;

  async function buyer(index: number): Promise<void> {
    const email = `chaos-${index}-${randomBytes(3).toString('hex')}@example.test`;
    const password = 'Chaos!Pass1';
    const signUp = await call(
      'POST',
      '/api/auth/sign-up/email',
      {},
      {
        name: `Chaos Buyer ${index}`,
        email,
        password,
        phone: '+1 555-0100-123',
        image: '/images/avatar-default.svg',
      },
    );
    if (signUp.status !== 200) {
      // A kill after the account was stored: sign in instead.
      const signIn = await call('POST', '/api/auth/sign-in/email', {}, { email, password });
      if (signIn.status !== 200) throw new Error(`chaos: buyer ${index} cannot sign in (${signIn.status})`);
    }
    // The verification mail; a kill between the account and its mail loses that mail, so ask again.
    let link = await mail.linkIn(email, 'Verify your e-mail address', 15_000).catch(() => null);
    if (!link) {
      await call('POST', '/api/auth/send-verification-email', {}, { email });
      link = await mail.linkIn(email, 'Verify your e-mail address', 30_000);
    }
    await call('GET', link.pathname + link.search, {});
    // A Bearer token as the web app uses; the session cookie is not kept by fetch.
    const login = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    }).catch(() => null);
    const cookie = (login?.headers.getSetCookie() ?? []).map((c) => c.split(';')[0]).join('; ');
    const jwt = await call('POST', '/api/jwt', { cookie }, { email });
    const auth = { authorization: `Bearer ${String(jwt.json?.token)}` };
    let n = index;
    while (performance.now() < deadline) {
      n += 7;
      for (let k = 0; k < 1 + (n % 3); k++) {
        await call('POST', '/api/enrolled', auth, { enrollId: classes[(n * 5 + k * 3) % classes.length]!._id });
      }
      const intent = await call('POST', '/api/create-payment-intent', auth, {});
      if (intent.status === 409) continue; // everything chosen is paid already
      if (intent.status !== 200 || !intent.json) continue;
      const confirmed = await call('POST', '/api/test-gateway/confirm', auth, {
        clientSecret: intent.json.clientSecret,
        cardNumber: '4242424242424242',
        expMonth: 12,
        expYear: 2034,
        cvc: '123',
      });
      if (confirmed.status !== 200 || confirmed.json?.status !== 'succeeded') continue;
      const transactionId = String(confirmed.json.transactionId);
      acknowledgedCharges.add(transactionId);
      const recorded = await call('POST', '/api/payments', auth, { transactionId, cartIds: intent.json.cartIds });
      const insertedId = (recorded.json?.paymentResult as { insertedId?: string } | undefined)?.insertedId;
      if (insertedId) acknowledgedPayments.add(insertedId);
    }
  }

  let kills = 0;
  const killer = (async () => {
    while (performance.now() + KILL_EVERY_MS < deadline) {
      await sleep(KILL_EVERY_MS);
      server.spawned.child.kill('SIGKILL');
      await new Promise((resolve) => server.spawned.child.once('exit', resolve));
      kills += 1;
      server = await start();
    }
  })();
  await Promise.all([killer, ...Array.from({ length: BUYERS }, (_, i) => buyer(i))]);

  // Let the reconciler pass over everything the kills left behind, then read the books.
  await sleep(RECONCILE_SECONDS * 3 * 1000);
  await stopProcess(server.spawned.child);

  let query: Query;
  let close: () => Promise<void>;
  if (kind === 'postgres') {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    query = async (text) => (await client.query(text)).rows as Record<string, unknown>[];
    close = () => client.end();
  } else {
    const db = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: PGLITE_EXTENSIONS });
    query = async (text) => (await db.query<Record<string, unknown>>(text)).rows;
    close = () => db.close();
  }
  try {
    const list = (ids: Set<string>) => [...ids].map((id) => `'${id.replaceAll("'", "''")}'`).join(',') || `''`;
    const [missingCharges] = await query(`
      select count(*)::int as n from (select unnest(array[${list(acknowledgedCharges)}]) as id) a
      where (select count(*) from payments p where p.transaction_id = a.id) <> 1`);
    const [missingPayments] = await query(`
      select count(*)::int as n from (select unnest(array[${list(acknowledgedPayments)}]::text[]) as id) a
      where not exists (select 1 from payments p where p.id::text = a.id)`);
    const [unsettled] = await query(`
      select count(*)::int as n from test_gateway_intents t
      where t.status = 'succeeded' and t.refunded_at is null
        and not exists (select 1 from payments p where p.transaction_id = t.id)`);
    const [twice] = await query(`
      select count(*)::int as n from (select unnest(cart_ids) as id from payments) l
      group by id having count(*) > 1`);
    const [books] = await query(`
      select (select coalesce(sum(amount_cents), 0) from payments)::bigint
           - (select coalesce(sum(paid_cents), 0) from enrollments where status = 'paid')::bigint as diff,
             (select count(*) from payments)::int as payments,
             (select count(*) from test_gateway_intents where refunded_at is not null)::int as refunds`);
    return {
      database: kind === 'postgres' ? 'PostgreSQL' : 'PGlite',
      seconds: SECONDS,
      buyers: BUYERS,
      kills,
      refusedRequests: refused,
      acknowledgedCharges: acknowledgedCharges.size,
      acknowledgedPayments: acknowledgedPayments.size,
      payments: Number(books?.payments ?? 0),
      refunds: Number(books?.refunds ?? 0),
      missingAcknowledged: Number(missingCharges?.n ?? 0) + Number(missingPayments?.n ?? 0),
      chargesWithoutPayment: Number(unsettled?.n ?? 0),
      linesPaidTwice: Number(twice?.n ?? 0),
      booksOffByCents: Math.abs(Number(books?.diff ?? 0)),
      restartMsMax,
    };
  } finally {
    await close();
  }
}

async function main() {
  const results: Figures[] = [];
  const kinds = (['pglite', 'postgres'] as const).filter((k) => !ONLY || ONLY === k);
  try {
    for (const kind of kinds) {
      console.log(`chaos: ${kind}, ${BUYERS} buyers for ${SECONDS} s, SIGKILL every ${KILL_EVERY_MS} ms`);
      results.push(await runDatabase(kind));
      console.log(JSON.stringify(results.at(-1)));
    }
  } finally {
    await cleanupAll();
  }
  const failed = results.filter(
    (r) => r.missingAcknowledged > 0 || r.chargesWithoutPayment > 0 || r.linesPaidTwice > 0 || r.booksOffByCents > 0,
  );
  console.log(
    '\n| database | s | buyers | kills | acked charges | acked payments | payments | refunds | missing | unsettled charges | paid twice | books off (¢) | slowest restart (ms) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.database} | ${r.seconds} | ${r.buyers} | ${r.kills} | ${r.acknowledgedCharges} | ${r.acknowledgedPayments} | ${r.payments} | ${r.refunds} | ${r.missingAcknowledged} | ${r.chargesWithoutPayment} | ${r.linesPaidTwice} | ${r.booksOffByCents} | ${r.restartMsMax} |`,
    );
  }
  console.log(failed.length === 0 ? '\nchaos: the books balance' : '\nchaos: FAILED');
  process.exitCode = failed.length === 0 ? 0 : 1;
}

await main();
