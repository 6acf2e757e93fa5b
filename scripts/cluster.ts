import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
// s3rver ships no types.
// @ts-expect-error -- untyped CommonJS module
import S3rver from 's3rver';

/**
 * What npm run test:multi (multi-instance.ts) and npm run test:rolling (rolling-restart.ts) share:
 * a scratch directory, child processes with their logs, a PostgreSQL database of their own,
 * redis-server, s3rver, the built server instances and HAProxy, all on loopback, all stopped and
 * removed at the end, within a time limit.
 */
export const ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER = path.join(ROOT, 'apps/server/dist/server.js');

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Harness {
  /** Scratch directory (logs, data directories, configuration), removed by cleanUp. */
  work: string;
  log(message: string): void;
  /** Starts a child whose output goes to <work>/<name>.log; an exit not asked for by stop() fails the run. */
  start(name: string, command: string, args: string[], env?: NodeJS.ProcessEnv): ChildProcess;
  /** SIGTERM to the running child of that name; resolves with its exit code once it has exited. */
  stop(name: string, killAfterMs?: number): Promise<number | null>;
  tail(name: string, lines?: number): string;
  waitFor(what: string, probe: () => Promise<boolean>, timeoutMs?: number): Promise<void>;
  onCleanUp(step: () => Promise<void>): void;
  failed(): boolean;
  /** Runs main within timeLimitMs, then cleans up and exits the process (1 on any failure). */
  run(main: () => Promise<void>, timeLimitMs: number, logsOnFailure: string[]): Promise<never>;
}

export function createHarness(tag: string): Harness {
  const work = mkdtempSync(path.join(tmpdir(), `skillhive-${tag}-`));
  const children: { name: string; child: ChildProcess; expected: boolean }[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  let failed = false;
  let stopping = false;

  const log = (message: string) => console.log(`[${tag}] ${message}`);
  const tail = (name: string, lines = 30) => {
    try {
      return readFileSync(path.join(work, `${name}.log`), 'utf8')
        .split('\n')
        .slice(-lines)
        .join('\n');
    } catch {
      return '(no log)';
    }
  };
  const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

  const start: Harness['start'] = (name, command, args, env = process.env) => {
    const out = createWriteStream(path.join(work, `${name}.log`), { flags: 'a' });
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
    const entry = { name, child, expected: false };
    child.on('exit', (code, signal) => {
      if (!stopping && !entry.expected) {
        log(`${name} exited early (code ${code}, signal ${signal}); its log:\n${tail(name)}`);
        failed = true;
      }
    });
    children.push(entry);
    return child;
  };

  const stop: Harness['stop'] = async (name, killAfterMs = 30_000) => {
    const entry = children.findLast((c) => c.name === name && running(c.child));
    check(entry, `${name} is not running`);
    entry.expected = true;
    const exited = new Promise<number | null>((resolve) => entry.child.once('exit', (code) => resolve(code)));
    entry.child.kill('SIGTERM');
    const timer = setTimeout(() => entry.child.kill('SIGKILL'), killAfterMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };

  const waitFor: Harness['waitFor'] = async (what, probe, timeoutMs = 60_000) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (failed) throw new Error(`${what}: a process it needs exited`);
      try {
        if (await probe()) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${what} did not come up within ${timeoutMs} ms`);
  };

  const cleanUp = async () => {
    stopping = true;
    for (const { child } of children.reverse()) {
      if (!running(child)) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log(`clean-up step failed: ${String(error)}`);
      }
    }
    rmSync(work, { recursive: true, force: true });
  };

  const run: Harness['run'] = async (main, timeLimitMs, logsOnFailure) => {
    const limit = setTimeout(() => {
      log(`time limit of ${timeLimitMs} ms reached`);
      failed = true;
      void cleanUp().finally(() => process.exit(1));
    }, timeLimitMs);
    try {
      await main();
    } catch (error) {
      failed = true;
      log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
      for (const name of logsOnFailure) log(`${name} log tail:\n${tail(name)}`);
    }
    clearTimeout(limit);
    await cleanUp();
    process.exit(failed ? 1 : 0);
  };

  return {
    work,
    log,
    start,
    stop,
    tail,
    waitFor,
    onCleanUp: (step) => void cleanups.push(step),
    failed: () => failed,
    run,
  };
}

export interface Backing {
  /** The settings every instance shares (database, Redis, bucket, secrets, PUBLIC_URL = the balancer). */
  env: NodeJS.ProcessEnv;
  dbUrl: string;
}

/**
 * Checks the prerequisites, then creates a database of its own on the PostgreSQL server at
 * pgAdminUrl, starts redis-server (no persistence) and s3rver with one bucket, and runs the
 * migrations once (docs/OPERATIONS.md "Deploy").
 */
export async function startBacking(
  h: Harness,
  opts: { pgAdminUrl: string; lbUrl: string; extraEnv?: NodeJS.ProcessEnv },
): Promise<Backing> {
  check(existsSync(SERVER), `${SERVER} is missing: run "npm run build" first`);
  for (const tool of ['redis-server', 'haproxy']) {
    check(spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0, `${tool} is not installed`);
  }
  const [redisPort, s3Port] = await Promise.all([freePort(), freePort()]);

  const dbName = `skillhive_${path.basename(h.work).replace(/\W/g, '_')}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: opts.pgAdminUrl });
  await admin.connect();
  await admin.query(`create database "${dbName}"`);
  await admin.end();
  h.onCleanUp(async () => {
    const c = new pg.Client({ connectionString: opts.pgAdminUrl });
    await c.connect();
    await c.query(`drop database if exists "${dbName}" with (force)`);
    await c.end();
  });
  const dbUrl = new URL(opts.pgAdminUrl);
  dbUrl.pathname = `/${dbName}`;
  h.log(`database ${dbName}`);

  h.start('redis', 'redis-server', [
    '--port',
    String(redisPort),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);

  const s3 = new S3rver({
    address: '127.0.0.1',
    port: s3Port,
    silent: true,
    directory: path.join(h.work, 's3'),
    configureBuckets: [{ name: 'skillhive', configs: [] }],
  });
  await s3.run();
  h.onCleanUp(() => s3.close());

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL: opts.lbUrl,
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    S3_BUCKET: 'skillhive',
    S3_REGION: 'us-east-1',
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    PAYMENTS_GATEWAY: 'test',
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...opts.extraEnv,
  };

  const migrated = spawnSync(process.execPath, [path.join(ROOT, 'apps/server/src/db/migrate-cli.ts')], {
    env,
    encoding: 'utf8',
  });
  check(migrated.status === 0, `migrations failed:\n${migrated.stdout}${migrated.stderr}`);
  return { env, dbUrl: dbUrl.toString() };
}

/** Starts the built server as `name` on `port` with its own DATA_DIR. */
export function startInstance(
  h: Harness,
  backing: Backing,
  name: string,
  port: number,
  extra: NodeJS.ProcessEnv = {},
): ChildProcess {
  return h.start(name, process.execPath, [SERVER], {
    ...backing.env,
    PORT: String(port),
    DATA_DIR: path.join(h.work, `${name}-data`),
    ...extra,
  });
}

/** True once the instance on that port answers GET /api/ready with 2xx. */
export const readyOn = (port: number) => async () => (await fetch(`http://127.0.0.1:${port}/api/ready`)).ok;

/** One command on HAProxy's runtime API (the `stats socket` of the configuration); resolves with its output. */
export function haproxyCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let output = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.end(`${command}\n`));
    socket.on('data', (chunk: string) => (output += chunk));
    socket.on('end', () => resolve(output));
    socket.on('error', reject);
  });
}

/** The status column of `show stat` (UP, DOWN, MAINT, ...) for each server of a backend. */
export async function haproxyServerStatus(socketPath: string, backend: string): Promise<Record<string, string>> {
  const lines = (await haproxyCommand(socketPath, 'show stat')).trim().split('\n');
  const header = (lines[0] ?? '').replace(/^# /, '').split(',');
  const statusAt = header.indexOf('status');
  const result: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const cells = line.split(',');
    if (cells[0] !== backend || cells[1] === 'BACKEND' || cells[1] === 'FRONTEND') continue;
    result[cells[1]!] = cells[statusAt] ?? '?';
  }
  return result;
}
