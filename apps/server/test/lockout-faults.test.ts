import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openPostgres, type Database } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { createRedis } from '../src/lib/redis.ts';
import { createLocalStorage } from '../src/modules/uploads/storage.public.ts';
import {
  hasPostgresBinaries,
  hasRedisServer,
  startPgCluster,
  startRedisServer,
  waitFor,
  type PgCluster,
} from './fault-helpers.ts';
import { createTestApp, signUp, TEST_PASSWORD } from './harness.ts';

/**
 * The sign-in lockout under faults (decision 028): an attempt the database could not judge is no
 * failed guess, so an outage locks no one out once the database is back. A PostgreSQL cluster of
 * this test's own is stopped and started with pg_ctl; a redis-server of its own is killed.
 */
let cluster: PgCluster;
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>['app'];
let dataDir: string;

beforeAll(async () => {
  cluster = await startPgCluster();
  dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-lockout-faults-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    DATABASE_URL: cluster.url,
    DB_CONNECT_TIMEOUT_MS: '1000',
    DB_QUERY_TIMEOUT_MS: '1500',
    DB_STATEMENT_TIMEOUT_MS: '1000',
    READY_CHECK_TIMEOUT_MS: '1000',
  });
  database = await openPostgres(cluster.url, {
    poolSize: 4,
    connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: env.DB_QUERY_TIMEOUT_MS,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
  });
  await database.migrate();
  ({ app } = await buildApp({
    env,
    database,
    storage: createLocalStorage(env.uploadDir),
    authSecret: 'test-secret-that-is-long-enough-1234567890',
    logger: false,
  }));
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.close().catch(() => {});
  cluster?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function signIn(email: string, password: string) {
  return app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password } });
}

describe.skipIf(!hasPostgresBinaries)('the sign-in lockout while the database is down', () => {
  it('gives back the point of every sign-in that ended in 503', async () => {
    const user = await signUp({ app, db: database.db });
    cluster.stop();
    try {
      for (let i = 0; i < 7; i++) expect((await signIn(user.email, TEST_PASSWORD)).statusCode).toBe(503);
    } finally {
      cluster.start();
    }
    await waitFor(async () => (await app.inject('/api/ready')).statusCode === 200, 15_000, 'the database');
    expect((await signIn(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    // Wrong passwords still count: five, then the lockout.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(user.email, `Wrong!Pass${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  }, 90_000);
});

describe.skipIf(!hasRedisServer)('the sign-in lockout while Redis is down', () => {
  it('keeps an account locked, and keeps counting, after Redis dies', async () => {
    const server = await startRedisServer();
    const redis: Redis = createRedis(server.url, {
      connectTimeoutMs: 500,
      commandTimeoutMs: 300,
      log: { info: () => {}, warn: () => {} },
    });
    await waitFor(async () => redis.status === 'ready', 5_000, 'the Redis client');
    const ctx = await createTestApp({ REDIS_URL: server.url }, { redis });
    const attempt = (email: string, password: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password } });
    try {
      const locked = await signUp(ctx);
      const counted = await signUp(ctx);
      const before: number[] = [];
      for (let i = 0; i < 6; i++) before.push((await attempt(locked.email, `Wrong!Pass${i}`)).statusCode);
      expect(before).toEqual([401, 401, 401, 401, 401, 429]);
      for (let i = 0; i < 3; i++) expect((await attempt(counted.email, `Wrong!Pass${i}`)).statusCode).toBe(401);

      await server.kill();
      // Each instance counting afresh in memory would give five new guesses here.
      expect((await attempt(locked.email, TEST_PASSWORD)).statusCode).toBe(429);
      expect((await attempt(locked.email, 'Wrong!Pass9')).statusCode).toBe(429);
      // The three failures from before the outage still count: two more, then the lockout.
      const during: number[] = [];
      for (let i = 0; i < 3; i++) during.push((await attempt(counted.email, `Wrong!Pass${i}`)).statusCode);
      expect(during).toEqual([401, 401, 429]);
    } finally {
      await ctx.close();
      redis.disconnect();
      await server.kill();
    }
  }, 60_000);
});
