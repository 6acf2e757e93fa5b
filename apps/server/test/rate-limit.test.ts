import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@skillhive/shared/contracts/errors';
import { createLimiter } from '../src/lib/rate-limit.ts';
import { createTestApp, signUp, TEST_PASSWORD, tokenFor, type TestContext, type TestUser } from './harness.ts';

/**
 * Rate limits (decision 009), in every environment: failed sign-ins per (account, address), sign-ins
 * and sign-ups per address, token issuance; X-Forwarded-For only behind a trusted proxy.
 */
const WRONG = 'Wrong#Pass1';

let direct: TestContext; // no proxy in front: the socket address counts
let proxied: TestContext; // TRUST_PROXY=true, small limits so they are reached quickly
beforeAll(async () => {
  [direct, proxied] = await Promise.all([
    createTestApp(),
    createTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_AUTH_PER_MINUTE: '8', RATE_LIMIT_TOKENS_PER_MINUTE: '2' }),
  ]);
});
afterAll(async () => {
  await Promise.all([direct?.close(), proxied?.close()]);
});

function signIn(
  ctx: TestContext,
  email: string,
  password: string,
  from: { remoteAddress?: string; forwardedFor?: string } = {},
) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email, password },
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
    headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
  });
}

function expectRateLimited(response: Awaited<ReturnType<typeof signIn>>) {
  expect(response.statusCode).toBe(429);
  const body = ErrorBody.parse(response.json());
  expect(body.error.code).toBe('rate_limited');
  expect(body.error.message).toMatch(/too many/i);
  expect(body.requestId).toBe(response.headers['x-request-id']);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

describe('failed sign-ins per (account, address)', () => {
  let victim: TestUser;
  let neighbour: TestUser;
  beforeAll(async () => {
    victim = await signUp(direct);
    neighbour = await signUp(direct);
  });

  it('answers the sixth wrong password with 429 in the standard error shape', async () => {
    const from = { remoteAddress: '198.51.100.7' };
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await signIn(direct, victim.email, WRONG, from)).statusCode).toBe(401);
    }
    const sixth = await signIn(direct, victim.email, WRONG, from);
    expectRateLimited(sixth);
    // better-auth's web client reads the top-level message of /api/auth errors.
    expect(sixth.json().message).toBe(sixth.json().error.message);
    // It says how long the lockout lasts: the 15-minute window, rounded up, as Retry-After counts it.
    expect(sixth.json().error.message).toBe('Too many attempts. Please try again in 15 minutes.');
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // Locked for this account from this address, even with the right password…
    expectRateLimited(await signIn(direct, victim.email.toUpperCase(), TEST_PASSWORD, from));
    // …while other accounts still sign in from the same address (a school behind one NAT),
    expect((await signIn(direct, neighbour.email, TEST_PASSWORD, from)).statusCode).toBe(200);
    // and the account itself still signs in from another address.
    expect((await signIn(direct, victim.email, TEST_PASSWORD, { remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: rotating it does not get more attempts', async () => {
    const user = await signUp(direct);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await signIn(direct, user.email, WRONG, {
        remoteAddress: '198.51.100.20',
        forwardedFor: `10.0.0.${attempt}`,
      });
      expect(response.statusCode).toBe(401);
    }
    expectRateLimited(
      await signIn(direct, user.email, WRONG, { remoteAddress: '198.51.100.20', forwardedFor: '10.0.0.99' }),
    );
  });

  it('keys on the forwarded client address when TRUST_PROXY is set', async () => {
    const user = await signUp(proxied);
    const proxy = { remoteAddress: '127.0.0.1' };
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await signIn(proxied, user.email, WRONG, { ...proxy, forwardedFor: '192.0.2.1' })).statusCode).toBe(401);
    }
    expectRateLimited(await signIn(proxied, user.email, WRONG, { ...proxy, forwardedFor: '192.0.2.1' }));
    // Another client behind the same proxy is a different address.
    expect((await signIn(proxied, user.email, TEST_PASSWORD, { ...proxy, forwardedFor: '192.0.2.2' })).statusCode).toBe(
      200,
    );
  });

  it('lets no more than five guesses through when they arrive all at once', async () => {
    const user = await signUp(direct);
    const from = { remoteAddress: '198.51.100.40' };
    const burst = await Promise.all(Array.from({ length: 10 }, () => signIn(direct, user.email, WRONG, from)));
    const statuses = burst.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('clears the count after a successful sign-in', async () => {
    const user = await signUp(direct);
    const from = { remoteAddress: '198.51.100.30' };
    for (let attempt = 1; attempt <= 4; attempt++) await signIn(direct, user.email, WRONG, from);
    expect((await signIn(direct, user.email, TEST_PASSWORD, from)).statusCode).toBe(200);
    for (let attempt = 1; attempt <= 5; attempt++)
      expect((await signIn(direct, user.email, WRONG, from)).statusCode).toBe(401);
  });
});

describe('sign-ins and sign-ups per address', () => {
  it('limits the volume from one address and not from another', async () => {
    const user = await signUp(proxied);
    const from = (ip: string) => ({ remoteAddress: '127.0.0.1', forwardedFor: ip });
    // RATE_LIMIT_AUTH_PER_MINUTE=8 here: sign-ins, sign-ups and third-party starts share it.
    for (let i = 0; i < 6; i++)
      expect((await signIn(proxied, user.email, TEST_PASSWORD, from('192.0.2.50'))).statusCode).toBe(200);
    const signUpResponse = await proxied.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'x-forwarded-for': '192.0.2.50' },
      payload: {},
    });
    expect(signUpResponse.statusCode).toBe(400);
    const social = await proxied.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/social',
      headers: { 'x-forwarded-for': '192.0.2.50' },
      payload: { provider: 'google' },
    });
    expect(social.statusCode).toBe(404);
    expectRateLimited(await signIn(proxied, user.email, TEST_PASSWORD, from('192.0.2.50')));
    expectRateLimited(
      await proxied.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { 'x-forwarded-for': '192.0.2.50' },
        payload: {},
      }),
    );
    expect((await signIn(proxied, user.email, TEST_PASSWORD, from('192.0.2.51'))).statusCode).toBe(200);
  });

  it('does not limit reading the session', async () => {
    const user = await signUp(proxied, {});
    for (let i = 0; i < 12; i++) {
      const response = await proxied.app.inject({ url: '/api/auth/get-session', headers: user.headers });
      expect(response.statusCode).toBe(200);
    }
  });
});

describe('token issuance', () => {
  it('is limited per user', async () => {
    const user = await signUp(proxied, {});
    await tokenFor(proxied, user);
    await tokenFor(proxied, user);
    const third = await proxied.app.inject({
      method: 'POST',
      url: '/api/jwt',
      headers: user.headers,
      payload: { email: user.email },
    });
    expectRateLimited(third);
    const other = await signUp(proxied, {});
    expect(typeof (await tokenFor(proxied, other))).toBe('string');
  });
});

/** A real Redis on loopback, when the machine has redis-server: counters shared by instances. */
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A connected client (the limiter falls back to memory while its client is not ready). */
async function connect(url: string): Promise<Redis> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    client.disconnect();
    throw error;
  }
}

describe.skipIf(!hasRedis)('counters in Redis (REDIS_URL)', () => {
  let server: ChildProcess;
  let clients: Redis[] = [];
  let url: string;
  beforeAll(async () => {
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    for (let attempt = 0; attempt < 100; attempt++) {
      const probe = await connect(url).catch(() => null);
      if (probe) {
        probe.disconnect();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    if (server?.pid) process.kill(server.pid);
  });

  it('shares one count between app instances', async () => {
    clients = [await connect(url), await connect(url)];
    const options = { name: `login-failures-${Date.now()}`, points: 5, durationSeconds: 900 };
    const [a, b] = clients.map((redis) => createLimiter({ ...options, redis })) as [
      ReturnType<typeof createLimiter>,
      ReturnType<typeof createLimiter>,
    ];
    for (let i = 0; i < 3; i++) await a.consume('ada@example.test|198.51.100.1');
    for (let i = 0; i < 2; i++) await b.consume('ada@example.test|198.51.100.1');
    await expect(a.check('ada@example.test|198.51.100.1')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(b.consume('ada@example.test|198.51.100.1')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(b.check('grace@example.test|198.51.100.1')).resolves.toBeUndefined();
    await a.reset('ada@example.test|198.51.100.1');
    await expect(b.check('ada@example.test|198.51.100.1')).resolves.toBeUndefined();
  });

  it('keeps counting in memory when Redis is unreachable, instead of failing', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    dead.on('error', () => undefined);
    clients.push(dead);
    const limiter = createLimiter({ name: 'offline', points: 2, durationSeconds: 60, redis: dead });
    await limiter.consume('k');
    await limiter.consume('k');
    await expect(limiter.consume('k')).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
