/**
 * What real fsync costs the embedded database (decision 011): start-up to /api/ready of
 * `node apps/server/src/server.ts` on a fresh DATA_DIR, and the purchase flow (enroll → intent →
 * confirm → record payment) through the real app, with DB_EMBEDDED_FSYNC on and off, alternated.
 *
 *   node bench/embedded-durability.ts [runs=3] [purchases=20]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app.ts';
import { openPglite } from '../apps/server/src/db/client.ts';
import { loadEnv } from '../apps/server/src/env.ts';
import { createLocalStorage } from '../apps/server/src/modules/uploads/storage.public.ts';
import { buy, createCaller, createClass, FAST_SIGNUP_ENV } from '../apps/server/test/commerce-fixtures.ts';

const SERVER = fileURLToPath(new URL('../apps/server/src/server.ts', import.meta.url));
const runs = Number(process.argv[2] ?? 3);
const purchases = Number(process.argv[3] ?? 20);

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startUpMs(fsync: boolean): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-durability-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      DB_EMBEDDED_FSYNC: String(fsync),
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/ready`)).ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function purchaseMs(fsync: boolean): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-durability-'));
  const database = await openPglite(dataDir, { durable: fsync });
  try {
    await database.migrate();
    const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...FAST_SIGNUP_ENV });
    const { app } = await buildApp({
      env,
      database,
      storage: createLocalStorage(env.uploadDir),
      authSecret: 'bench-secret-that-is-long-enough-1234567890',
      logger: false,
    });
    await app.ready();
    const ctx = { app, db: database.db };
    const teacher = await createCaller(ctx, 'teacher');
    const work = [];
    for (let i = 0; i < purchases; i++) {
      work.push({ student: await createCaller(ctx), classId: (await createClass(ctx, teacher)).id });
    }
    const started = performance.now();
    for (const { student, classId } of work) await buy(ctx, student, [classId]);
    const ms = performance.now() - started;
    await app.close();
    return ms;
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results: Record<string, { startUp: number[]; purchase: number[] }> = {
  on: { startUp: [], purchase: [] },
  off: { startUp: [], purchase: [] },
};
for (let run = 0; run < runs; run++) {
  for (const mode of ['on', 'off'] as const) {
    results[mode]!.startUp.push(await startUpMs(mode === 'on'));
    results[mode]!.purchase.push((await purchaseMs(mode === 'on')) / purchases);
  }
}
console.log(
  `fsync | start-up to ready, ms (runs; median) | one purchase flow, ms (mean of ${purchases}; median of runs)`,
);
for (const mode of ['on', 'off'] as const) {
  const { startUp, purchase } = results[mode]!;
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  console.log(
    `${mode.padEnd(5)} | ${list(startUp)}; ${median(startUp).toFixed(0)} | ${purchase.map((v) => v.toFixed(1)).join(', ')}; ${median(purchase).toFixed(1)}`,
  );
}
