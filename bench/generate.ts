import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { CATEGORIES } from '@skillhive/shared/rules/constants';
import { openPglite, openPostgres, type Database } from '../apps/server/src/db/client.ts';
import { processImage } from '../apps/server/src/modules/uploads/image-processing.ts';
import { createLocalStorage } from '../apps/server/src/modules/uploads/storage.public.ts';

/**
 * Fills a migrated SkillHive database with a large, consistent catalogue: users (teachers,
 * students with a history, and fresh students for the payment flow) with credential accounts,
 * one real uploaded image, classes, payments and enrollments. Every row is produced inside the
 * database by INSERT ... SELECT over generate_series — one statement per chunk, no rows cross the
 * wire — which is the fastest way on PostgreSQL and the only fast way on PGlite. Ids are derived
 * from the row number (md5 shaped as a v4 UUID), so the bench can name rows without reading them.
 */

export const BENCH_PASSWORD = 'Bench!Pass1';

/**
 * The generator's connections: two, and no 10 s statement timeout (the server's default) — one
 * bulk statement inserts up to 100 000 classes with their search vectors, longer on a busy machine.
 */
const BULK_POSTGRES = { poolSize: 2, statementTimeoutMs: 30 * 60_000, queryTimeoutMs: 31 * 60_000 };
const EMAIL_DOMAIN = 'bench.skillhive.test';

export const FIRST = [
  'Amara',
  'Bruno',
  'Chen',
  'Dalia',
  'Emil',
  'Farah',
  'Goran',
  'Hana',
  'Ivo',
  'Jonas',
  'Keiko',
  'Luca',
  'Mira',
  'Nadia',
  'Omar',
  'Priya',
];
export const LAST = [
  'Adeyemi',
  'Berg',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jansen',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Novak',
  'Okafor',
  'Petrov',
];
const LEVELS = ['Intro to', 'Practical', 'Advanced', 'Hands-on', 'Complete'];
/** Six topics per category, in the order of CATEGORIES. */
export const TOPICS = [
  [
    'TypeScript for teams',
    'React components',
    'Node.js APIs',
    'CSS layout',
    'Web accessibility',
    'Browser performance',
  ],
  [
    'Search engine optimisation',
    'Email campaigns',
    'Social media ads',
    'Content strategy',
    'Brand storytelling',
    'Marketing analytics',
  ],
  ['Typography', 'Logo design', 'Colour theory', 'Vector illustration', 'Print layout', 'Design systems'],
  [
    'Python for analysts',
    'Statistics',
    'Machine learning',
    'Data visualisation',
    'SQL queries',
    'Time series forecasting',
  ],
  [
    'Network defence',
    'Secure coding',
    'Incident response',
    'Threat modelling',
    'Cloud security',
    'Penetration testing',
  ],
  ['Video editing', 'Colour grading', 'Motion graphics', 'Sound design', 'Documentary cuts', 'Editing for social'],
].flat();

/** A word found in one topic of 36: the catalogue search scenario looks for it. */
export const SEARCH_TERM = 'typescript';

const lit = (value: string) => `'${value.replace(/'/g, "''")}'`;
const arr = (values: readonly string[]) => `ARRAY[${values.map(lit).join(',')}]`;

/** A v4-shaped UUID from md5(tag || key); `keySql` is an SQL expression. */
const uuidSql = (tag: string, keySql: string) =>
  `(overlay(overlay(md5(${lit(tag)} || (${keySql})::text) placing '4' from 13) placing '8' from 17))::uuid`;

export function benchUuid(tag: string, key: string | number): string {
  const hex = createHash('md5').update(`${tag}${key}`).digest('hex');
  const h = `${hex.slice(0, 12)}4${hex.slice(13, 16)}8${hex.slice(17)}`;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// Row formulas, shared by every statement so that denormalised copies agree.
const userIdSql = (n: string) => `('bench-user-' || lpad((${n})::text, 6, '0'))`;
const userEmailSql = (n: string) => `('user' || (${n}) || ${lit(`@${EMAIL_DOMAIN}`)})`;
const userNameSql = (n: string) =>
  `((${arr(FIRST)})[1 + (${n}) % ${FIRST.length}] || ' ' || (${arr(LAST)})[1 + ((${n}) / ${FIRST.length}) % ${LAST.length}])`;
const teacherOfSql = (i: string, teachers: number) => `(((${i}) - 1) % ${teachers} + 1)`;
const titleSql = (i: string) =>
  `((${arr(LEVELS)})[1 + ((${i}) / 36) % ${LEVELS.length}] || ' ' || (${arr(TOPICS)})[1 + ((${i}) % 6) * 6 + ((${i}) / 6) % 6])`;
const descriptionSql = (i: string) =>
  `('A hands-on class on ' || lower((${arr(TOPICS)})[1 + ((${i}) % 6) * 6 + ((${i}) / 6) % 6]) || ' with weekly live sessions, exercises with feedback and a final project you can show. Cohort ' || (${i}) || '.')`;
const priceSql = (i: string) => `(500 + ((${i})::bigint * 7919) % 19500)::int`;
const classIdSql = (i: string) => uuidSql('class', i);
/** One class in 20 is pending and one rejected; the rest are accepted. */
const statusSql = (i: string) =>
  `(case (${i}) % 20 when 0 then 'pending' when 1 then 'rejected' else 'accepted' end)::class_status`;

export function userEmail(n: number): string {
  return `user${n}@${EMAIL_DOMAIN}`;
}

export function classUuid(i: number): string {
  return benchUuid('class', i);
}

/** How many of classes 1..n are accepted (those with i % 20 >= 2). */
export function acceptedCount(n: number): number {
  return Math.floor(n / 20) * 18 + Math.max(0, (n % 20) - 1);
}

/** The class number of the j-th accepted class (0-based). */
export function acceptedClassNumber(j: number): number {
  return Math.floor(j / 18) * 20 + (j % 18) + 2;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

export interface GenPlan {
  users: number;
  teachers: number;
  /** Students with enrollment and payment history: users teachers+1 .. teachers+historyStudents. */
  historyStudents: number;
  /** Students with nothing yet, for the enroll → pay flow: the last `flowStudents` users. */
  flowStudents: number;
  classes: number;
  enrollments: number;
  perStudent: number;
  accepted: number;
  /** Stride through the accepted classes, coprime with their number, so a student's classes are distinct. */
  stride: number;
}

export function makePlan(opts: { users: number; classes: number; enrollments: number }): GenPlan {
  const teachers = Math.max(1, Math.round(opts.users * 0.05));
  const flowStudents = Math.min(3_000, Math.round(opts.users * 0.3));
  const historyStudents = opts.users - teachers - flowStudents;
  const accepted = acceptedCount(opts.classes);
  const perStudent = Math.min(accepted, Math.ceil(opts.enrollments / historyStudents));
  let stride = Math.max(1, Math.floor(accepted * 0.618));
  while (gcd(stride, accepted) !== 1) stride++;
  return {
    users: opts.users,
    teachers,
    historyStudents,
    flowStudents,
    classes: opts.classes,
    enrollments: Math.min(opts.enrollments, historyStudents * perStudent),
    perStudent,
    accepted,
    stride,
  };
}

export function historyStudentEmail(plan: GenPlan, s: number): string {
  return userEmail(plan.teachers + 1 + s);
}

/** The coupon the purchase flow with a coupon applies (site-wide, 10% off, no limit of uses). */
export const BENCH_COUPON_CODE = 'BENCH-10';

export function flowStudentEmails(plan: GenPlan): string[] {
  return Array.from({ length: plan.flowStudents }, (_, k) => userEmail(plan.users - plan.flowStudents + 1 + k));
}

export function flowStudentIds(plan: GenPlan): string[] {
  return Array.from(
    { length: plan.flowStudents },
    (_, k) => `bench-user-${String(plan.users - plan.flowStudents + 1 + k).padStart(6, '0')}`,
  );
}

/** The session each flow student's API token names (a token ends with its session, decision 009). */
export function flowStudentSessionId(userId: string): string {
  return `bench-session-${userId}`;
}

export type GenTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

export interface StepTiming {
  step: string;
  rows: number;
  ms: number;
}

/** A generator bound to one database; close it before a server opens a PGlite data dir. */
export class Generator {
  readonly plan: GenPlan;
  readonly timings: StepTiming[] = [];
  private database: Database;
  private imageKey = '';
  private classesDone = 0;

  private constructor(database: Database, plan: GenPlan) {
    this.database = database;
    this.plan = plan;
  }

  static async open(target: GenTarget, plan: GenPlan): Promise<Generator> {
    const database =
      target.kind === 'postgres' ? await openPostgres(target.url, BULK_POSTGRES) : await openPglite(target.dataDir);
    return new Generator(database, plan);
  }

  get kind() {
    return this.database.kind;
  }

  async close(): Promise<void> {
    await this.database.close();
  }

  /** Re-attaches to the same database after a server used it (PGlite is one process at a time). */
  async reopen(target: GenTarget): Promise<void> {
    await this.database.close();
    this.database =
      target.kind === 'postgres' ? await openPostgres(target.url, BULK_POSTGRES) : await openPglite(target.dataDir);
  }

  async exec(text: string): Promise<Record<string, unknown>[]> {
    const result = (await this.database.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] };
    return result.rows;
  }

  /**
   * Statements in one transaction with foreign-key triggers off (session_replication_role =
   * replica, as pg_restore does): the rows are consistent by construction and verify() checks
   * every reference afterwards with set-based anti-joins, which is far cheaper than a trigger per row.
   */
  private async bulk(statements: string[]): Promise<void> {
    await this.database.db.transaction(async (tx) => {
      await tx.execute(sql.raw('set local session_replication_role = replica'));
      await tx.execute(sql.raw(`set local work_mem = '128MB'`));
      for (const text of statements) await tx.execute(sql.raw(text));
    });
  }

  private async timed<T>(step: string, rows: number, fn: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const value = await fn();
    this.timings.push({ step, rows, ms: Math.round(performance.now() - started) });
    return value;
  }

  /** Users with credential accounts (one argon2id hash shared by all) and the class image. */
  async base(opts: { passwordHash: string; uploadDir: string }): Promise<void> {
    const { users, teachers } = this.plan;
    await this.timed('users', users, () =>
      this.exec(`
        insert into users (id, name, email, email_verified, is_admin, is_teacher, created_at, updated_at)
        select ${userIdSql('n')}, ${userNameSql('n')}, ${userEmailSql('n')}, true, false, n <= ${teachers},
               now() - n * interval '1 minute', now() - n * interval '1 minute'
        from generate_series(1, ${users}) as n`),
    );
    await this.timed('accounts', users, () =>
      this.exec(`
        insert into accounts (id, account_id, provider_id, user_id, password, created_at, updated_at)
        select 'bench-account-' || n, ${userIdSql('n')}, 'credential', ${userIdSql('n')}, ${lit(opts.passwordHash)}, now(), now()
        from generate_series(1, ${users}) as n`),
    );
    const flowIds = flowStudentIds(this.plan);
    await this.timed('sessions', flowIds.length, () =>
      this.exec(`
        insert into sessions (id, token, user_id, expires_at, created_at, updated_at)
        select 'bench-session-' || id, 'bench-session-token-' || id, id, now() + interval '7 days', now(), now()
        from unnest(array[${flowIds.map(lit).join(', ') || "''"}]::text[]) as id
        where id <> ''`),
    );
    // One site-wide coupon for the purchase flow with a coupon (decision 019): 10% off, no limit.
    await this.timed('coupons', 1, () =>
      this.exec(`
        insert into coupons (code, kind, value, created_by)
        values (${lit(BENCH_COUPON_CODE)}, 'percent', 10, 'bench')`),
    );
    await this.timed('uploads', 1, async () => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d4ed8"/><stop offset="1" stop-color="#60a5fa"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="900" cy="200" r="160" fill="#fff" fill-opacity="0.25"/></svg>`;
      const image = await processImage(await sharp(Buffer.from(svg)).png().toBuffer(), 40_000_000);
      const storage = createLocalStorage(opts.uploadDir);
      await storage.put(image.key, image.display, 'image/webp');
      await storage.put(image.thumbKey, image.thumb, 'image/webp');
      await this.exec(`
        insert into uploads (key, owner_id, content_type, width, height, bytes)
        values (${lit(image.key)}, null, 'image/webp', ${image.width}, ${image.height}, ${image.display.length})
        on conflict do nothing`);
      this.imageKey = image.key;
    });
  }

  /**
   * Secondary indexes of `tables` are dropped, `fn` runs, and they are re-created from their own
   * definitions (pg_indexes.indexdef), as pg_restore does: one sorted build instead of a million
   * random inserts. Indexes that back constraints (primary keys, UNIQUE) stay in place.
   */
  private async withDeferredIndexes(tables: string[], fn: () => Promise<void>): Promise<void> {
    const deferred = (await this.exec(`
      select i.indexname as name, i.indexdef as def from pg_indexes as i
      where i.schemaname = 'public' and i.tablename in (${tables.map(lit).join(', ')})
        and not exists (select 1 from pg_constraint as c where c.conname = i.indexname)`)) as {
      name: string;
      def: string;
    }[];
    for (const index of deferred) await this.exec(`drop index "${index.name}"`);
    try {
      await fn();
    } finally {
      const started = performance.now();
      await this.exec(`set maintenance_work_mem = '256MB'`);
      for (const index of deferred) await this.exec(index.def);
      this.timings.push({
        step: `  re-create ${deferred.length} indexes`,
        rows: 0,
        ms: Math.round(performance.now() - started),
      });
    }
  }

  /**
   * Grows the catalogue to classes 1..upTo (newest first by number) together with their share of
   * the planned enrollments, so every intermediate size is a consistent database: the history
   * students' enrollments into the new accepted classes — nine in ten paid, grouped into payments
   * (cart_ids, menu_item_ids, amount filled), the tenth pending in the cart — and each new class
   * inserted with its enrollment_count. The planned enrollments are all present once upTo reaches
   * plan.classes.
   */
  async growClasses(upTo: number): Promise<void> {
    if (!this.imageKey) throw new Error('base() first');
    const p = this.plan;
    const from = this.classesDone;
    if (upTo <= from || upTo > p.classes) throw new Error(`cannot grow from ${from} to ${upTo} classes`);
    const K = p.perStudent;
    const students = Math.ceil(p.enrollments / K);
    const genSql = `
      select s, k, n, i, now() - (${Math.ceil(K / 10)} - k / 10) * interval '1 day' - s * interval '1 second' as paid_time
      from (
        select s, k, n, (j / 18) * 20 + (j % 18) + 2 as i
        from (
          select s, k, ${p.teachers} + 1 + s as n, ((s::bigint * 7919 + k::bigint * ${p.stride}) % ${p.accepted})::int as j
          from generate_series(0, ${students - 1}) as s, generate_series(0, ${K - 1}) as k
          where s::bigint * ${K} + k < ${p.enrollments}
        ) as g
      ) as h
      where i > ${from} and i <= ${upTo}`;
    // Payments group a student's paid enrollments of this step ten by ten.
    const payKey = `s || '-' || ${upTo} || '-' || (k / 10)`;
    let enrolled = 0;
    await this.withDeferredIndexes(['classes', 'enrollments', 'payments'], async () => {
      await this.timed(`classes ${from + 1}..${upTo} + their enrollments`, upTo - from, () =>
        this.bulk([
          `create temp table bench_gen on commit drop as ${genSql}`,
          `insert into classes (id, teacher_id, teacher_name, teacher_email, title, description, price_cents, image_key,
                                category, status, rejection_reason, enrollment_count, created_at, updated_at)
           select ${classIdSql('i')}, ${userIdSql('t')}, ${userNameSql('t')}, ${userEmailSql('t')}, ${titleSql('i')},
                  ${descriptionSql('i')}, ${priceSql('i')}, ${lit(this.imageKey)},
                  (${arr(CATEGORIES)})[1 + i % 6]::category, ${statusSql('i')},
                  case when i % 20 = 1 then 'Please add a week-by-week outline to the description.' end,
                  coalesce(x.enrolled, 0), now() - i * interval '7 seconds', now() - i * interval '7 seconds'
           from (select i, ${teacherOfSql('i', p.teachers)} as t from generate_series(${from + 1}, ${upTo}) as i) as g
           left join (select i, count(*)::int as enrolled from bench_gen group by i) as x using (i)`,
          `insert into payments (id, student_id, email, amount_cents, currency, gateway, transaction_id, cart_ids,
                                 menu_item_ids, status, data, created_at)
           select ${uuidSql('pay', payKey)}, ${userIdSql('n')}, ${userEmailSql('n')}, sum(${priceSql('i')}),
                  'usd', 'test', 'pi_bench_' || ${payKey},
                  array_agg(${uuidSql('enr', "s || '-' || k")} order by k), array_agg(${classIdSql('i')} order by k),
                  'succeeded', min(paid_time), min(paid_time)
           from bench_gen
           where k % 10 <> 9
           group by s, n, k / 10`,
          `insert into enrollments (id, class_id, student_id, student_email, teacher_name, title, image_key, description,
                                    price_cents, paid_cents, status, payment_id, paid_at, created_at)
           select ${uuidSql('enr', "s || '-' || k")}, ${classIdSql('i')}, ${userIdSql('n')}, ${userEmailSql('n')},
                  ${userNameSql(teacherOfSql('i', p.teachers))}, ${titleSql('i')}, ${lit(this.imageKey)}, ${descriptionSql('i')},
                  ${priceSql('i')}, case when k % 10 <> 9 then ${priceSql('i')} end,
                  (case when k % 10 <> 9 then 'paid' else 'pending' end)::enrollment_status,
                  case when k % 10 <> 9 then ${uuidSql('pay', payKey)} end,
                  case when k % 10 <> 9 then paid_time end,
                  paid_time - (10 - k % 10) * interval '1 minute'
           from bench_gen`,
        ]),
      );
      const [row] = await this.exec(`select count(*)::int as n from enrollments`);
      enrolled = Number(row?.n ?? 0);
    });
    // The words search corrects misspellings to (decision 018): the trigger on classes that keeps
    // them is off during the bulk load, so they are collected here, as the migration does.
    await this.timed(`search words of classes ${from + 1}..${upTo}`, upTo - from, () =>
      this.exec(`insert into search_terms (term)
                 select distinct w from classes, class_search_words(title, description, teacher_name) as w
                 on conflict do nothing`),
    );
    this.classesDone = upTo;
    this.enrolled = enrolled;
  }

  /** Enrollments in the database after the last growth step. */
  enrolled = 0;

  /** Fresh statistics and visibility maps, as autovacuum would leave them on a live database. */
  async analyze(): Promise<void> {
    await this.timed('vacuum analyze', 0, () => this.exec('vacuum analyze'));
  }

  /** Row counts and the invariants the app relies on; throws when one does not hold. */
  async verify(): Promise<Record<string, number>> {
    const [row] = await this.exec(`
      select (select count(*) from users)::int as users,
             (select count(*) from accounts)::int as accounts,
             (select count(*) from classes)::int as classes,
             (select count(*) from enrollments)::int as enrollments,
             (select count(*) from payments)::int as payments,
             (select count(*) from classes c where enrollment_count <>
                (select count(*) from enrollments e where e.class_id = c.id))::int as bad_counts,
             (select count(*) from classes where search is null)::int as no_search,
             (select count(*) from enrollments e where not exists (select 1 from classes c where c.id = e.class_id)
                or not exists (select 1 from users u where u.id = e.student_id)
                or (e.payment_id is not null and not exists (select 1 from payments p where p.id = e.payment_id)))::int as orphans,
             (select count(*) from payments p where not exists (select 1 from users u where u.id = p.student_id))::int
               as orphan_payments`);
    const counts = Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
    if (counts.bad_counts !== 0)
      throw new Error(`${counts.bad_counts} classes have an enrollment_count that does not match`);
    if (counts.no_search !== 0) throw new Error('the generated search column is empty');
    if (counts.orphans !== 0 || counts.orphan_payments !== 0) throw new Error('generated rows reference missing rows');
    return counts;
  }
}
