import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from './fault-helpers.ts';

/**
 * `npm start`, the documented start command (README, docs/OPERATIONS.md), under a supervisor that
 * signals what it started: SIGTERM to npm reaches the server, which drains and exits 0, and npm
 * exits with it — no server left running without its parent. Also when the supervisor signals the
 * whole process group (systemd's default), so the server gets SIGTERM twice. Runs the built server
 * (`npm run build`, done by `npm ci`).
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT = path.join(ROOT, 'apps/server/dist/server.js');
const PORT = 3166;
const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-start-'));
const started: ChildProcess[] = [];
const serverPids: number[] = [];

afterAll(() => {
  for (const pid of serverPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids of `parent`'s children. */
function childrenOf(parent: number): number[] {
  const out = spawnSync('ps', ['-o', 'pid=', '--ppid', String(parent)]).stdout.toString();
  return out
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
}

async function startWithNpm() {
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    // Its own process group, as a supervisor's service has.
    detached: true,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      DATA_DIR: dataDir,
      SEED: 'false',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(npm);
  let output = '';
  npm.stdout!.on('data', (d) => (output += d));
  npm.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    npm.on('exit', (code, signal) => resolve({ code, signal })),
  );
  await waitFor(
    async () => {
      if (npm.exitCode !== null) throw new Error(`npm start exited: ${output}`);
      return (await fetch(`http://127.0.0.1:${PORT}/api/ready`).catch(() => null))?.ok === true;
    },
    90_000,
    'npm start',
  );
  // Whatever npm runs in between (a shell), the process listening is a descendant of npm.
  const descendants = (pid: number): number[] => childrenOf(pid).flatMap((child) => [child, ...descendants(child)]);
  const pids = descendants(npm.pid!);
  serverPids.push(...pids);
  return { npm, exited, pids, output: () => output };
}

describe.skipIf(!existsSync(BUILT))('npm start under a supervisor', () => {
  it('passes SIGTERM to the server, which drains and exits 0 before npm does', async () => {
    const { npm, exited, pids, output } = await startWithNpm();
    expect(pids.length).toBeGreaterThan(0);
    npm.kill('SIGTERM');
    const result = await exited;
    // When npm has exited, nothing it started is left running.
    expect(pids.filter(alive)).toEqual([]);
    expect(result).toEqual({ code: 0, signal: null });
    expect(output()).toContain('"msg":"shutting down"');
  }, 120_000);

  it('exits 0 when the whole process group gets SIGTERM (the server gets it twice)', async () => {
    const { npm, exited, pids, output } = await startWithNpm();
    process.kill(-npm.pid!, 'SIGTERM');
    const result = await exited;
    await waitFor(async () => pids.every((pid) => !alive(pid)), 10_000, 'the server to exit');
    expect(result).toEqual({ code: 0, signal: null });
    expect(output()).toContain('"msg":"shutting down"');
    expect(output()).not.toContain('shutdown took too long');
  }, 120_000);
});
