import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openPostgres, type Database } from '../src/db/client.ts';
import { createRedis } from '../src/lib/redis.ts';
import { type Caller, createCaller, createClass, FAST_SIGNUP_ENV } from './commerce-fixtures.ts';
import { hasRedisServer, startRedisServer, waitFor, type RedisProcess } from './fault-helpers.ts';
import { createTestApp, createUser, rawRows, type TestContext, type TestUser } from './harness.ts';
import { openSse, type SseConnection } from './sse-client.ts';
import { sql } from 'drizzle-orm';

/**
 * Several instances on one database (docs/OPERATIONS.md "Scale out"): each keeps its own 1 s
 * catalogue cache, so a class approved or deleted through one instance shows on another within
 * the cache's staleness (1 s, plus the one page query that fills it); and migrations run once
 * when instances start together; and live notifications (decision 047) reach a stream on another
 * instance through Redis, and are caught up when Redis was away.
 */

const TTL_MS = 1_000;
const PRODUCTION = {
  NODE_ENV: 'production',
  CATALOGUE_CACHE_TTL_SECONDS: '1',
  AUTH_SECRET: 'multi-instance-test-secret-0123456789',
  PAYMENTS_GATEWAY: 'test',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two instances on one database: the public catalogue cache', () => {
  let a: TestContext;
  let b: Awaited<ReturnType<typeof buildApp>>['app'];
  let admin: TestUser;
  let teacher: TestUser;

  beforeAll(async () => {
    a = await createTestApp(PRODUCTION);
    ({ app: b } = await buildApp({
      env: a.env,
      database: a.database,
      storage: a.storage,
      authSecret: 'test-secret-that-is-long-enough-1234567890',
      logger: false,
      webRoot: path.join(a.dataDir, 'no-web'),
    }));
    await b.ready();
    admin = await createUser(a, 'admin');
    teacher = await createUser(a, 'teacher');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const titlesOnB = async () => {
    const res = await b.inject({ method: 'GET', url: '/api/classes?limit=50' });
    expect(res.statusCode).toBe(200);
    return (res.json() as { title: string }[]).map((c) => c.title);
  };

  it('shows a class approved on A on B at most the cache TTL later', async () => {
    const pending = await createClass(a, teacher, { status: 'pending', title: 'Approved elsewhere' });
    const warmedAt = Date.now();
    expect(await titlesOnB()).not.toContain(pending.title);

    const shown = await a.app.inject({ method: 'GET', url: `/api/classes/${pending.id}`, headers: admin.headers });
    const approve = await a.app.inject({
      method: 'PATCH',
      url: `/api/classes/class-requests/${pending.id}/approve`,
      headers: admin.headers,
      payload: { version: shown.json().version },
    });
    expect(approve.statusCode).toBe(200);
    const approvedAt = Date.now();

    // Within the TTL of B's cached page, B may still serve the page without the class.
    const within = await titlesOnB();
    if (Date.now() < warmedAt + TTL_MS) expect(within).not.toContain(pending.title);

    // After the TTL (counted from the approval), B shows it.
    await sleep(Math.max(0, approvedAt + TTL_MS + 50 - Date.now()));
    expect(await titlesOnB()).toContain(pending.title);
  });

  it('stops showing a class deleted on A on B at most the cache TTL later', async () => {
    const doomed = await createClass(a, teacher, { title: 'Deleted elsewhere' });
    await sleep(TTL_MS + 50);
    const warmedAt = Date.now();
    expect(await titlesOnB()).toContain(doomed.title);

    const del = await a.app.inject({ method: 'DELETE', url: `/api/classes/${doomed.id}`, headers: admin.headers });
    expect(del.statusCode).toBe(200);
    const deletedAt = Date.now();

    const within = await titlesOnB();
    if (Date.now() < warmedAt + TTL_MS) expect(within).toContain(doomed.title);
    // The class page itself is never cached: B answers 404 at once.
    expect((await b.inject({ method: 'GET', url: `/api/classes/${doomed.id}` })).statusCode).toBe(404);

    await sleep(Math.max(0, deletedAt + TTL_MS + 50 - Date.now()));
    expect(await titlesOnB()).not.toContain(doomed.title);
  });
});

const AUTH_SECRET = 'test-secret-that-is-long-enough-1234567890';

describe.skipIf(!hasRedisServer)('two instances and Redis: live notifications', () => {
  let redisServer: RedisProcess;
  const clients: Redis[] = [];
  let a: TestContext;
  let b: Awaited<ReturnType<typeof buildApp>>['app'];
  /** A third instance on the same database without Redis: what B would be without it. */
  let alone: Awaited<ReturnType<typeof buildApp>>['app'];
  let teacher: Caller & { name: string };
  let student: Caller & { name: string };
  let classId: string;
  const streams: SseConnection[] = [];

  const redisClient = (url: string) => {
    const client = createRedis(url, { connectTimeoutMs: 500, commandTimeoutMs: 500, log: { info() {}, warn() {} } });
    clients.push(client);
    return client;
  };
  const originOf = (app: { server: { address(): unknown } }) =>
    `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const listenOn = async (app: typeof b) => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app;
  };
  const streamOn = async (app: typeof b, headers: Record<string, string> = {}) => {
    const connection = await openSse(`${originOf(app)}/api/notifications/stream`, { ...teacher.headers, ...headers });
    streams.push(connection);
    expect(connection.status).toBe(200);
    return connection;
  };
  /** The student writes to the teacher through A, over HTTP. */
  const askThroughA = async (body: string) => {
    const res = await fetch(`${originOf(a.app)}/api/classes/${classId}/messages`, {
      method: 'POST',
      headers: { ...student.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ body }),
    });
    expect(res.status).toBe(201);
  };
  const bodyOf = (event: { data: string }) => (JSON.parse(event.data) as { body: string }).body;

  beforeAll(async () => {
    redisServer = await startRedisServer();
    const [redisA, redisB] = [redisClient(redisServer.url), redisClient(redisServer.url)];
    await waitFor(async () => redisA.status === 'ready' && redisB.status === 'ready', 5_000, 'the Redis clients');
    a = await createTestApp(
      { ...FAST_SIGNUP_ENV, REDIS_URL: redisServer.url },
      { redis: redisA, authSecret: AUTH_SECRET },
    );
    await listenOn(a.app);
    const another = async (redis: Redis | undefined) =>
      (
        await buildApp({
          env: a.env,
          database: a.database,
          storage: a.storage,
          authSecret: AUTH_SECRET,
          logger: false,
          webRoot: path.join(a.dataDir, 'no-web'),
          redis,
        })
      ).app;
    b = await listenOn(await another(redisB));
    alone = await listenOn(await another(undefined));
    [teacher, student] = await Promise.all([
      createCaller(a, 'teacher', { name: 'Tess Teacher' }),
      createCaller(a, 'student', { name: 'Stu Student' }),
    ]);
    classId = (await createClass(a, teacher, { title: 'Across instances' })).id;
  }, 60_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await alone?.close();
    await b?.close();
    await a?.close();
    for (const client of clients) client.disconnect();
    await redisServer?.kill();
  });

  it('a message sent through A arrives on a stream connected to B, not on one without Redis', async () => {
    const onB = await streamOn(b);
    const withoutRedis = await streamOn(alone);
    await askThroughA('Through A, to B');
    const event = await onB.next(3_000);
    expect(bodyOf(event)).toBe('Through A, to B');
    expect(JSON.parse(event.data)).toMatchObject({
      kind: 'message',
      title: 'Stu Student wrote about Across instances',
    });
    // The instance without Redis hears nothing of it: Redis carried it, not this process.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(withoutRedis.pending()).toEqual([]);
    onB.close();
    withoutRedis.close();
  });

  it('with Redis down, sending still works; B catches up when Redis is back, and a reconnection resumes from its cursor', async () => {
    const onB = await streamOn(b);
    await askThroughA('Before the outage');
    const last = await onB.next(3_000);
    const port = Number(new URL(redisServer.url).port);
    await redisServer.kill();
    await askThroughA('During the outage');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(onB.pending()).toEqual([]);

    // A reconnection to B with Last-Event-ID (what the browser sends) has it at once.
    const resumed = await streamOn(b, { 'last-event-id': last.id! });
    expect(bodyOf(await resumed.next(3_000))).toBe('During the outage');
    resumed.close();

    // The stream that stayed open gets it once B's subscription is back.
    redisServer = await startRedisServer(port);
    expect(bodyOf(await onB.next(10_000))).toBe('During the outage');
    await waitFor(async () => clients.every((client) => client.status === 'ready'), 10_000, 'Redis clients back');
    await askThroughA('After the outage');
    expect(bodyOf(await onB.next(3_000))).toBe('After the outage');
    onB.close();
  }, 30_000);
});

const serverUrl = process.env.TEST_DATABASE_URL;

// Concurrent migrations need a PostgreSQL server (PGlite is one process's database, and its
// data directory is locked against a second one): this part runs on the PostgreSQL pass.
describe.runIf(serverUrl)('instances starting together on a fresh PostgreSQL database', () => {
  const name = `skillhive_migrate_${process.pid}_${randomBytes(4).toString('hex')}`;
  let url: string;
  const opened: Database[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const target = new URL(serverUrl!);
    target.pathname = `/${name}`;
    url = target.toString();
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it('applies every migration exactly once when four instances migrate at the same time', async () => {
    const instances = await Promise.all([1, 2, 3, 4].map(() => openPostgres(url, 3)));
    opened.push(...instances);
    // database.migrate() takes the advisory lock itself (db/client.ts openPostgres).
    const results = await Promise.allSettled(instances.map((d) => d.migrate()));
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
    const applied = await rawRows<{ hash: string }>(
      instances[0]!.db,
      sql`select hash from drizzle.__drizzle_migrations`,
    );
    expect(new Set(applied.map((m) => m.hash)).size).toBe(applied.length);
    expect(applied.length).toBeGreaterThan(0);
    // The schema is whole: a query over the last tables works.
    await expect(instances[1]!.ping()).resolves.toBeUndefined();
    await rawRows(instances[2]!.db, sql`select count(*) from payments join enrollments on true`);
  });
});
