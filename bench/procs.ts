import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What `npm start` runs: the server bundle built by `npm install` / `npm run build`. */
export const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/dist/server.js');
export const HOST = '127.0.0.1';

/** Everything the bench started, so that it is stopped and removed whatever happens. */
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
const cleanups: (() => Promise<void>)[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `skillhive-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

export function onCleanup(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

/** Stops every child still running, runs the registered clean-ups and removes temp dirs. */
export async function cleanupAll(): Promise<void> {
  await Promise.all([...children].map((child) => stopProcess(child)));
  for (const fn of cleanups.splice(0).reverse()) {
    await fn().catch((error: unknown) => console.error('clean-up failed:', error));
  }
  for (const dir of [...tempDirs]) removeTempDir(dir);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export const randomSecret = () => randomBytes(36).toString('base64url');

/** The environment a child gets: only what it needs, never the caller's DATABASE_URL and the like. */
function baseEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];
  return Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  logFile: string;
  /** Milliseconds since spawn when the process was spawned (performance.now()). */
  spawnedAt: number;
}

export function spawnNode(
  args: string[],
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[] = [],
  cwd: string = REPO_ROOT,
): Spawned {
  // The child writes its lines to the file itself (`>> file`, as a supervisor's redirect does):
  // relayed through this process, they would take CPU from the load generator running here.
  const log = openSync(logFile, 'a');
  const spawnedAt = performance.now();
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...nodeArgs, ...args], {
      cwd,
      env: { ...baseEnv(), ...env },
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
  children.add(child);
  child.once('exit', () => {
    children.delete(child);
  });
  if (child.pid === undefined) throw new Error(`could not start ${args.join(' ')}`);
  return { child, pid: child.pid, logFile, spawnedAt };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
export function stopProcess(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    children.delete(child);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      children.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** One GET on loopback: status and body, or null when nothing answers. */
export function probe(
  port: number,
  pathname: string,
  timeoutMs = 2_000,
): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve) => {
    const req = http.get({ host: HOST, port, path: pathname, timeout: timeoutMs, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

/** Polls `pathname` until it answers 200; the time is measured from the spawn. */
export async function waitReady(spawned: Spawned, port: number, pathname: string, timeoutMs: number): Promise<number> {
  const deadline = spawned.spawnedAt + timeoutMs;
  while (performance.now() < deadline) {
    if (spawned.child.exitCode !== null) {
      throw new Error(
        `process exited with code ${spawned.child.exitCode} before it was ready:\n${tail(spawned.logFile)}`,
      );
    }
    const res = await probe(port, pathname, 1_000);
    if (res?.status === 200) return performance.now() - spawned.spawnedAt;
    await new Promise((r) => setTimeout(r, 15));
  }
  throw new Error(`not ready after ${timeoutMs} ms:\n${tail(spawned.logFile)}`);
}

/** Resident memory of a process in MiB, from /proc/<pid>/status (VmRSS). */
export function rssMiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

export interface ServerOptions {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  authSecret: string;
  seed: boolean;
  logFile: string;
  /** Extra node flags (--cpu-prof, --import). */
  nodeArgs?: string[];
  /** LOG_LEVEL; unset, the server's default (info), as production runs it. */
  logLevel?: string;
  extraEnv?: Record<string, string>;
  readyTimeoutMs?: number;
  /** The checkout whose built server runs (another build, for an A/B comparison); this one by default. */
  root?: string;
}

export interface RunningServer {
  port: number;
  pid: number;
  origin: string;
  readyMs: number;
  authSecret: string;
  spawned: Spawned;
  stop(): Promise<void>;
}

/**
 * The production server: `node apps/server/dist/server.js` with NODE_ENV=production on loopback,
 * at the default log level unless told (its lines go to `logFile`, as a supervisor's redirect sends them).
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const origin = `http://${HOST}:${opts.port}`;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    // The bench pays with test cards; production refuses the test gateway unless asked (env.ts).
    PAYMENTS_GATEWAY: 'test',
    HOST,
    PORT: String(opts.port),
    PUBLIC_URL: origin,
    DATA_DIR: opts.dataDir,
    AUTH_SECRET: opts.authSecret,
    ...(opts.logLevel ? { LOG_LEVEL: opts.logLevel } : {}),
    SEED: String(opts.seed),
    // Every bench buyer comes from 127.0.0.1, and checkout counts a coupon attempt against the
    // address while it runs (a parallel burst gets no more tries than the limit, decision 019):
    // fifty buyers at once behind one address are not a guesser.
    RATE_LIMIT_COUPON_FAILURES_PER_IP: '100000',
    // The generated history has no ledger (bench/generate.ts writes payments as before it): the
    // money-out job would record all of it (decision 039 §10) in the middle of the scenarios. Its
    // runs are measured on their own (payout-run.ts).
    PAYOUT_JOB_INTERVAL_SECONDS: '0',
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...opts.extraEnv,
  };
  const root = opts.root ?? REPO_ROOT;
  const entry = opts.root ? path.join(opts.root, 'apps/server/dist/server.js') : SERVER_ENTRY;
  const spawned = spawnNode([entry], env, opts.logFile, opts.nodeArgs, root);
  try {
    const readyMs = await waitReady(spawned, opts.port, '/api/ready', opts.readyTimeoutMs ?? 120_000);
    return {
      port: opts.port,
      pid: spawned.pid,
      origin,
      readyMs,
      authSecret: opts.authSecret,
      spawned,
      stop: () => stopProcess(spawned.child),
    };
  } catch (error) {
    await stopProcess(spawned.child);
    throw error;
  }
}

/** `npm run db:migrate` with the given settings (DATABASE_URL, or DATA_DIR for PGlite), in `root`'s checkout. */
export function migrate(env: Record<string, string>, logFile: string, root: string = REPO_ROOT): Promise<void> {
  return new Promise((resolve, reject) => {
    const log = createWriteStream(logFile, { flags: 'a' });
    const child = spawn('npm', ['run', 'db:migrate', '--silent'], {
      cwd: root,
      env: { ...baseEnv(), LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    child.once('error', reject);
    child.once('exit', (code) => {
      children.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`npm run db:migrate failed (${code}):\n${tail(logFile)}`));
    });
  });
}
