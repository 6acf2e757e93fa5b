import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lifecycle } from '../src/modules/health/lifecycle.ts';
import { createTestApp, type TestContext } from './harness.ts';

/**
 * The lifecycle hook in process (modules/health/lifecycle.ts, a synchronous hook since decision
 * 036): running and draining serve, closing answers a new request 503 with Connection: close in
 * the error envelope, before any route runs. shutdown.test.ts proves the same on a real process.
 */
describe('the lifecycle hook', () => {
  const lifecycle: Lifecycle = { phase: 'running' };
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({}, { lifecycle });
  });
  afterAll(() => ctx.close());

  it('serves while running and draining; answers 503 + Connection: close while closing', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    lifecycle.phase = 'draining';
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    lifecycle.phase = 'closing';
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/classes' });
      expect(res.statusCode).toBe(503);
      expect(res.headers.connection).toBe('close');
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.json()).toEqual({
        error: { code: 'unavailable', message: expect.any(String) },
        requestId: res.headers['x-request-id'],
      });
    } finally {
      lifecycle.phase = 'running';
    }
  });
});
