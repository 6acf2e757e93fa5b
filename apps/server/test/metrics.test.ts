import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gauge } from 'prom-client';
import { queueMail, teacherRequestDecidedMail } from '../src/modules/mail/mail.service.ts';
import { createMetricsRegistry, secretsEqual } from '../src/plugins/metrics.ts';
import { createTestApp, type TestContext } from './harness.ts';

/** Prometheus metrics at GET /metrics (docs/OPERATIONS.md "Metrics"). */

const TOKEN = 'metrics-token-for-tests-0123456789';
const HOUR_MS = 60 * 60_000;

/** The value of one sample line `name{labels} value` whose labels include every given pair. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((pair) => l.includes(pair)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('answers 404 (and not the web app), whatever the Authorization', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(plain.statusCode).toBe(404);
    const withHeader = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(withHeader.statusCode).toBe(404);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let ctx: TestContext;
  const registry = createMetricsRegistry();
  beforeAll(async () => {
    // This instance's clock runs an hour ahead of the database's: the outbox's lag is measured on
    // the database's clock (decision 032), so it does not see the hour.
    ctx = await createTestApp(
      { METRICS_TOKEN: TOKEN },
      { metrics: registry, now: () => new Date(Date.now() + HOUR_MS) },
    );
  });
  afterAll(() => ctx.close());

  const scrape = async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('refuses a missing, wrong or non-Bearer token with 401', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, 'Bearer ']) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toContain('skillhive_http');
    }
  });

  it('serves Prometheus text with process metrics to the right token', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('skillhive_process_cpu_seconds_total');
    expect(res.body).toContain('skillhive_nodejs_eventloop_lag_seconds');
    if (ctx.database.kind === 'postgres') {
      expect(res.body).toMatch(/^skillhive_db_pool_total \d+$/m);
      expect(res.body).toMatch(/^skillhive_db_pool_waiting \d+$/m);
    } else {
      expect(res.body).not.toContain('skillhive_db_pool_total');
    }
  });

  it('moves the per-route histogram by route pattern, method and status class, and counts errors', async () => {
    const route = '/api/classes/:id';
    const before = await scrape();
    const countBefore = sample(before, 'skillhive_http_request_duration_seconds_count', {
      route,
      method: 'GET',
      status_class: '4xx',
    });
    const errorsBefore = sample(before, 'skillhive_http_errors_total', { route, method: 'GET', status: '404' });
    for (const id of ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/classes/${id}` });
      expect(res.statusCode).toBe(404);
    }
    await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const after = await scrape();
    expect(
      sample(after, 'skillhive_http_request_duration_seconds_count', { route, method: 'GET', status_class: '4xx' }),
    ).toBe(countBefore + 2);
    expect(sample(after, 'skillhive_http_errors_total', { route, method: 'GET', status: '404' })).toBe(
      errorsBefore + 2,
    );
    expect(
      sample(after, 'skillhive_http_requests_total', { route: '/api/health', method: 'GET', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    // Never the raw URL as a label.
    expect(after).not.toContain('00000000-0000-4000-8000-000000000001');
    // A bucket line exists for the pattern.
    expect(after).toMatch(
      /skillhive_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/health"/,
    );
  });

  it('shows the outbox: mails waiting and how long the oldest has waited', async () => {
    const before = await scrape();
    expect(before).toMatch(/^skillhive_mail_outbox_pending 0$/m);
    expect(before).toMatch(/^skillhive_mail_outbox_oldest_pending_seconds 0$/m);
    for (const to of ['a@example.test', 'b@example.test']) {
      await queueMail(ctx.db, to, teacherRequestDecidedMail({ publicUrl: 'http://x', name: 'A', approved: true }));
    }
    const after = await scrape();
    expect(after).toMatch(/^skillhive_mail_outbox_pending 2$/m);
    const lag = /^skillhive_mail_outbox_oldest_pending_seconds (\S+)$/m.exec(after);
    expect(Number(lag?.[1])).toBeGreaterThanOrEqual(0);
    expect(Number(lag?.[1])).toBeLessThan(60);
  });

  it('serves gauges other modules add to the registry after start-up', async () => {
    const depth = new Gauge({ name: 'skillhive_test_outbox_depth', help: 'test gauge', registers: [registry] });
    depth.set(3);
    expect(await scrape()).toMatch(/^skillhive_test_outbox_depth 3$/m);
  });

  it('compares tokens in constant time, whatever their lengths', () => {
    expect(secretsEqual(TOKEN, TOKEN)).toBe(true);
    expect(secretsEqual('short', TOKEN)).toBe(false);
    expect(secretsEqual('', TOKEN)).toBe(false);
  });
});

describe('request ids', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('accepts an upstream x-request-id and echoes it, in responses and error bodies', async () => {
    const id = 'lb-req-0123456789abcdef';
    const ok = await ctx.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': id } });
    expect(ok.headers['x-request-id']).toBe(id);
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/nope', headers: { 'x-request-id': id } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe(id);
    expect((missing.json() as { requestId: string }).requestId).toBe(id);
  });

  it('makes its own id when there is none or the upstream one is malformed', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id<script>' },
    });
    expect(bad.headers['x-request-id']).not.toBe('bad id<script>');
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
