import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env.ts';
import { createTestApp, type TestContext } from './harness.ts';

/**
 * Request logs as a person running `npm run dev` reads them: LOG_FORMAT=short gives one short line
 * per request, LOG_REQUESTS=false none; production keeps pino's JSON lines (decision 035).
 */
const contexts: TestContext[] = [];
afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.close()));
});

async function linesOf(env: Record<string, string>, url: string): Promise<string[]> {
  const lines: string[] = [];
  const ctx = await createTestApp(
    { LOG_LEVEL: 'info', ...env },
    { logger: true, logStream: { write: (line: string) => lines.push(line) } },
  );
  contexts.push(ctx);
  expect((await ctx.app.inject({ url, headers: { 'x-request-id': 'dev-logs-0001' } })).statusCode).toBe(200);
  return lines;
}

describe('development request logs', () => {
  it('are one short line per request with LOG_FORMAT=short', async () => {
    const lines = await linesOf({ LOG_FORMAT: 'short' }, '/api/health?probe=1');
    expect(lines).toHaveLength(1);
    // The query string stays out, as in the JSON line.
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d GET \/api\/health\?\[redacted\] 200 [\d.]+ms\n$/);
  });

  it('are off with LOG_REQUESTS=false', async () => {
    expect(await linesOf({ LOG_FORMAT: 'short', LOG_REQUESTS: 'false' }, '/api/health')).toEqual([]);
  });

  it('stay JSON otherwise, with the request id', async () => {
    const lines = await linesOf({}, '/api/health');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      msg: 'request completed',
      reqId: 'dev-logs-0001',
      res: { statusCode: 200 },
    });
  });

  it('default to short in development and JSON in production', () => {
    const base = { DATA_DIR: '/tmp/skillhive-env-test', AUTH_SECRET: 'x'.repeat(40), PAYMENTS_GATEWAY: 'test' };
    expect(loadEnv({ ...base, NODE_ENV: 'development' }).logFormat).toBe('short');
    expect(loadEnv({ ...base, NODE_ENV: 'production' }).logFormat).toBe('json');
    expect(loadEnv({ ...base, NODE_ENV: 'production', LOG_FORMAT: 'short' }).logFormat).toBe('short');
    expect(() => loadEnv({ ...base, LOG_FORMAT: 'pretty' })).toThrow(/LOG_FORMAT/);
  });
});
