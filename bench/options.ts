import os from 'node:os';

/**
 * Settings of one bench run, from the environment (README.md lists them). BENCH_QUICK=1 gives a
 * development run of a few minutes; the default is the full run recorded in BENCHMARKS.md.
 */
export interface BenchOptions {
  quick: boolean;
  classes: number;
  users: number;
  enrollments: number;
  /** Seconds per HTTP scenario. */
  duration: number;
  /** Seconds per scenario at each growth step before the last (the last reuses the full run). */
  growthDuration: number;
  connections: number;
  growthSteps: number[];
  targets: ('postgres' | 'pglite')[];
  parts: Set<Part>;
  /** Admin URL of the PostgreSQL server; the bench creates and drops its own database there. */
  postgresUrl: string;
  benchDatabase: string;
  lighthouseRuns: number;
  /** CPU-profile the PostgreSQL server during an extra catalogue run (node --cpu-prof). */
  profile: boolean;
  chromePath: string;
}

export const PARTS = ['http', 'search', 'lighthouse', 'startup', 'schedule'] as const;
export type Part = (typeof PARTS)[number];

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return Math.round(value);
}

function list(name: string): string[] | undefined {
  const raw = process.env[name];
  if (!raw) return undefined;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function loadOptions(): BenchOptions {
  const quick = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';
  const classes = Math.max(100, int('BENCH_CLASSES', quick ? 10_000 : 100_000));
  const users = Math.max(100, int('BENCH_USERS', 10_000));
  const enrollments = int('BENCH_ENROLLMENTS', quick ? 100_000 : 1_000_000);
  const duration = Math.max(1, int('BENCH_DURATION', quick ? 3 : 10));
  const growthDuration = Math.max(1, int('BENCH_GROWTH_DURATION', quick ? 2 : 5));
  const connections = Math.max(1, int('BENCH_CONNECTIONS', 50));

  const requestedSteps = list('BENCH_GROWTH')?.map(Number) ?? [1_000, 10_000, 100_000];
  const growthSteps = [
    ...new Set([...requestedSteps.filter((n) => Number.isInteger(n) && n > 0 && n < classes), classes]),
  ].sort((a, b) => a - b);

  const targets = (list('BENCH_TARGETS') ?? ['postgres', 'pglite']).map((t) => {
    if (t !== 'postgres' && t !== 'pglite') throw new Error(`BENCH_TARGETS: unknown target "${t}" (postgres, pglite)`);
    return t;
  });
  const parts = new Set(
    (list('BENCH_PARTS') ?? [...PARTS]).map((p) => {
      if (!(PARTS as readonly string[]).includes(p))
        throw new Error(`BENCH_PARTS: unknown part "${p}" (${PARTS.join(', ')})`);
      return p as Part;
    }),
  );

  const postgresUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const host = new URL(postgresUrl).hostname;
  if (!LOOPBACK.has(host))
    throw new Error(
      `BENCH_PG_URL must point to a loopback address (got ${host}): the bench sends traffic only to this machine`,
    );

  return {
    quick,
    classes,
    users,
    enrollments,
    duration,
    growthDuration,
    connections,
    growthSteps,
    targets,
    parts,
    postgresUrl,
    // Another name lets two runs share one PostgreSQL server (each drops and creates its own).
    benchDatabase: process.env.BENCH_DATABASE || 'skillhive_bench',
    lighthouseRuns: Math.max(1, int('BENCH_LH_RUNS', quick ? 1 : 3)),
    profile: process.env.BENCH_PROFILE === '1',
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  };
}

export function machineFacts() {
  const cpus = os.cpus();
  return {
    nproc: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}
