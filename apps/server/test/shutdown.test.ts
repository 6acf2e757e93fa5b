import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@skillhive/shared/contracts/errors';
import { freePort, sleep, spawnServer, waitReady, type ServerProcess } from './fault-helpers.ts';
import { openSse } from './sse-client.ts';

/**
 * Graceful shutdown (docs/OPERATIONS.md) of a real `node src/server.ts`: on SIGTERM a request in
 * flight finishes, a new request on a kept-alive connection gets 503 + Connection: close in the
 * standard envelope, new connections are refused, an open notification stream (decision 047) is
 * ended instead of holding the stop, and the process exits 0.
 * Embedded mode only: the sequence does not depend on the database, and PGlite is the default.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-shutdown-'));
let server: ServerProcess | undefined;
afterAll(() => {
  server?.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads HTTP/1.1 responses (with Content-Length) off one socket, in order. */
function responseReader(socket: Socket) {
  let buffer = Buffer.alloc(0);
  let wake = () => {};
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake();
  });
  return async function next(timeoutMs = 10_000): Promise<RawResponse> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end !== -1) {
        const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length >= end + 4 + length) {
          const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
          buffer = buffer.subarray(end + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body };
        }
      }
      if (Date.now() > until) throw new Error(`no complete response: ${buffer.toString('latin1')}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  };
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('graceful shutdown', () => {
  it('finishes the request in flight, answers 503 + Connection: close to the next one, exits 0', async () => {
    const port = await freePort();
    server = spawnServer(port, { DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: '10000' });
    await waitReady(server);
    const origin = server.origin;
    const email = 'shutdown@example.test';
    const password = 'Keep!123';
    const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({
        name: 'Down',
        email,
        password,
        phone: '+1 555 010 12345',
        image: 'https://example.test/a.png',
      }),
    });
    expect(signUp.status).toBe(200);
    // A notification stream, open until the server ends it.
    const signedIn = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email, password }),
    });
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const stream = await openSse(`${origin}/api/notifications/stream`, { cookie });
    expect(stream.status).toBe(200);

    // A sign-in whose body is still arriving when SIGTERM comes: a request in flight.
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const next = responseReader(socket);
    const body = JSON.stringify({ email, password });
    socket.write(
      'POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        `Origin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 10),
    );
    await sleep(300);
    server.child.kill('SIGTERM');
    await sleep(500);

    // New connections are no longer accepted…
    await expect(fetch(`${origin}/api/health`)).rejects.toThrow();
    expect(server.child.exitCode).toBeNull();

    // …the request in flight completes…
    socket.write(body.slice(10));
    const inFlight = await next();
    expect(inFlight.status).toBe(200);
    expect(JSON.parse(inFlight.body).user.email).toBe(email);

    // …and the next request on the same kept-alive connection is turned away, in the envelope.
    socket.write('GET /api/classes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const turnedAway = await next();
    expect(turnedAway.status).toBe(503);
    expect(turnedAway.headers.connection).toBe('close');
    expect(Number(turnedAway.headers['retry-after'])).toBeGreaterThan(0);
    expect(ErrorBody.parse(JSON.parse(turnedAway.body)).error.code).toBe('unavailable');
    socket.destroy();

    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/took too long/);
    await stream.ended;
  }, 60_000);
});
