import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
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
