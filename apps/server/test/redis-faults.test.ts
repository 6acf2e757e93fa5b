import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../src/lib/redis.ts';
import { hasRedisServer, sleep, startRedisServer, waitFor, type RedisProcess } from './fault-helpers.ts';
import { createTestApp, signUp, TEST_PASSWORD, tokenFor, type TestContext, type TestUser } from './harness.ts';

/**
 * Redis faults with a redis-server of this test's own: frozen, then killed.
 * Sign-up, sign-in and tokens keep answering promptly (rate limits count in memory meanwhile), and
 * the log says "unreachable" once, not once per reconnection attempt.
 */
let server: RedisProcess;
let redis: Redis;
let ctx: TestContext;
const logged: string[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  redis = createRedis(server.url, {
    connectTimeoutMs: 500,
    commandTimeoutMs: 300,
    log: { info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`) },
  });
  await waitFor(async () => redis.status === 'ready', 5_000, 'the Redis client');
  ctx = await createTestApp({ REDIS_URL: server.url, READY_CHECK_TIMEOUT_MS: '1000' }, { redis });
}, 30_000);

afterAll(async () => {
  await ctx?.close();
  redis?.disconnect();
  await server?.kill();
});

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const result = await work();
  return [result, Date.now() - started];
}

async function signIn(user: TestUser) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email: user.email, password: TEST_PASSWORD },
  });
  return response;
}

describe.skipIf(!hasRedisServer)('Redis faults', () => {
  it('reports Redis in readiness while it answers', async () => {
    expect((await ctx.app.inject('/api/ready')).json()).toMatchObject({ status: 'ready', checks: { redis: 'ok' } });
    expect(await redis.keys('skillhive:*')).toEqual([]);
    const user = await signUp(ctx);
    expect((await signIn(user)).statusCode).toBe(200);
    // The counters really are in Redis.
    expect((await redis.keys('skillhive:*')).length).toBeGreaterThan(0);
  });

  it('signs up, signs in and issues tokens promptly while Redis is frozen; readiness says degraded', async () => {
    const user = await signUp(ctx);
    server.freeze();
    try {
      const [signedUp, signUpMs] = await timed(() => signUp(ctx));
      expect(signedUp.email).toBeTruthy();
      const [response, signInMs] = await timed(() => signIn(user));
      expect(response.statusCode).toBe(200);
      const [token, tokenMs] = await timed(() => tokenFor(ctx, user));
      expect(typeof token).toBe('string');
      // Each waits at most a command timeout (300 ms) per counter, never indefinitely.
      expect(Math.max(signUpMs, signInMs, tokenMs)).toBeLessThan(3_000);
      // The instance serves, so it stays ready, degraded (decision 029).
      const ready = await ctx.app.inject('/api/ready');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'degraded', degraded: ['redis'] });
      expect(ready.json().checks).toMatchObject({ database: 'ok', redis: expect.not.stringMatching(/^ok$/) });
    } finally {
      server.thaw();
    }
    // Back without a restart.
    await waitFor(
      async () => (await ctx.app.inject('/api/ready')).json().status === 'ready',
      10_000,
      'readiness after the thaw',
    );
    expect(logged.filter((line) => line.startsWith('warn'))).toEqual([]);
  }, 30_000);

  it('keeps serving when Redis is killed, logging the outage once', async () => {
    const user = await signUp(ctx);
    await server.kill();
    await sleep(2_500); // several reconnection attempts
    const [response, ms] = await timed(() => signIn(user));
    expect(response.statusCode).toBe(200);
    expect(ms).toBeLessThan(2_000);
    // Rate limits still hold, counted in memory.
    for (let attempt = 1; attempt <= 5; attempt++) {
      await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email: user.email, password: 'Wrong#Pass1' },
      });
    }
    expect((await signIn(user)).statusCode).toBe(429);
    expect((await ctx.app.inject('/api/ready')).json()).toMatchObject({ status: 'degraded', degraded: ['redis'] });
    expect(logged.filter((line) => line.startsWith('warn')).length).toBe(1);
  }, 30_000);
});
