import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { ClassListQuery } from '@skillhive/shared/contracts/classes';
import { openPostgres } from '../apps/server/src/db/client.ts';
import * as catalogue from '../apps/server/src/modules/classes/catalogue.repository.ts';
import { listClasses } from '../apps/server/src/modules/classes/classes.service.ts';
import { SEARCH_TOTAL_CAP } from '../apps/server/src/modules/classes/search-query.ts';
import { scheduleMatchOf } from '../apps/server/src/modules/sections/sections.public.ts';
import { createLocalStorage } from '../apps/server/src/modules/uploads/storage.public.ts';
import { percentile } from './http.ts';
import type { BenchOptions } from './options.ts';

/**
 * The catalogue's schedule filters at scale (decision 053, BENCH_PARTS=schedule): on its own
 * PostgreSQL database (created and dropped here), `classes` classes — one in ten self-paced, the
 * rest with 300 000 sections between them in 12 zones, each with 6 weekly published sessions at
 * its own local weekday and hour from the next two months — then schedule-filtered catalogue
 * pages as visitors in several zones (half-hour and daylight-saving ones included) ask for them,
 * each timed on its own: the page's SQL, its total, and the whole uncached service call.
 */

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'Asia/Kolkata',
  'Asia/Tokyo',
  'Asia/Kathmandu',
  'Australia/Sydney',
  'Africa/Lagos',
  'Pacific/Auckland',
];
const VISITOR_ZONES = ['UTC', 'Asia/Kolkata', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'Australia/Sydney'];
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const TIMES = ['morning', 'afternoon', 'evening'] as const;
const SESSIONS_PER_SECTION = 6;
const SESSION_BATCH = 25_000;

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The filters visitors send: a few days, a part of the day or an hour range, sometimes a start date. */
export function scheduleQueries(count: number, seed = 53): { label: string; query: ClassListQuery }[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const out: { label: string; query: ClassListQuery }[] = [];
  for (let n = 0; n < count; n++) {
    const days = DAYS.filter(() => next() < 0.4);
    const roll = next();
    const query: ClassListQuery = {
      page: 1,
      limit: 20,
      tz: pick(VISITOR_ZONES),
      ...(days.length > 0 ? { days } : { days: [pick(DAYS)] }),
      ...(roll < 0.5
        ? {
            times: TIMES.filter(() => next() < 0.5)
              .concat(pick(TIMES))
              .filter((t, i, all) => all.indexOf(t) === i),
          }
        : roll < 0.8
          ? (() => {
              const from = Math.floor(next() * 20);
              return { fromHour: from, toHour: Math.min(24, from + 2 + Math.floor(next() * 6)) };
            })()
          : {}),
      ...(next() < 0.3
        ? { startsAfter: new Date(Date.now() + Math.floor(next() * 40) * 86_400_000).toISOString().slice(0, 10) }
        : {}),
      // Some pages deeper than the first, some in another order.
      ...(next() < 0.2 ? { page: 2 + Math.floor(next() * 10) } : {}),
      ...(next() < 0.2 ? { sort: pick(['popular', 'price-asc'] as const) } : {}),
    };
    const label = Object.entries(query)
      .filter(([key]) => key !== 'limit')
      .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`)
      .join('&');
    out.push({ label, query });
  }
  return out;
}

export interface ScheduleBenchResult {
  classes: number;
  sections: number;
  sessions: number;
  generateS: number;
  summaryBackfillS: number;
  requests: number;
  pageP50: number;
  pageP99: number;
  countP50: number;
  countP99: number;
  serviceP50: number;
  serviceP99: number;
  slowest: { label: string; ms: number }[];
  loadAverage: number[];
}

export async function benchSchedule(
  opts: BenchOptions,
  migrate: (url: string) => Promise<void>,
  log: (line: string) => void,
): Promise<ScheduleBenchResult> {
  const name = `${opts.benchDatabase}_schedule`;
  const admin = new pg.Client({ connectionString: opts.postgresUrl });
  await admin.connect();
  const url = new URL(opts.postgresUrl);
  url.pathname = `/${name}`;
  const uploadDir = mkdtempSync(path.join(os.tmpdir(), 'skillhive-schedule-'));
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
    log(`schedule: migrate ${name}`);
    await migrate(url.toString());
    const database = await openPostgres(url.toString(), {
      poolSize: 2,
      statementTimeoutMs: 600_000,
      queryTimeoutMs: 900_000,
    });
    const exec = (text: string) => database.db.execute(sql.raw(text));
    try {
      const classes = opts.classes;
      const live = Math.round(classes * 0.9);
      const sections = classes * 3;
      const started = performance.now();
      log(`schedule: ${classes} classes, ${sections} sections, ${sections * SESSIONS_PER_SECTION} sessions`);
      await database.db.transaction(async (tx) => {
        const run = (text: string) => tx.execute(sql.raw(text));
        // Rows consistent by construction; triggers (the summary's too) off during the load, as generate.ts does.
        await run('set local session_replication_role = replica');
        await run(`set local work_mem = '256MB'`);
        await run(`insert into users (id, name, email, email_verified, is_teacher)
          select 'sched-teacher-' || n, 'Teacher ' || n, 'sched-teacher-' || n || '@bench.test', true, true
          from generate_series(1, 2000) as n`);
        await run(`insert into uploads (key, owner_id, content_type, width, height, bytes)
          values ('sched.webp', 'sched-teacher-1', 'image/webp', 1200, 675, 1000)`);
        await run(`insert into classes (id, teacher_id, teacher_name, teacher_email, title, description, price_cents,
            image_key, category, status, enrollment_count, created_at, updated_at)
          select md5('sched-class-' || n)::uuid, 'sched-teacher-' || (1 + n % 2000), 'Teacher ' || (1 + n % 2000),
            'sched-teacher-' || (1 + n % 2000) || '@bench.test', 'Class ' || n, 'About class ' || n,
            100 + (n * 37) % 20000, 'sched.webp',
            (array['web-development','digital-marketing','graphic-design'])[1 + n % 3]::category,
            case when n % 20 = 0 then 'pending' when n % 20 = 1 then 'rejected' else 'accepted' end::class_status,
            (n * 7919) % 500, now() - n * interval '1 minute', now()
          from generate_series(1, ${classes}) as n`);
        // The live classes' sections, spread evenly: 300 000 at 100 000 classes.
        // With triggers off, each section's copy of its class's status is written here (decision 053).
        await run(`insert into sections (id, class_id, class_status, time_zone, capacity, status, enroll_closes_at, cancelled_at, cancel_reason)
          select md5('sched-section-' || s)::uuid, md5('sched-class-' || (1 + (s - 1) % ${live}))::uuid,
            case when (1 + (s - 1) % ${live}) % 20 = 0 then 'pending'
              when (1 + (s - 1) % ${live}) % 20 = 1 then 'rejected' else 'accepted' end::class_status,
            (array[${ZONES.map((z) => `'${z}'`).join(',')}])[1 + (s * 7) % ${ZONES.length}], 30,
            case when s % 50 = 0 then 'cancelled' else 'active' end::section_status,
            case when s % 10 = 0 then now() + interval '3 days' else null end,
            case when s % 50 = 0 then now() - interval '1 day' end,
            case when s % 50 = 0 then 'teacher' end
          from generate_series(1, ${sections}) as s`);
      });
      // Sessions in batches of sections, each in its own transaction (one statement of 1.8 million
      // rows lost its connection on a loaded machine).
      for (let from = 1; from <= sections; from += SESSION_BATCH) {
        await database.db.transaction(async (tx) => {
          const run = (text: string) => tx.execute(sql.raw(text));
          await run('set local session_replication_role = replica');
          // Six weekly sessions per section, on its own local weekday and hour (or half hour), from
          // the next two months: local wall-clock times made instants in the section's zone.
          await run(`insert into class_sessions (class_id, section_id, position, title, starts_at, time_zone,
              duration_minutes, meeting_url, published_at)
            select md5('sched-class-' || (1 + (s - 1) % ${live}))::uuid, md5('sched-section-' || s)::uuid,
              w, 'Week ' || w,
              ((current_date + 7 + (s * 13) % 60 + w * 7)::timestamp + ((7 + (s * 11) % 15) * 60 + 30 * (s % 2)) * interval '1 minute')
                at time zone (array[${ZONES.map((z) => `'${z}'`).join(',')}])[1 + (s * 7) % ${ZONES.length}],
              (array[${ZONES.map((z) => `'${z}'`).join(',')}])[1 + (s * 7) % ${ZONES.length}], 60,
              'https://meet.bench.test/' || s, now()
            from generate_series(${from}, ${Math.min(sections, from + SESSION_BATCH - 1)}) as s
              cross join generate_series(0, ${SESSIONS_PER_SECTION - 1}) as w`);
        });
      }
      const generateS = (performance.now() - started) / 1000;
      const backfillStarted = performance.now();
      for (let from = 1; from <= sections; from += SESSION_BATCH) {
        await exec(`select refresh_section_schedules(array(
          select md5('sched-section-' || s)::uuid
          from generate_series(${from}, ${Math.min(sections, from + SESSION_BATCH - 1)}) as s), now())`);
      }
      const summaryBackfillS = (performance.now() - backfillStarted) / 1000;
      log(
        `schedule: generated in ${generateS.toFixed(1)} s, summaries in ${summaryBackfillS.toFixed(1)} s; vacuum analyze`,
      );
      await exec('vacuum analyze');

      const storage = createLocalStorage(uploadDir);
      const requests = scheduleQueries(opts.quick ? 100 : 300);
      const page: number[] = [];
      const total: number[] = [];
      const service: { label: string; ms: number }[] = [];
      // One unmeasured pass (plans, caches), then each request timed on its own, three ways.
      for (const { query } of requests.slice(0, 20)) await listClasses(database.db, storage, null, query, new Date());
      for (const { label, query } of requests) {
        const now = new Date();
        const match = scheduleMatchOf(query, now)!;
        const filter: catalogue.CatalogueFilter = {
          status: 'accepted',
          schedule: { match, now },
          sort: query.sort ?? 'newest',
          limit: query.limit,
          offset: (query.page - 1) * query.limit,
        };
        // As the service runs them: the fitting classes up to one past the cap (the total), then the
        // page — ordered from those few, or walked in its order when more fit.
        let t0 = performance.now();
        const fits = await catalogue.scheduleFitsAtMost(database.db, filter, SEARCH_TOTAL_CAP + 1);
        total.push(performance.now() - t0);
        t0 = performance.now();
        if (fits.length > 0) {
          await catalogue.catalogueQuery(
            database.db,
            fits.length <= SEARCH_TOTAL_CAP ? { ...filter, schedule: undefined, classIds: fits } : filter,
          );
        }
        page.push(performance.now() - t0);
        t0 = performance.now();
        await listClasses(database.db, storage, null, query, now);
        service.push({ label, ms: performance.now() - t0 });
      }
      const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
      const round = (ms: number) => Math.round(ms * 10) / 10;
      const serviceMs = sorted(service.map((s) => s.ms));
      return {
        classes,
        sections,
        sessions: sections * SESSIONS_PER_SECTION,
        generateS: round(generateS),
        summaryBackfillS: round(summaryBackfillS),
        requests: requests.length,
        pageP50: round(percentile(sorted(page), 50)),
        pageP99: round(percentile(sorted(page), 99)),
        countP50: round(percentile(sorted(total), 50)),
        countP99: round(percentile(sorted(total), 99)),
        serviceP50: round(percentile(serviceMs, 50)),
        serviceP99: round(percentile(serviceMs, 99)),
        slowest: [...service]
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 5)
          .map((s) => ({ label: s.label, ms: round(s.ms) })),
        loadAverage: os.loadavg().map(round),
      };
    } finally {
      await database.close();
    }
  } finally {
    // BENCH_SCHEDULE_KEEP=1 leaves the database for EXPLAIN by hand (README).
    if (process.env.BENCH_SCHEDULE_KEEP !== '1') {
      await admin.query(`drop database if exists "${name}" with (force)`).catch(() => {});
    }
    await admin.end();
    rmSync(uploadDir, { recursive: true, force: true });
  }
}
