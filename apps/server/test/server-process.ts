import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The server as `npm run dev` runs it from source: a real process, started by a test. */
export const SERVER_ENTRY = fileURLToPath(new URL('../src/server.ts', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Everything the process printed so far, stdout and stderr. */
  output(): string;
}

/**
 * Starts `node src/server.ts` on 127.0.0.1 with the given settings on top of a clean environment
 * (only PATH and HOME are inherited, so the test runner's NODE_ENV does not leak in).
 */
export function startServerProcess(port: number, env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, exited, output: () => output };
}

/** Waits until GET /api/ready answers 200, or the process exits, or the time is up. */
export async function waitReady(server: ServerProcess, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let exited = false;
  void server.exited.then(() => (exited = true));
  while (Date.now() < until && !exited) {
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become ready:\n${server.output()}`);
}
