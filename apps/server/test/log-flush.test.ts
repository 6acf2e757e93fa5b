import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, waitFor } from './fault-helpers.ts';

/**
 * Logs leave through pino's asynchronous destination (decision 035): a graceful stop must not lose
 * the lines buffered when it began. The built server (`npm run build`, done by `npm ci`), its stdout
 * a file, answers bursts of requests; it gets SIGTERM as the last answer arrives, and every
 * request's line must be in the file, whole, with the request id and the URL without its query.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT = path.join(ROOT, 'apps/server/dist/server.js');
const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-logflush-'));
const REQUESTS = 1_500;
const ids = Array.from({ length: REQUESTS }, (_, i) => `flush-${String(i).padStart(6, '0')}`);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.skipIf(!existsSync(BUILT))('log lines at a graceful stop', () => {
  it('are all written, one per request, when SIGTERM comes while many are buffered', async () => {
    const port = await freePort();
    const logFile = path.join(dataDir, 'stdout.log');
    const out = openSync(logFile, 'w');
    const server = spawn(process.execPath, [BUILT], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        SEED: 'false',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', out, 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    closeSync(out);
    try {
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => null))?.ok === true,
        90_000,
        'the server to be ready',
      );
      for (let i = 0; i < ids.length; i += 50) {
        await Promise.all(
          ids.slice(i, i + 50).map(async (id) => {
            const answer = await fetch(`http://127.0.0.1:${port}/api/health?who=ada%40example.test`, {
              headers: { 'x-request-id': id },
            });
            expect(answer.status).toBe(200);
          }),
        );
      }
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
    }

    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'));
    // Every line is whole JSON: nothing was cut or interleaved at exit.
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const perRequest = entries.filter((entry) => String(entry.reqId ?? '').startsWith('flush-'));
    expect(perRequest.map((entry) => entry.reqId).sort()).toEqual(ids);
    expect(perRequest[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/health?[redacted]' },
      route: '/api/health',
      res: { statusCode: 200 },
    });
    expect(typeof perRequest[0]!.responseTime).toBe('number');
    expect(lines.join('\n')).not.toContain('example.test');
    // The shutdown's own line comes after them.
    expect(entries.at(-1)?.msg).toBe('shutting down');
  }, 180_000);
});
