/**
 * The purchase flow of two builds, alternated in one session: is build B within its budget of
 * build A (e.g. the ledger's writes against the flows/s before them, BENCHMARKS.md)?
 *
 *   BENCH_QUICK=1 node bench/purchase-ab.ts /path/to/checkout-A [/path/to/checkout-B]
 *
 * Each checkout must be built (`npm run build -w @skillhive/server`); B defaults to this one. For
 * each build: its own PostgreSQL database (`<BENCH_DATABASE>_a`, `_b`, dropped first and at the
 * end) migrated by that build's `npm run db:migrate` and filled by this checkout's generator (the
 * same data for both), and that build's production server on it (as `npm run bench` starts it).
 * Both servers run side by side; after an unmeasured warm-up of each, the purchase flow of
 * bench/http.ts runs in rounds of BENCH_DURATION seconds in the order A B B A, repeated
 * BENCH_AB_CYCLES times (default 2), each round on its own slice of that build's fresh students,
 * so that a machine getting busier or warmer does not favour one build. The load average is read
 * before and after each round. Results: bench/results/purchase-ab.json and a table on stdout.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { createTokenService } from '../apps/server/src/modules/auth/token.ts';
import {
  BENCH_PASSWORD,
  Generator,
  acceptedClassNumber,
  acceptedCount,
  classUuid,
  flowStudentEmails,
  flowStudentIds,
  flowStudentSessionId,
  makePlan,
  type GenPlan,
} from './generate.ts';
import { createClient, newFlowTally, runFlows, summariseFlows, type FlowStudent, type FlowTally } from './http.ts';
import { loadOptions, machineFacts } from './options.ts';
import {
  REPO_ROOT,
  cleanupAll,
  freePort,
  migrate,
  onCleanup,
  randomSecret,
  startServer,
  tempDir,
  type RunningServer,
} from './procs.ts';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const opts = loadOptions();
const [rootA, rootB = REPO_ROOT] = process.argv.slice(2).map((p) => path.resolve(p));
if (!rootA) throw new Error('usage: node bench/purchase-ab.ts <checkout A> [<checkout B>]');
for (const root of [rootA, rootB]) {
  if (!existsSync(path.join(root, 'apps/server/dist/server.js')))
    throw new Error(`${root} has no server bundle: run npm run build -w @skillhive/server there first`);
}
const cycles = Math.max(1, Number(process.env.BENCH_AB_CYCLES ?? 2));
const order = Array.from({ length: cycles }, () => ['A', 'B', 'B', 'A'] as const).flat();
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const load = () => os.loadavg().map((n) => Math.round(n * 100) / 100) as [number, number, number];

interface Build {
  label: 'A' | 'B';
  root: string;
  server: RunningServer;
  students: FlowStudent[];
  /** Every measured round of the build adds up here (flows/s over all its rounds, step latencies). */
  tally: FlowTally;
}

async function admin(sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: opts.postgresUrl });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

function sampleClassIds(plan: GenPlan, count: number): string[] {
  const accepted = acceptedCount(plan.classes);
  return Array.from({ length: Math.min(count, accepted) }, (_, k) =>
    classUuid(acceptedClassNumber((k * 7919) % accepted)),
  );
}

async function prepare(label: 'A' | 'B', root: string, plan: GenPlan, passwordHash: string): Promise<Build> {
  const name = `${opts.benchDatabase}_${label.toLowerCase()}`;
  const drop = () => admin(`drop database if exists "${name}" with (force)`);
  await drop();
  await admin(`create database "${name}"`);
  onCleanup(drop);
  const url = new URL(opts.postgresUrl);
  url.pathname = `/${name}`;
  const dir = tempDir(`ab-${label.toLowerCase()}`);
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  log(`${label}: migrate with ${root}`);
  await migrate({ DATABASE_URL: url.toString() }, path.join(dir, 'migrate.log'), root);
  log(`${label}: generate ${plan.classes} classes, ${plan.enrollments} enrolments, ${plan.users} users`);
  const gen = await Generator.open({ kind: 'postgres', url: url.toString() }, plan);
  try {
    await gen.base({ passwordHash, uploadDir: path.join(dataDir, 'uploads') });
    await gen.growClasses(plan.classes);
    await gen.analyze();
    await gen.verify();
  } finally {
    await gen.close();
  }
  const server = await startServer({
    port: await freePort(),
    dataDir,
    databaseUrl: url.toString(),
    authSecret: randomSecret(),
    seed: false,
    logFile: path.join(dir, 'server.log'),
    root,
  });
  // As flowScenario in run.ts: the server's own token service, not a thousand argon2 sign-ins.
  const tokens = createTokenService(server.authSecret);
  const ids = flowStudentIds(plan);
  const students = await Promise.all(
    flowStudentEmails(plan).map(async (email, i) => ({
      email,
      token: await tokens.issue({ id: ids[i]!, email }, flowStudentSessionId(ids[i]!)),
    })),
  );
  return { label, root, server, students, tally: newFlowTally() };
}

async function main() {
  const facts = machineFacts();
  log(
    `purchase flow A/B: A = ${rootA}, B = ${rootB}; ${order.join(' ')} × ${opts.duration} s at ${opts.connections} concurrent flows; ${facts.nproc} CPUs, node ${facts.node}`,
  );
  const plan = makePlan({ users: opts.users, classes: opts.classes, enrollments: opts.enrollments });
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const builds = {
    A: await prepare('A', rootA!, plan, passwordHash),
    B: await prepare('B', rootB, plan, passwordHash),
  };
  const classIds = sampleClassIds(plan, 2_000);

  // Unmeasured warm-up of each (JIT, pools), on its last students.
  for (const build of Object.values(builds)) {
    const warmup = build.students.splice(-Math.min(20, Math.floor(build.students.length / 10)));
    await runFlows(createClient(build.server.origin, opts.connections + 8), warmup, classIds, {
      concurrency: 5,
      durationS: 30,
    });
  }
  const perRound = Math.floor(builds.A.students.length / (order.length / 2));
  const used = { A: 0, B: 0 };
  const rounds: {
    build: 'A' | 'B';
    flowsPerS: number;
    completed: number;
    failed: number;
    loadBefore: number[];
    loadAfter: number[];
  }[] = [];
  for (const label of order) {
    const build = builds[label];
    const students = build.students.slice(used[label] * perRound, (used[label] + 1) * perRound);
    used[label] += 1;
    const loadBefore = load();
    const before = { completed: build.tally.completed, failed: build.tally.failed, elapsedS: build.tally.elapsedS };
    await runFlows(createClient(build.server.origin, opts.connections + 8), students, classIds, {
      concurrency: opts.connections,
      durationS: opts.duration,
      tally: build.tally,
    });
    const completed = build.tally.completed - before.completed;
    const failed = build.tally.failed - before.failed;
    const flowsPerS = Math.round((completed / (build.tally.elapsedS - before.elapsedS)) * 10) / 10;
    rounds.push({ build: label, flowsPerS, completed, failed, loadBefore, loadAfter: load() });
    log(`${label}: ${flowsPerS} flows/s (${completed} flows, ${failed} failed), load ${load()[0]}`);
  }
  const summary = Object.fromEntries(
    (['A', 'B'] as const).map((label) => {
      const figures = summariseFlows(builds[label].tally, { concurrency: opts.connections });
      const extra = figures.extra as { steps: { step: string; p50: number; p99: number }[] };
      return [
        label,
        {
          root: builds[label].root,
          flowsPerS: figures.rps ?? 0,
          p50: figures.p50,
          p99: figures.p99,
          completed: builds[label].tally.completed,
          failed: builds[label].tally.failed,
          rounds: rounds.filter((r) => r.build === label).map((r) => r.flowsPerS),
          steps: extra.steps,
        },
      ];
    }),
  ) as Record<
    'A' | 'B',
    {
      root: string;
      flowsPerS: number;
      p50: number | undefined;
      p99: number | undefined;
      completed: number;
      failed: number;
      rounds: number[];
      steps: { step: string; p50: number; p99: number }[];
    }
  >;
  const ratio = Math.round((summary.B.flowsPerS / summary.A.flowsPerS) * 1000) / 10;
  const result = {
    date: new Date().toISOString(),
    machine: facts,
    options: { classes: opts.classes, users: opts.users, enrollments: opts.enrollments, duration: opts.duration },
    order,
    rounds,
    summary,
    ratioPercent: ratio,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, 'purchase-ab.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    [
      '',
      'build  flows/s  rounds                         flows  failed',
      ...(['A', 'B'] as const).map(
        (l) =>
          `${l}      ${String(summary[l].flowsPerS).padStart(7)}  ${summary[l].rounds.join(', ').padEnd(30)} ${String(summary[l].completed).padStart(6)}  ${summary[l].failed}`,
      ),
      ...(['A', 'B'] as const).map(
        (l) =>
          `${l} flow p50/p99 ${summary[l].p50}/${summary[l].p99} ms; steps p50/p99: ${summary[l].steps.map((st) => `${st.step.split(' ')[1]} ${st.p50}/${st.p99}`).join(', ')}`,
      ),
      `B / A: ${ratio}%   load before/after each round: ${rounds.map((r) => `${r.build} ${r.loadBefore[0]}→${r.loadAfter[0]}`).join(', ')}`,
      'written: bench/results/purchase-ab.json',
    ].join('\n'),
  );
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    void cleanupAll().finally(() => process.exit(130));
  });
}
try {
  await main();
} finally {
  if (!interrupted) await cleanupAll();
}
