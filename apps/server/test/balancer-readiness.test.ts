import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../src/lib/redis.ts';
import { hasRedisServer, sleep, startRedisServer, waitFor, type RedisProcess } from './fault-helpers.ts';
import { createTestApp, type TestContext } from './harness.ts';

/**
 * Readiness means "this instance can serve" (decision 029): two instances sharing one Redis behind
 * HAProxy configured as docs/OPERATIONS.md prescribes ("Rolling restart"). With that Redis frozen
 * (SIGSTOP) or stopped, every instance still serves, so the balancer must keep them UP and answer
 * no request with 503; /api/ready reports Redis as degraded.
 */
const hasHaproxy = spawnSync('haproxy', ['-v']).status === 0;
const PORTS = [3160, 3161] as const;
const LB_PORT = 3162;
const LB = `http://127.0.0.1:${LB_PORT}`;
const METRICS_TOKEN = 'balancer-readiness-metrics-token';

let redisServer: RedisProcess;
const clients: Redis[] = [];
const instances: TestContext[] = [];
let haproxy: ChildProcess | undefined;
let work: string;

beforeAll(async () => {
  if (!hasRedisServer || !hasHaproxy) return;
  redisServer = await startRedisServer();
  for (const port of PORTS) {
    const redis = createRedis(redisServer.url, {
      connectTimeoutMs: 500,
      commandTimeoutMs: 500,
      log: { info: () => {}, warn: () => {} },
    });
    clients.push(redis);
    await waitFor(async () => redis.status === 'ready', 5_000, 'the Redis client');
    const ctx = await createTestApp({ REDIS_URL: redisServer.url, METRICS_TOKEN }, { redis });
    instances.push(ctx);
    await ctx.app.listen({ port, host: '127.0.0.1' });
  }
  work = mkdtempSync(path.join(tmpdir(), 'skillhive-lb-'));
  const config = path.join(work, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 256',
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 30s',
      '  timeout server 30s',
      // docs/OPERATIONS.md "Rolling restart", as written there.
      '  timeout check 2s',
      '  retries 3',
      '  option redispatch 1',
      '  retry-on conn-failure empty-response response-timeout 503',
      'frontend skillhive',
      `  bind 127.0.0.1:${LB_PORT}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /api/ready',
      '  http-check expect status 200',
      '  default-server check inter 500ms fall 1 rise 1',
      ...PORTS.map((port, i) => `  server app${i + 1} 127.0.0.1:${port}`),
      '',
    ].join('\n'),
  );
  haproxy = spawn('haproxy', ['-f', config, '-db'], { stdio: 'ignore' });
  await waitFor(async () => (await fetch(`${LB}/api/health`).catch(() => null))?.ok === true, 10_000, 'haproxy');
}, 60_000);

afterAll(async () => {
  if (haproxy && haproxy.exitCode === null) {
    const exited = new Promise((resolve) => haproxy!.once('exit', resolve));
    haproxy.kill('SIGTERM');
    await exited;
  }
  for (const ctx of instances) await ctx.close();
  for (const redis of clients) redis.disconnect();
  await redisServer?.kill();
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Catalogue reads through the balancer for `ms`, and at least ten of them however slow the machine
 * is: the statuses seen.
 */
async function loadThroughBalancer(ms: number): Promise<number[]> {
  const statuses: number[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until || statuses.length < 10) {
    const res = await fetch(`${LB}/api/classes?limit=6`);
    await res.arrayBuffer();
    statuses.push(res.status);
    await sleep(25);
  }
  return statuses;
}

async function readyOf(port: number) {
  const res = await fetch(`http://127.0.0.1:${port}/api/ready`);
  return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
}

describe.skipIf(!hasRedisServer || !hasHaproxy)('HAProxy in front of instances whose Redis fails', () => {
  it('serves every request while Redis answers', async () => {
    const statuses = await loadThroughBalancer(1_000);
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(await readyOf(PORTS[0])).toMatchObject({ status: 200, body: { status: 'ready' } });
  }, 20_000);

  it('keeps both instances in the balancer while Redis is frozen: no 503, readiness says degraded', async () => {
    redisServer.freeze();
    try {
      // Six health-check intervals and more: an instance failing its check would be out by then.
      const statuses = await loadThroughBalancer(4_000);
      expect(statuses.length).toBeGreaterThan(5);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      for (const port of PORTS) {
        const ready = await readyOf(port);
        expect(ready).toMatchObject({ status: 200, body: { status: 'degraded', degraded: ['redis'] } });
        expect(ready.body.checks).toMatchObject({ database: 'ok', redis: expect.not.stringMatching(/^ok$/) });
      }
    } finally {
      redisServer.thaw();
    }
  }, 30_000);

  it('keeps both instances in the balancer once Redis is stopped', async () => {
    await redisServer.kill();
    const statuses = await loadThroughBalancer(4_000);
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (const port of PORTS) {
      expect(await readyOf(port)).toMatchObject({ status: 200, body: { status: 'degraded', degraded: ['redis'] } });
    }
    // The gauge reports it too (decision 029): Redis 0, the database 1.
    const metrics = await instances[0]!.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/^skillhive_dependency_up\{dependency="redis"\} 0$/m);
    expect(metrics.body).toMatch(/^skillhive_dependency_up\{dependency="database"\} 1$/m);
  }, 30_000);
});
