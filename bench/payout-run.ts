/**
 * A payout run over many teachers' balances (decision 040): a fresh PostgreSQL database, N
 * teachers each with one released share of one payment and a connected account at the built-in
 * test gateway, then one `runPayouts` pass — a decision transaction and a transfer per teacher —
 * timed. The books are checked afterwards: every balance paid, one transfer per teacher.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/payout-run.ts [teachers=10000]
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { createTestGateway } from '../apps/server/src/modules/gateways/test-gateway.ts';
import { runPayouts } from '../apps/server/src/modules/earnings/payouts.ts';

const teachers = Number(process.argv[2] ?? 10_000);
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `skillhive_bench_payouts_${randomBytes(4).toString('hex')}`;

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

await admin((c) => c.query(`create database "${name}"`));
const target = new URL(url);
target.pathname = `/${name}`;
const database = await openPostgres(target.toString(), 5);
try {
  await database.migrate();
  const db = database.db;
  const now = new Date();
  const seeded = performance.now();
  // One payment, line, released share, balance and enabled account per teacher, in set-based SQL.
  await db.execute(sql`
    insert into test_gateway_intents (id, client_secret, amount_cents, currency, customer_ref, metadata, status)
      select 'pi_bench_' || g, 'pi_bench_' || g || '_secret', 5000, 'usd', 's' || g, '{}'::jsonb, 'succeeded'
      from generate_series(1, ${teachers}) g`);
  await db.execute(sql`
    insert into earning_lines (id, enrollment_id, payment_id, transaction_id, teacher_id, class_id, title,
        student_initials, currency, list_cents, discount_cents, gross_cents, fee_cents, share_cents,
        fee_basis_points, paid_at)
      select gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'pi_bench_' || g, 't' || lpad(g::text, 6, '0'),
        gen_random_uuid(), 'Class ' || g, 'A. B.', 'usd', 5000, 0, 5000, 1000, 4000, 2000, ${now}
      from generate_series(1, ${teachers}) g`);
  await db.execute(sql`
    insert into earning_tranches (line_id, teacher_id, amount_cents, due_at, state, released_at)
      select id, teacher_id, 4000, ${now}, 'released', ${now} from earning_lines`);
  await db.execute(sql`
    insert into ledger_entries (teacher_id, kind, line_id, pending_cents, available_cents, created_at)
      select teacher_id, 'share', id, 4000, 0, ${now}::timestamptz from earning_lines
      union all select teacher_id, 'release', id, -4000, 4000, ${now}::timestamptz from earning_lines`);
  await db.execute(sql`
    insert into teacher_balances (teacher_id, available_cents, shares_cents)
      select teacher_id, 4000, 4000 from earning_lines`);
  await db.execute(sql`
    insert into test_gateway_accounts (id, owner_ref, payouts_enabled)
      select 'acct_test_' || teacher_id, teacher_id, 'true' from earning_lines`);
  await db.execute(sql`
    insert into connected_accounts (teacher_id, gateway, account_id, payouts_enabled, details_submitted)
      select teacher_id, 'test', 'acct_test_' || teacher_id, 1, 1 from earning_lines`);
  await db.execute(sql`analyze`);
  const seedMs = performance.now() - seeded;

  const gateway = createTestGateway(db, () => now);
  const started = performance.now();
  const report = await runPayouts(
    { db, gateway, now: () => now, log: pino({ level: 'silent' }), minimumCents: 2000 },
    { minimumCents: 2000 },
  );
  const runMs = performance.now() - started;

  const [check] = (
    (await db.execute(sql`
      select (select count(*)::int from test_gateway_transfers) transfers,
             (select count(*)::int from payouts where status = 'paid') paid,
             (select coalesce(sum(available_cents), 0)::int from teacher_balances) "left"`)) as unknown as {
      rows: { transfers: number; paid: number; left: number }[];
    }
  ).rows;
  console.log(
    JSON.stringify({
      teachers,
      seedMs: Math.round(seedMs),
      runMs: Math.round(runMs),
      perTeacherMs: Number((runMs / teachers).toFixed(2)),
      report,
      check,
    }),
  );
  if (check?.transfers !== teachers || check.paid !== teachers || check.left !== 0) process.exitCode = 1;
} finally {
  await database.close();
  await admin((c) => c.query(`drop database if exists "${name}" with (force)`));
}
