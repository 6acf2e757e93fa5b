import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The embedded database as a user runs it: real `node src/server.ts` processes on one DATA_DIR.
 * Runs on PGlite only: it is about the embedded mode.
 */
const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-embedded-'));
const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** better-auth accepts cookie-bearing POSTs only from PUBLIC_URL's origin. */
function origin(port: number): string {
  return `http://localhost:${port}`;
}

function start(port: number) {
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      PUBLIC_URL: origin(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => (running.delete(child), resolve(code))),
  );
  return { child, exited, output: () => output };
}

async function waitReady(port: number, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready');
}

async function signUp(port: number, email: string) {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: origin(port) },
    body: JSON.stringify({
      name: 'Kept',
      email,
      password: 'Keep!123',
      phone: '+1 555 010 12345',
      image: 'https://example.test/a.png',
    }),
  });
  expect(res.status).toBe(200);
}

async function signIn(port: number, email: string) {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: origin(port) },
    body: JSON.stringify({ email, password: 'Keep!123' }),
  });
  return res.status;
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('embedded mode (PGlite in DATA_DIR)', () => {
  it('locks DATA_DIR, survives SIGTERM and SIGKILL with every row', async () => {
    const port = await freePort();
    const first = start(port);
    await waitReady(port);
    await signUp(port, 'kept-1@example.test');

    // A second process on the same directory exits with a clear message; the first keeps working.
    const second = start(await freePort());
    expect(await second.exited).toBe(2);
    expect(second.output()).toMatch(/data directory .* is in use by another SkillHive process/);
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);

    // SIGTERM: a clean shutdown, then every row is there after restart.
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const third = start(port);
    await waitReady(port);
    expect(await signIn(port, 'kept-1@example.test')).toBe(200);

    // SIGKILL of an idle server: the acknowledged write is still there after restart.
    await signUp(port, 'kept-2@example.test');
    third.child.kill('SIGKILL');
    await third.exited;
    const fourth = start(port);
    await waitReady(port);
    expect(await signIn(port, 'kept-1@example.test')).toBe(200);
    expect(await signIn(port, 'kept-2@example.test')).toBe(200);
    fourth.child.kill('SIGTERM');
    expect(await fourth.exited).toBe(0);
  }, 90_000);
});
