import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { buildApp, type App, type AppDeps } from '../src/app.ts';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import {
  MIGRATIONS_DIR,
  openPglite,
  openPostgres,
  PGLITE_EXTENSIONS,
  schema,
  type Database,
  type Db,
} from '../src/db/client.ts';
import { pgliteTemplateDir } from '../src/db/pglite-template.ts';
import { loadEnv, type Env } from '../src/env.ts';
import type { Reconciler } from '../src/modules/checkout/reconciler.ts';
import { createLocalStorage, type ImageStorage } from '../src/modules/uploads/storage.public.ts';
import { checkResponsesAgainstDocument } from './contract.ts';

/**
 * Tests run against a real, freshly migrated database: an in-memory PGlite by default, or a
 * database of its own on the PostgreSQL server named by TEST_DATABASE_URL, so parallel test
 * files never see each other's rows. Either starts as a copy of a migrated template made once per
 * set of migrations (decision 006): an initdb inside WebAssembly costs seconds, and so do the
 * migrations on PostgreSQL, for each of the suite's hundred-odd databases.
 */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openPglite(undefined, { loadDataDir: await migratedPgliteDump() });
  const name = `skillhive_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = await migratedPostgresTemplate(url);
  await withServer(url, (admin) => admin.query(`create database "${name}" template "${template}"`));
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openPostgres(target.toString(), 5);
  await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      await withServer(url, (admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** What the templates are keyed by: the migrations, so a changed or added one makes a new template. */
function migrationsKey(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR, { recursive: true, withFileTypes: true })) {
    if (!file.isFile()) continue;
    const full = path.join(file.parentPath, file.name);
    hash.update(path.relative(MIGRATIONS_DIR, full)).update(readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * A migrated PGlite cluster as a dump, kept beside the embedded template in node_modules' cache
 * and shared by every test process: written to a temporary file and renamed, so a process never
 * reads half a dump.
 */
async function migratedPgliteDump(): Promise<Blob> {
  // Beside the embedded template, whose name carries PGlite's version: an upgrade makes a new dump.
  const file = `${pgliteTemplateDir()}-migrated-${migrationsKey()}.tar`;
  if (!existsSync(file)) {
    const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    await migratePglite(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS_DIR });
    const dump = await client.dumpDataDir('none');
    await client.close();
    mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  return new Blob([readFileSync(file)]);
}

async function withServer<T>(url: string, run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

/**
 * The migrated template database on the server, made once under an advisory lock (test processes
 * start together) and renamed into place when complete; a database being copied may have no other
 * connection, so nothing stays connected to it.
 */
async function migratedPostgresTemplate(url: string): Promise<string> {
  const template = `skillhive_template_${migrationsKey()}`;
  await withServer(url, async (admin) => {
    await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (exists.rowCount) return;
    const partial = `${template}_partial`;
    await admin.query(`drop database if exists "${partial}" with (force)`);
    await admin.query(`create database "${partial}"`);
    const target = new URL(url);
    target.pathname = `/${partial}`;
    const database = await openPostgres(target.toString(), 1);
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    await admin.query(`alter database "${partial}" rename to "${template}"`);
  });
  return template;
}

/** Raw SQL rows: both drivers answer `{ rows }`, but the shared Db type leaves the result untyped. */
export async function rawRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export const TEST_PASSWORD = 'Test!Pass1';

export interface TestContext {
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  db: Db;
  database: Database;
  env: Env;
  storage: ImageStorage;
  dataDir: string;
  /** The app's payment reconciler: tests call runOnce() instead of waiting for its interval. */
  reconciler: Reconciler;
  /** The app's session reminder job: tests call runOnce() with their clock. */
  sessionReminders: App['sessionReminders'];
  /** The app's money-out job (releases, in-flight payouts, scheduled runs): tests call runOnce(). */
  payoutJob: App['payoutJob'];
  /** The job cancelling sections under their minimum at their deadline: tests call runOnce(). */
  sectionCancellations: App['sectionCancellations'];
  /** The app's waitlist job (decision 051): tests call runOnce() with their clock. */
  waitlistJob: App['waitlistJob'];
  close(): Promise<void>;
}

/** Builds the real app on a fresh database. `envOverrides` are process-style settings. */
export async function createTestApp(
  envOverrides: Record<string, string> = {},
  deps: Partial<Omit<AppDeps, 'env' | 'database'>> = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-test-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    // Suites call ctx.reconciler.runOnce() when they need it; a suite may turn the timer on.
    RECONCILE_INTERVAL_SECONDS: '0',
    // Suites call ctx.payoutJob.runOnce() with their clock.
    PAYOUT_JOB_INTERVAL_SECONDS: '0',
    // Suites call ctx.sectionCancellations.runOnce() with their clock.
    SECTION_CANCEL_INTERVAL_SECONDS: '0',
    // Suites call ctx.waitlistJob.runOnce() with their clock.
    WAITLIST_INTERVAL_SECONDS: '0',
    // Suites read their own writes at once; catalogue-cache.test.ts turns the shared catalogue on.
    CATALOGUE_CACHE_TTL_SECONDS: '0',
    ...envOverrides,
  });
  const database = await createTestDatabase();
  const storage = deps.storage ?? createLocalStorage(env.uploadDir);
  const { app, reconciler, sessionReminders, payoutJob, sectionCancellations, waitlistJob } = await buildApp({
    env,
    database,
    storage,
    authSecret: 'test-secret-that-is-long-enough-1234567890',
    logger: false,
    ...deps,
  });
  await app.ready();
  // Every response a test receives is checked against the OpenAPI document (decision 012).
  checkResponsesAgainstDocument(app);
  return {
    app,
    db: database.db,
    database,
    env,
    storage,
    dataDir,
    reconciler,
    sessionReminders,
    payoutJob,
    sectionCancellations,
    waitlistJob,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${process.pid}.${counter}.${randomBytes(3).toString('hex')}@example.test`;
}

export interface TestUser {
  id: string;
  email: string;
  name: string;
  /** Cookie header value carrying the better-auth session. */
  cookie: string;
  /** Headers for a cookie-authenticated request. */
  headers: { cookie: string };
}

/** The newest mail of `kind` to `to` in the outbox, and its link: the first to our own API, else the first. */
export async function latestMail(
  ctx: Pick<TestContext, 'db'>,
  to: string,
  kind: string,
): Promise<{ text: string; html: string; subject: string; link: URL }> {
  const [mail] = await ctx.db
    .select({ text: schema.mailOutbox.text, html: schema.mailOutbox.html, subject: schema.mailOutbox.subject })
    .from(schema.mailOutbox)
    .where(and(eq(schema.mailOutbox.to, to.toLowerCase()), eq(schema.mailOutbox.kind, kind)))
    .orderBy(desc(schema.mailOutbox.createdAt))
    .limit(1);
  if (!mail) throw new Error(`no ${kind} mail to ${to}`);
  const link = (mail.text.match(/https?:\/\/\S+\/api\/auth\/\S+/) ?? mail.text.match(/https?:\/\/\S+/))?.[0];
  if (!link) throw new Error(`no link in the ${kind} mail to ${to}`);
  return { ...mail, link: new URL(link) };
}

/** Follows the link of the newest verification mail to `email`, as its owner would. */
export async function verifyEmail(ctx: Pick<TestContext, 'app' | 'db'>, email: string): Promise<void> {
  const { link } = await latestMail(ctx, email, 'verify-email');
  const response = await ctx.app.inject({ method: 'GET', url: link.pathname + link.search });
  const location = String(response.headers.location ?? '');
  if (response.statusCode !== 302 || location.includes('error=')) {
    throw new Error(`verification failed: ${response.statusCode} ${location}`);
  }
}

/**
 * Signs a user up through the real better-auth route and returns their session cookie. Unless
 * `verified: false`, the address is then verified by following the link of the mail sign-up sent
 * (paying and applying to teach need a verified address).
 */
export async function signUp(
  ctx: Pick<TestContext, 'app' | 'db'>,
  overrides: Partial<{
    email: string;
    name: string;
    password: string;
    phone: string;
    image: string;
    verified: boolean;
  }> = {},
): Promise<TestUser> {
  const body = {
    name: overrides.name ?? 'Test User',
    email: overrides.email ?? uniqueEmail(),
    password: overrides.password ?? TEST_PASSWORD,
    phone: overrides.phone ?? '+1 555-010-12345',
    image: overrides.image ?? 'https://example.test/avatar.png',
  };
  const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: body });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const cookie = cookieHeader(response.headers['set-cookie']);
  const user = response.json() as { user: { id: string; email: string; name: string } };
  if (overrides.verified !== false) await verifyEmail(ctx, user.user.email);
  return { id: user.user.id, email: user.user.email, name: user.user.name, cookie, headers: { cookie } };
}

/** A signed-up user given roles directly in the database (test set-up, not an API path). */
export async function createUser(
  ctx: Pick<TestContext, 'app' | 'db'>,
  role: 'student' | 'teacher' | 'admin' | 'admin-teacher',
  overrides: Parameters<typeof signUp>[1] = {},
): Promise<TestUser> {
  const user = await signUp(ctx, { name: `${role} ${counter + 1}`, ...overrides });
  if (role !== 'student') {
    await ctx.db
      .update(schema.users)
      .set({
        isAdmin: role === 'admin' || role === 'admin-teacher',
        isTeacher: role === 'teacher' || role === 'admin-teacher',
      })
      .where(eq(schema.users.id, user.id));
  }
  return user;
}

/** "a=1; Path=/" set-cookie values → "a=1; b=2" cookie header. */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

/** A Bearer token through POST /api/jwt, as the web app gets one. */
export async function tokenFor(ctx: Pick<TestContext, 'app'>, user: TestUser): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/jwt',
    headers: user.headers,
    payload: { email: user.email },
  });
  if (response.statusCode !== 200) throw new Error(`token failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
}
