import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real dependencies started by fault tests, on free loopback ports, so they can be stopped,
 * frozen (SIGSTOP) and killed without touching the machine's shared servers.
 */

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Repeats `probe` until it returns true or `timeoutMs` passes. */
export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await probe().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function pgBinDir(): string | null {
  const found = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}
export const hasPostgresBinaries = pgBinDir() !== null;

/**
 * initdb refuses to run as root: as root the cluster belongs to the `postgres` system user and
 * its commands run through runuser; as anyone else they run directly.
 */
const isRoot = process.getuid?.() === 0;
function asClusterUser(command: string, args: string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface PgCluster {
  url: string;
  /** Stops the server (fast shutdown: connections are closed). */
  stop(): void;
  start(): void;
  /** SIGSTOP / SIGCONT to the postmaster and every backend: a server that stops answering. */
  freeze(): void;
  thaw(): void;
  /** Stops it and removes its directory. */
  destroy(): void;
}

/** A PostgreSQL cluster of its own in a temporary directory (for faults the shared server must not see). */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) throw new Error('pg_config not found');
  const root = mkdtempSync(path.join(tmpdir(), 'skillhive-pg-'));
  const dataDir = path.join(root, 'data');
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, uid, gid);
  }
  chmodSync(root, 0o755);
  const port = await freePort();
  const run = (tool: string, args: string[]) => {
    const [command, full] = asClusterUser(path.join(bin, tool), args);
    execFileSync(command, full, { stdio: 'ignore' });
  };
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      dataDir,
      '-w',
      '-l',
      path.join(root, 'log'),
      '-o',
      `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  start();
  const processIds = (): number[] => {
    const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = spawnSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number);
    return [postmaster, ...children];
  };
  const signal = (name: NodeJS.Signals) => {
    for (const pid of processIds()) process.kill(pid, name);
  };
  const stop = () => run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    destroy: () => {
      try {
        signal('SIGCONT');
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

export interface RedisProcess {
  url: string;
  child: ChildProcess;
  freeze(): void;
  thaw(): void;
  kill(): Promise<void>;
}

/** A redis-server of the test's own, on a free port or on `port` (to bring one back where its clients look). */
export async function startRedisServer(atPort?: number): Promise<RedisProcess> {
  const port = atPort ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = createConnection(port);
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      }),
    10_000,
    'redis-server',
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    child,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export const SERVER_ENTRY = fileURLToPath(new URL('../src/server.ts', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  origin: string;
  exited: Promise<number | null>;
  output(): string;
}

/** `node src/server.ts` as a user runs it, with `env` on top of a clean test environment. */
export function spawnServer(port: number, env: Record<string, string>): ServerProcess {
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      SEED: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, origin, exited, output: () => output };
}

export async function waitReady(server: ServerProcess, timeoutMs = 30_000) {
  await waitFor(
    async () => {
      if (server.child.exitCode !== null) throw new Error(`server exited: ${server.output()}`);
      return (await fetch(`${server.origin}/api/ready`)).ok;
    },
    timeoutMs,
    `server ready (${server.output()})`,
  );
}
