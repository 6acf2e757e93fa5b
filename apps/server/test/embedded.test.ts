import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, waitReady } from './fault-helpers.ts';

/**
 * The embedded database as a user runs it: real `node src/server.ts` processes on one DATA_DIR.
 * Runs on PGlite only: it is about the embedded mode.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-embedded-'));
const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** better-auth accepts cookie-bearing POSTs only from PUBLIC_URL's origin (spawnServer's). */
function origin(port: number): string {
  return `http://127.0.0.1:${port}`;
}

function start(port: number) {
  const server = spawnServer(port, { DATA_DIR: dataDir });
  running.add(server.child);
  void server.exited.then(() => running.delete(server.child));
  return server;
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
    await waitReady(first);
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
    await waitReady(third);
    expect(await signIn(port, 'kept-1@example.test')).toBe(200);

    // SIGKILL of an idle server: the acknowledged write is still there after restart.
    await signUp(port, 'kept-2@example.test');
    third.child.kill('SIGKILL');
    await third.exited;
    const fourth = start(port);
    await waitReady(fourth);
    expect(await signIn(port, 'kept-1@example.test')).toBe(200);
    expect(await signIn(port, 'kept-2@example.test')).toBe(200);
    fourth.child.kill('SIGTERM');
    expect(await fourth.exited).toBe(0);
  }, 90_000);
});
