import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import type { ClassContent } from '@skillhive/shared/contracts/content';
import { toLocalDateTime } from '@skillhive/shared/rules/time-zones';
import { schema } from '../src/db/client.ts';
import { DEMO_PASSWORD, revokeDemoAdmins, seed, seedIfEmpty } from '../src/db/seed.ts';
import { DEMO_ADMIN_EMAIL, EnvError, loadEnv } from '../src/env.ts';
import { cookieHeader, createTestApp, type TestContext } from './harness.ts';
import { freePort, spawnServer, waitReady, type ServerProcess } from './fault-helpers.ts';

/**
 * Demo data never opens an admin door (docs/SECURITY.md), a production start never seeds
 * by itself, and never takes test cards by accident.
 */
const PRODUCTION = { NODE_ENV: 'production', AUTH_SECRET: 'production-test-secret-0123456789abcdef' };

describe('settings (env.ts)', () => {
  it('refuses a production start without a real gateway unless PAYMENTS_GATEWAY=test says so', () => {
    expect(() => loadEnv(PRODUCTION)).toThrow(EnvError);
    expect(() => loadEnv(PRODUCTION)).toThrow(/PAYMENTS_GATEWAY=test/);
    expect(loadEnv({ ...PRODUCTION, PAYMENTS_GATEWAY: 'test' }).paymentsGateway).toBe('test');
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    };
    expect(loadEnv({ ...PRODUCTION, ...stripe }).paymentsGateway).toBe('stripe');
    expect(() => loadEnv({ PAYMENTS_GATEWAY: 'stripe' })).toThrow(/needs STRIPE_SECRET_KEY/);
    expect(loadEnv({}).paymentsGateway).toBe('test');
  });

  it('seeds an embedded database by default in development only; production needs SEED=true', () => {
    expect(loadEnv({}).seedDemoData).toBe(true);
    expect(loadEnv({ DATABASE_URL: 'postgres://x@127.0.0.1/db' }).seedDemoData).toBe(false);
    expect(loadEnv({ ...PRODUCTION, PAYMENTS_GATEWAY: 'test' }).seedDemoData).toBe(false);
    expect(loadEnv({ NODE_ENV: 'test' }).seedDemoData).toBe(false);
    expect(loadEnv({ ...PRODUCTION, PAYMENTS_GATEWAY: 'test', SEED: 'true' }).seedDemoData).toBe(true);
  });

  it('makes the demo admin an admin by default in development only', () => {
    expect(loadEnv({}).ADMIN_EMAILS).toEqual([DEMO_ADMIN_EMAIL]);
    expect(loadEnv({ ADMIN_EMAILS: 'boss@example.test' }).ADMIN_EMAILS).toEqual(['boss@example.test']);
    expect(loadEnv({ NODE_ENV: 'test' }).ADMIN_EMAILS).toEqual([]);
    expect(loadEnv({ ...PRODUCTION, PAYMENTS_GATEWAY: 'test' }).ADMIN_EMAILS).toEqual([]);
  });
});

async function signInDemoAdmin(ctx: TestContext) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return { cookie: cookieHeader(res.headers['set-cookie']) };
}

describe('the demo seed and ADMIN_EMAILS', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('seeds no admin when ADMIN_EMAILS does not name the demo admin', async () => {
    const seeded = await seedIfEmpty(ctx.db, ctx.storage, []);
    expect(seeded?.logins.map((l) => l.role)).not.toContain('admin');
    const [admin] = await ctx.db.select().from(schema.users).where(eq(schema.users.email, DEMO_ADMIN_EMAIL));
    expect(admin?.isAdmin).toBe(false);

    // The published password opens a plain account, not the admin screens.
    const headers = await signInDemoAdmin(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users', headers })).statusCode).toBe(403);
    const role = await ctx.app.inject({ method: 'GET', url: `/api/users/admin/${DEMO_ADMIN_EMAIL}`, headers });
    expect(role.json()).toMatchObject({ admin: false });
  });

  it('takes admin rights from demo accounts that ADMIN_EMAILS does not name (older seeds)', async () => {
    await ctx.db.update(schema.users).set({ isAdmin: true }).where(eq(schema.users.email, DEMO_ADMIN_EMAIL));
    expect(await revokeDemoAdmins(ctx.db, ['boss@example.test'])).toEqual([DEMO_ADMIN_EMAIL]);
    expect(await revokeDemoAdmins(ctx.db, [])).toEqual([]);

    await ctx.db.update(schema.users).set({ isAdmin: true }).where(eq(schema.users.email, DEMO_ADMIN_EMAIL));
    expect(await revokeDemoAdmins(ctx.db, [DEMO_ADMIN_EMAIL])).toEqual([]);
    const [admin] = await ctx.db.select().from(schema.users).where(eq(schema.users.email, DEMO_ADMIN_EMAIL));
    expect(admin?.isAdmin).toBe(true);
  });
});

describe('the demo seed with the demo admin in ADMIN_EMAILS (a newcomer in development)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ ADMIN_EMAILS: DEMO_ADMIN_EMAIL });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('shows every role', async () => {
    const seeded = await seedIfEmpty(ctx.db, ctx.storage, ctx.env.ADMIN_EMAILS);
    expect(seeded?.logins.map((l) => l.role)).toEqual(['admin', 'teacher', 'student']);
    const headers = await signInDemoAdmin(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/users', headers })).statusCode).toBe(200);
  });
});

describe('the demo seed is one transaction', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });
  const users = async () => (await ctx.db.select({ n: count() }).from(schema.users))[0]!.n;

  it('leaves an empty database when it fails part-way, and seeds fully on the next try', async () => {
    // A fault in the last table the seed writes: everything before it must roll back.
    await ctx.db.execute(sql`
      create function fail_review_insert() returns trigger language plpgsql as
      $$ begin raise exception 'disk full (test)'; end $$`);
    await ctx.db.execute(sql`
      create trigger fail_review_insert before insert on reviews
      for each statement execute function fail_review_insert()`);
    await expect(seedIfEmpty(ctx.db, ctx.storage, [])).rejects.toThrow();
    expect(await users()).toBe(0);

    await ctx.db.execute(sql`drop trigger fail_review_insert on reviews`);
    expect(await seedIfEmpty(ctx.db, ctx.storage, [])).not.toBeNull();
    expect(await users()).toBe(16);
  });

  it('seeds once when two seeders start together', async () => {
    const fresh = await createTestApp();
    try {
      const results = await Promise.all([seed(fresh.db, fresh.storage, []), seed(fresh.db, fresh.storage, [])]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect((await fresh.db.select({ n: count() }).from(schema.users))[0]!.n).toBe(16);
    } finally {
      await fresh.close();
    }
  });
});

// Embedded on purpose in both test passes: the self-seeding start was an embedded one.
describe('a production start (embedded)', () => {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  const newDataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skillhive-prod-'));
    dirs.push(dir);
    return dir;
  };
  const start = async (env: Record<string, string>) => {
    // SEED '' is unset (env.ts ignores empty settings): the default decides.
    const server = spawnServer(await freePort(), { SEED: '', ...env });
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const classCount = async (server: ServerProcess) => {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/classes`);
    expect(res.status).toBe(200);
    return Number(res.headers.get('x-total-count'));
  };

  it('stops with a clear message when no real gateway is configured', async () => {
    const server = await start({ ...PRODUCTION, DATA_DIR: newDataDir() });
    expect(await server.exited).toBe(2);
    expect(server.output()).toMatch(/PAYMENTS_GATEWAY=test/);
  }, 30_000);

  it('does not seed an empty embedded database unless SEED=true', async () => {
    const server = await start({ ...PRODUCTION, PAYMENTS_GATEWAY: 'test', DATA_DIR: newDataDir() });
    await waitReady(server);
    expect(await classCount(server)).toBe(0);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('with SEED=true seeds, says so loudly, and the demo admin is no admin', async () => {
    const server = await start({ ...PRODUCTION, PAYMENTS_GATEWAY: 'test', SEED: 'true', DATA_DIR: newDataDir() });
    await waitReady(server);
    expect(await classCount(server)).toBeGreaterThan(0);
    expect(server.output()).toMatch(/SEED=true in production: demo accounts with a published password/);
    const base = `http://127.0.0.1:${server.port}`;
    const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin },
      body: JSON.stringify({ email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = cookieHeader(signIn.headers.getSetCookie());
    expect((await fetch(`${base}/api/users`, { headers: { cookie } })).status).toBe(403);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);
});

/** What the demo data shows (README, "Demo logins"): live classes, content, progress, refunds. */
describe('the demo data shows the product', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
    expect(await seedIfEmpty(ctx.db, ctx.storage, [])).not.toBeNull();
  }, 120_000);
  afterAll(async () => {
    await ctx.close();
  });

  const signIn = async (email: string) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    return { cookie: cookieHeader(res.headers['set-cookie']) };
  };

  it('runs every accepted class in a section in its zone, with held and upcoming published sessions', async () => {
    const accepted = await ctx.db.select().from(schema.classes).where(eq(schema.classes.status, 'accepted'));
    const sections = await ctx.db.select().from(schema.sections);
    const sessions = await ctx.db.select().from(schema.classSessions);
    const now = Date.now();
    expect(new Set(sections.map((s) => s.timeZone))).toEqual(
      new Set(['America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'Asia/Kolkata']),
    );
    for (const cls of accepted) {
      const own = sessions.filter((s) => s.classId === cls.id && s.publishedAt);
      expect(own.filter((s) => s.startsAt.getTime() < now).length, cls.title).toBe(3);
      expect(own.filter((s) => s.startsAt.getTime() > now).length, cls.title).toBeGreaterThanOrEqual(3);
      // 18:00 where the section runs, every week.
      for (const session of own) {
        expect(toLocalDateTime(session.startsAt, session.timeZone).slice(11), cls.title).toBe('18:00');
      }
      const schedule = await ctx.app.inject({ method: 'GET', url: `/api/classes/${cls.id}/schedule` });
      expect(schedule.statusCode).toBe(200);
      expect(schedule.json().length, cls.title).toBeGreaterThan(0);
    }
    // Drafts are the teacher's: one class has a draft session and a draft material.
    expect(sessions.filter((s) => !s.publishedAt)).toHaveLength(1);
    const materials = await ctx.db.select().from(schema.classMaterials);
    expect(materials.filter((m) => !m.publishedAt)).toHaveLength(1);
  });

  it('gives a demo student a paid class with content, files from storage and progress', async () => {
    const headers = await signIn('student1@skillhive.test');
    const enrolled = await ctx.app.inject({ method: 'GET', url: '/api/enrolled/student1@skillhive.test', headers });
    const paid = (enrolled.json() as { enrollId: string; title: string; status: string }[]).filter(
      (line) => line.status === 'paid',
    );
    expect(paid.length).toBeGreaterThanOrEqual(2);
    const react = paid.find((line) => line.title === 'React from zero to production')!;
    const content = (
      await ctx.app.inject({ method: 'GET', url: `/api/classes/${react.enrollId}/content`, headers })
    ).json() as ClassContent;
    expect(content.viewerRole).toBe('student');
    expect(content.sessions.some((s) => new Date(s.startsAt).getTime() > Date.now())).toBe(true);
    expect(content.sessions.filter((s) => s.attended)).toHaveLength(2);
    expect(content.sessions.some((s) => s.title.includes('(draft)'))).toBe(false);
    expect(content.materials.map((m) => [m.title, m.kind])).toEqual([
      ['Reading list', 'link'],
      ['Course outline', 'file'],
      ['Cheat sheet', 'file'],
    ]);
    const [pdf, png] = await Promise.all(
      content.materials
        .filter((m) => m.kind === 'file')
        .map((m) => ctx.app.inject({ method: 'GET', url: m.url, headers })),
    );
    expect([pdf!.statusCode, pdf!.headers['content-type'], pdf!.rawPayload.subarray(0, 5).toString()]).toEqual([
      200,
      'application/pdf',
      '%PDF-',
    ]);
    expect([png!.statusCode, png!.headers['content-type']]).toEqual([200, 'image/png']);
    expect(content.materials.filter((m) => m.done).length).toBeGreaterThan(0);
  });

  it('has a refund request in each state, the approved one refunded and out of the counts', async () => {
    const requests = await ctx.db.select().from(schema.refundRequests);
    expect(requests.map((r) => r.status).sort()).toEqual(['approved', 'declined', 'pending']);
    const approved = requests.find((r) => r.status === 'approved')!;
    const [refund] = await ctx.db.select().from(schema.refunds).where(eq(schema.refunds.id, approved.refundId!));
    expect(refund).toMatchObject({ status: 'succeeded', enrollmentId: approved.enrollmentId });
    const [line] = await ctx.db
      .select()
      .from(schema.enrollments)
      .where(eq(schema.enrollments.id, approved.enrollmentId));
    expect(line).toMatchObject({ status: 'refunded' });
    const [cls] = await ctx.db.select().from(schema.classes).where(eq(schema.classes.id, line!.classId));
    const [paidOf] = await ctx.db
      .select({ n: count() })
      .from(schema.enrollments)
      .where(and(eq(schema.enrollments.classId, line!.classId), eq(schema.enrollments.status, 'paid')));
    expect(cls!.enrollmentCount).toBe(paidOf!.n);
    // The student reads their own requests; the admin's queue has the pending one.
    const mine = await ctx.app.inject({
      method: 'GET',
      url: '/api/refund-requests/mine',
      headers: await signIn('student1@skillhive.test'),
    });
    expect((mine.json() as { requests: { status: string }[] }).requests.map((r) => r.status).sort()).toEqual([
      'approved',
      'declined',
      'pending',
    ]);
  });

  it('is the same data on every run: titles, zones, local times and the stored files', async () => {
    const other = await createTestApp();
    try {
      expect(await seedIfEmpty(other.db, other.storage, [])).not.toBeNull();
      const shape = async (db: TestContext['db']) => {
        const sessions = await db.select().from(schema.classSessions);
        const materials = await db.select().from(schema.classMaterials);
        return {
          sessions: sessions
            .map((s) => `${s.title}|${s.timeZone}|${toLocalDateTime(s.startsAt, s.timeZone).slice(11)}|${s.position}`)
            .sort(),
          files: materials.map((m) => m.fileKey ?? m.url).sort(),
          requests: (await db.select().from(schema.refundRequests)).map((r) => `${r.status}|${r.reason}`).sort(),
        };
      };
      expect(await shape(other.db)).toEqual(await shape(ctx.db));
    } finally {
      await other.close();
    }
  }, 120_000);
});
