import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from '../apps/server/src/db/client.ts';
import pg from 'pg';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { createTokenService } from '../apps/server/src/modules/auth/token.ts';
import {
  acceptedClassNumber,
  acceptedCount,
  BENCH_PASSWORD,
  classUuid,
  flowStudentEmails,
  flowStudentIds,
  flowStudentSessionId,
  Generator,
  type GenPlan,
  type GenTarget,
  historyStudentEmail,
  makePlan,
  SEARCH_TERM,
  type StepTiming,
  BENCH_COUPON_CODE,
} from './generate.ts';
import {
  createClient,
  hasRoute,
  json,
  load,
  newFlowTally,
  percentile,
  runFlows,
  summariseFlows,
  signInForToken,
  type Client,
  type FlowStudent,
  type ScenarioResult,
} from './http.ts';
import { runLighthouse, WEB_DIST, type FirstLoadJs, type LighthousePage } from './lighthouse.ts';
import { loadOptions, machineFacts, PARTS, type BenchOptions } from './options.ts';
import { searchRequests, type SearchKind } from './search.ts';
import { benchSchedule, type ScheduleBenchResult } from './schedule.ts';
import {
  cleanupAll,
  freePort,
  migrate,
  onCleanup,
  randomSecret,
  removeTempDir,
  REPO_ROOT,
  rssMiB,
  spawnNode,
  startServer,
  stopProcess,
  tempDir,
  waitReady,
  type RunningServer,
} from './procs.ts';
import { summarizeProfile, type ProfileSummary } from './profile.ts';
import { fmt, SCENARIO_HEADERS, scenarioRows, table, targetRows, type Target } from './report.ts';
import {
  CAPTURE_PRELOAD,
  captureRequestSql,
  describeSql,
  runSqlBaseline,
  sampleQueries,
  SERVER_POOL_SIZE,
  timeQueries,
  type CapturedQuery,
} from './sql-baseline.ts';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const BARE_SERVER = fileURLToPath(new URL('./bare-server.ts', import.meta.url));
const BARE_SEARCH_SERVER = fileURLToPath(new URL('./bare-search-server.ts', import.meta.url));
const PAGE_SIZE = 12;
const DEEP_PAGE = 500;

const benchStarted = performance.now();
const log = (line: string) => {
  const s = ((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[${s}s] ${line}\n`);
};

interface GrowthPoint {
  classes: number;
  acceptedClasses: number;
  enrollments: number;
  deepPage: number;
  page1: { rps?: number; p50?: number; p99?: number; skipped?: string };
  deep: { rps?: number; p50?: number; p99?: number; skipped?: string };
  search: { rps?: number; p50?: number; p99?: number; skipped?: string; total?: number };
  /** Database time of each request's uncached SQL alone (one connection, sequential), ms. */
  sql?: Record<string, { p50: number; p99: number }>;
}

/** Uncached catalogue search (decision 018): prefixes, misspellings, deep pages. */
interface SearchRun {
  requests: number;
  /** The server with CATALOGUE_CACHE_TTL_SECONDS=0, rotating over every request. */
  http?: ScenarioResult;
  /** Bare Fastify answering the same requests with the bytes of the first one. */
  fastify?: ScenarioResult;
  vsFastify?: number;
  /**
   * Bare Fastify doing the same search: a pg Pool of the server's size running, for each request,
   * the SQL the server sent for it (bare-search-server.ts). The ≥ 50% target is judged against it.
   */
  fastifySearch?: ScenarioResult;
  vsFastifySearch?: number;
  /** Each request's uncached SQL alone (one connection, each run three times), ms. */
  sql?: { all: { p50: number; p99: number; max: number }; byKind: Record<string, { p50: number; p99: number }> };
  /** Sampled requests whose capture failed (not 200), left out of the SQL figures. */
  failedCaptures?: number;
  /** How many of the requests found at least one class (page 1 requests only). */
  found?: { pageOne: number; withMatches: number };
  error?: string;
}

interface DatabaseRun {
  kind: 'postgres' | 'pglite';
  search?: SearchRun;
  plan?: GenPlan;
  generation?: { timings: StepTiming[]; totalMs: number; counts: Record<string, number> };
  server?: { readyMs: number; rssAfterStartMiB: number | null; rssAfterScenariosMiB: number | null };
  scenarios: ScenarioResult[];
  baselines: { fastify?: ScenarioResult; fastifySecurity?: ScenarioResult; sql?: ScenarioResult };
  /** Catalogue page 1 and bare Fastify measured in alternating rounds (alternatedWithBare). */
  alternated?: { app: ScenarioResult; bare: ScenarioResult; ratio: number; rounds: number };
  catalogueSql?: string[];
  explain?: Record<string, string>;
  growth: GrowthPoint[];
  profile?: ProfileSummary;
  error?: string;
}

interface StartupRun {
  freshWithSeed?: { readyMs: number; rssMiB: number | null };
  /** Migrations only: what the seed adds to a first start. */
  freshNoSeed?: { readyMs: number; rssMiB: number | null };
  existingDataDir: { readyMs: number; rssMiB: number | null }[];
  rssAfterLighthouseMiB?: number | null;
  error?: string;
}

const catalogue = {
  page1: `/api/classes?limit=${PAGE_SIZE}`,
  deep: (page: number) => `/api/classes?limit=${PAGE_SIZE}&page=${page}`,
  search: `/api/classes?limit=${PAGE_SIZE}&q=${SEARCH_TERM}`,
};

function sampleClassIds(plan: GenPlan, count: number): string[] {
  const accepted = acceptedCount(plan.classes);
  return Array.from({ length: Math.min(count, accepted) }, (_, k) =>
    classUuid(acceptedClassNumber((k * 7919) % accepted)),
  );
}

async function catalogueMissing(client: Client): Promise<string | undefined> {
  if (!(await hasRoute(client, 'GET', catalogue.page1)))
    return 'GET /api/classes: the server under test has no such route';
  const answer = await client.request('GET', catalogue.page1);
  if (answer.status !== 200)
    return `GET /api/classes answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`;
  return undefined;
}

function skipped(id: string, title: string, request: string, reason: string): ScenarioResult {
  return { id, title, request, skipped: reason };
}

/** Page 1, a deep page and a search, as used by the growth steps and the full run. */
async function catalogueScenarios(client: Client, durationS: number, connections: number) {
  // The same page at every size (past the end at 1 000 classes: an empty page, all offset).
  const deepPage = DEEP_PAGE;
  const opts = { origin: client.origin, connections, durationS };
  const missing = await catalogueMissing(client);
  if (missing) {
    return {
      deepPage,
      page1: skipped('catalogue-page-1', 'catalogue page 1', `GET ${catalogue.page1}`, missing),
      deep: skipped('catalogue-deep', `catalogue page ${deepPage}`, `GET ${catalogue.deep(deepPage)}`, missing),
      search: skipped('catalogue-search', `catalogue search "${SEARCH_TERM}"`, `GET ${catalogue.search}`, missing),
      searchTotal: undefined,
    };
  }
  const searchProbe = await client.request('GET', catalogue.search);
  const searchTotal = Number(searchProbe.headers['x-total-count'] ?? Number.NaN);
  const page1 = await load('catalogue-page-1', 'catalogue page 1', { paths: [catalogue.page1] }, opts);
  const deep = await load('catalogue-deep', `catalogue page ${deepPage}`, { paths: [catalogue.deep(deepPage)] }, opts);
  const search = await load(
    'catalogue-search',
    `catalogue search "${SEARCH_TERM}"`,
    { paths: [catalogue.search] },
    opts,
  );
  search.extra = { matches: searchTotal };
  deep.extra = { page: deepPage, offset: (deepPage - 1) * PAGE_SIZE };
  return { deepPage, page1, deep, search, searchTotal };
}

const pick = (r: ScenarioResult) => (r.skipped ? { skipped: r.skipped } : { rps: r.rps, p50: r.p50, p99: r.p99 });

async function flowScenario(
  client: Client,
  server: RunningServer,
  plan: GenPlan,
  opts: BenchOptions,
): Promise<ScenarioResult[]> {
  const routes = [
    ['POST', '/api/enrolled'],
    ['POST', '/api/create-payment-intent'],
    ['POST', '/api/test-gateway/confirm'],
    ['POST', '/api/payments'],
  ] as const;
  const missing: string[] = [];
  for (const [method, route] of routes)
    if (!(await hasRoute(client, method, route))) missing.push(`${method} ${route}`);
  const title = 'enroll → intent → confirm → payment';
  if (missing.length > 0)
    return [
      skipped(
        'purchase-flow',
        title,
        'four POSTs per flow',
        `the server under test has no route for ${missing.join(', ')}`,
      ),
    ];
  // Tokens for the flow students are issued with the server's own token service and secret — the
  // same HS256 token POST /api/jwt returns — so that a thousand argon2 sign-ins do not dominate
  // the setup. The enrollments scenario uses the real sign-in → /api/jwt path.
  const tokens = createTokenService(server.authSecret);
  const ids = flowStudentIds(plan);
  const emails = flowStudentEmails(plan);
  const students: FlowStudent[] = await Promise.all(
    emails.map(async (email, i) => ({
      email,
      token: await tokens.issue({ id: ids[i]!, email }, flowStudentSessionId(ids[i]!)),
    })),
  );
  // A few flows first, unmeasured, with the last students (JIT, pools).
  const warmup = students.splice(-Math.min(20, Math.floor(students.length / 10)));
  const classIds = sampleClassIds(plan, 2_000);
  await runFlows(client, warmup, classIds, { concurrency: 5, durationS: 30 });
  // The flow without and with a coupon (target: within 10%, BENCHMARKS.md), in eight rounds of a quarter of
  // the duration in the order plain, coupon, coupon, plain, twice, so that a machine getting
  // busier or warmer for a few seconds (other work on the shared cores) does not favour one of
  // them; each round on its own eighth of the fresh students, the same number for every round (a
  // student uses a coupon once). Each scenario adds up its four rounds.
  const rounds = ['plain', 'coupon', 'coupon', 'plain', 'plain', 'coupon', 'coupon', 'plain'] as const;
  const perRound = Math.floor(students.length / rounds.length);
  const tallies = { plain: newFlowTally(), coupon: newFlowTally() };
  for (const [i, kind] of rounds.entries()) {
    await runFlows(client, students.slice(i * perRound, (i + 1) * perRound), classIds, {
      concurrency: opts.connections,
      durationS: opts.duration / 4,
      tally: tallies[kind],
      ...(kind === 'coupon' ? { couponCode: BENCH_COUPON_CODE } : {}),
    });
  }
  return [
    summariseFlows(tallies.plain, { concurrency: opts.connections }),
    summariseFlows(tallies.coupon, { concurrency: opts.connections, couponCode: BENCH_COUPON_CODE }),
  ];
}

async function explainAll(
  target: GenTarget,
  queries: Record<string, CapturedQuery[]>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const analyzable = Object.entries(queries).flatMap(([name, list]) =>
    list.filter((q) => /^\s*select/i.test(q.text)).map((q, i) => [`${name}#${i + 1}`, q] as const),
  );
  if (target.kind === 'postgres') {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      for (const [name, q] of analyzable) {
        const res = await client.query<{ 'QUERY PLAN': string }>({
          text: `explain (analyze, buffers) ${q.text}`,
          values: q.values,
        });
        out[name] = res.rows.map((r) => r['QUERY PLAN']).join('\n');
      }
    } finally {
      await client.end();
    }
  } else {
    const db = await PGlite.create(path.join(target.dataDir, 'pglite'), { extensions: PGLITE_EXTENSIONS });
    try {
      for (const [name, q] of analyzable) {
        const res = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q.text}`, q.values);
        out[name] = res.rows.map((r) => r['QUERY PLAN']).join('\n');
      }
    } finally {
      await db.close();
    }
  }
  return out;
}

async function bareFastifyBaseline(
  body: Buffer,
  headers: Record<string, string>,
  dir: string,
  opts: BenchOptions,
  stack: 'bare' | 'security' = 'bare',
  /** The requests to send (the bare app answers the same bytes to any /api/classes query). */
  paths: string[] = [catalogue.page1],
): Promise<ScenarioResult> {
  const bodyFile = path.join(dir, `catalogue-${paths.length}.body`);
  writeFileSync(bodyFile, body);
  const port = await freePort();
  const spawned = spawnNode(
    [BARE_SERVER],
    { PORT: String(port), BARE_BODY_FILE: bodyFile, BARE_HEADERS: JSON.stringify(headers), BARE_STACK: stack },
    path.join(dir, `bare-${stack}.log`),
  );
  try {
    await waitReady(spawned, port, '/api/ready', 30_000);
    const result = await load(
      stack === 'bare' ? 'baseline-fastify' : 'baseline-fastify-security',
      stack === 'bare' ? 'bare Fastify, same bytes' : "same + the app's security plugin",
      { paths },
      { origin: `http://127.0.0.1:${port}`, connections: opts.connections, durationS: opts.duration },
    );
    result.extra = { bytes: body.length };
    return result;
  } finally {
    await stopProcess(spawned.child);
  }
}

/**
 * Catalogue page 1 against bare Fastify serving its bytes, in alternating rounds (A B B A …) with
 * both servers up: on a shared machine whose load drifts, one scenario each a minute apart can
 * differ by a third on load alone, so the ratio decision 035 is judged by comes from rounds that
 * took turns. rps is the mean of the rounds; p99 the worst round's.
 */
async function alternatedWithBare(
  appOrigin: string,
  body: Buffer,
  headers: Record<string, string>,
  dir: string,
  opts: BenchOptions,
): Promise<NonNullable<DatabaseRun['alternated']>> {
  const bodyFile = path.join(dir, 'catalogue-alternated.body');
  writeFileSync(bodyFile, body);
  const port = await freePort();
  const spawned = spawnNode(
    [BARE_SERVER],
    { PORT: String(port), BARE_BODY_FILE: bodyFile, BARE_HEADERS: JSON.stringify(headers), BARE_STACK: 'bare' },
    path.join(dir, 'bare-alternated.log'),
  );
  try {
    await waitReady(spawned, port, '/api/ready', 30_000);
    const order = ['app', 'bare', 'bare', 'app', 'app', 'bare', 'bare', 'app'] as const;
    const durationS = Math.max(2, Math.round(opts.duration / 2));
    const rounds: Record<'app' | 'bare', ScenarioResult[]> = { app: [], bare: [] };
    for (const who of order) {
      const origin = who === 'app' ? appOrigin : `http://127.0.0.1:${port}`;
      rounds[who].push(
        await load(who, who, { paths: [catalogue.page1] }, { origin, connections: opts.connections, durationS }),
      );
    }
    const combine = (id: string, title: string, results: ScenarioResult[]): ScenarioResult => {
      const mean = (pick: (r: ScenarioResult) => number | undefined) =>
        results.reduce((sum, r) => sum + (pick(r) ?? 0), 0) / results.length;
      return {
        ...results[0]!,
        id,
        title,
        rps: Math.round(mean((r) => r.rps)),
        p50: mean((r) => r.p50),
        p99: Math.max(...results.map((r) => r.p99 ?? 0)),
        requests: results.reduce((sum, r) => sum + (r.requests ?? 0), 0),
        durationS: durationS * results.length,
      };
    };
    const app = combine('catalogue-page-1-alternated', 'catalogue page 1, alternated with bare Fastify', rounds.app);
    const bare = combine('baseline-fastify-alternated', 'bare Fastify, alternated with page 1', rounds.bare);
    const ratio = Math.round(((app.rps ?? 0) / (bare.rps || 1)) * 1000) / 1000;
    app.vsFastify = ratio;
    return { app, bare, ratio, rounds: order.length };
  } finally {
    await stopProcess(spawned.child);
  }
}

/**
 * "Bare Fastify doing the same search" (bare-search-server.ts): the framework limit of the same
 * database work, against which the uncached search's ≥ 50% is judged (decision 018).
 */
async function bareSearchBaseline(
  databaseUrl: string,
  queriesByPath: Record<string, CapturedQuery[]>,
  dir: string,
  opts: BenchOptions,
  paths: string[],
): Promise<ScenarioResult> {
  const queriesFile = path.join(dir, 'search-queries.json');
  writeFileSync(queriesFile, JSON.stringify(queriesByPath));
  const port = await freePort();
  const spawned = spawnNode(
    [BARE_SEARCH_SERVER],
    {
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      BARE_QUERIES_FILE: queriesFile,
      BARE_POOL_SIZE: String(SERVER_POOL_SIZE),
    },
    path.join(dir, 'bare-search.log'),
  );
  try {
    await waitReady(spawned, port, '/api/ready', 30_000);
    const result = await load(
      'baseline-fastify-search',
      'bare Fastify, same search SQL (pg pool of 10)',
      { paths },
      { origin: `http://127.0.0.1:${port}`, connections: opts.connections, durationS: opts.duration },
    );
    result.extra = { captured: Object.keys(queriesByPath).length };
    return result;
  } finally {
    await stopProcess(spawned.child);
  }
}

async function profileCatalogue(
  target: GenTarget,
  dir: string,
  serverDataDir: string,
  opts: BenchOptions,
): Promise<ProfileSummary | undefined> {
  const profileDir = path.join(dir, 'cpu-profile');
  mkdirSync(profileDir, { recursive: true });
  const server = await startServer({
    port: await freePort(),
    dataDir: serverDataDir,
    databaseUrl: target.kind === 'postgres' ? target.url : undefined,
    authSecret: randomSecret(),
    seed: false,
    logFile: path.join(dir, 'server-profile.log'),
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir],
  });
  const client = createClient(server.origin);
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  let window: { fromUs: number; toUs: number } | undefined;
  try {
    // The same warm-up as the measured runs, then the profiled window.
    await load(
      'profile',
      'warm-up',
      { paths: [catalogue.page1] },
      { origin: server.origin, connections: opts.connections, durationS: 1 },
    );
    const fromUs = nowUs();
    await load(
      'profile',
      'catalogue page 1 (profiled)',
      { paths: [catalogue.page1] },
      { origin: server.origin, connections: opts.connections, durationS: opts.duration },
    );
    window = { fromUs, toUs: nowUs() };
  } finally {
    client.close();
    await server.stop();
  }
  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return undefined;
  const kept = path.join(RESULTS_DIR, 'profiles', `catalogue-page-1-${target.kind}.cpuprofile`);
  mkdirSync(path.dirname(kept), { recursive: true });
  copyFileSync(path.join(profileDir, file), kept);
  return { ...summarizeProfile(kept, window), file: path.relative(path.dirname(RESULTS_DIR), kept) };
}

const SEARCH_REQUESTS = 400;
/** Of those, how many have their SQL captured and timed alone. */
const SEARCH_SQL_SAMPLES = 150;

/**
 * The search scenario (decision 018): the server with the shared catalogue cache off, every request
 * a different search; bare Fastify with the same requests in the same run; and the SQL of a
 * sample of the requests, captured from the server and replayed alone on one connection.
 */
async function searchBench(
  kind: 'postgres' | 'pglite',
  target: GenTarget,
  dir: string,
  serverDataDir: string,
  opts: BenchOptions,
): Promise<SearchRun> {
  const requests = searchRequests(SEARCH_REQUESTS, PAGE_SIZE);
  const run: SearchRun = { requests: requests.length };
  const serverOptions = async (name: string) => ({
    port: await freePort(),
    dataDir: serverDataDir,
    databaseUrl: kind === 'postgres' ? (target as { url: string }).url : undefined,
    authSecret: randomSecret(),
    seed: false,
    logFile: path.join(dir, `server-search-${name}.log`),
  });
  const uncached = { CATALOGUE_CACHE_TTL_SECONDS: '0' };
  // 1. The SQL of every request, as the server sends it (capture-sql.ts preloaded): a sample is
  // timed alone (4.), and all of them are what bare Fastify runs for the same search (3.).
  const captureFile = path.join(dir, 'search-captured.sql.jsonl');
  const sets: { kind: SearchKind; queries: CapturedQuery[] }[] = [];
  const queriesByPath: Record<string, CapturedQuery[]> = {};
  let firstBody: Buffer | undefined;
  let firstHeaders: Record<string, string> = {};
  {
    const server = await startServer({
      ...(await serverOptions('capture')),
      nodeArgs: ['--import', CAPTURE_PRELOAD],
      extraEnv: { ...uncached, BENCH_CAPTURE_SQL: captureFile, BENCH_CAPTURE_MAX: '100000' },
    });
    const client = createClient(server.origin, 8);
    try {
      let pageOne = 0;
      let withMatches = 0;
      for (const [i, request] of requests.entries()) {
        // A request that fails (a 503 when the machine is overloaded) is counted, not replayed.
        const queries = await captureRequestSql(client, captureFile, request.path, 5).catch(() => null);
        if (queries) {
          queriesByPath[request.path] = queries;
          if (i < SEARCH_SQL_SAMPLES) sets.push({ kind: request.kind, queries });
        } else run.failedCaptures = (run.failedCaptures ?? 0) + 1;
        if (request.page !== 1) continue;
        const answer = await client.request('GET', request.path);
        pageOne += 1;
        if (Number(answer.headers['x-total-count'] ?? 0) > 0) withMatches += 1;
        if (!firstBody) {
          firstBody = answer.body;
          firstHeaders = { 'content-type': String(answer.headers['content-type']) };
          const total = answer.headers['x-total-count'];
          if (typeof total === 'string') firstHeaders['x-total-count'] = total;
        }
      }
      run.found = { pageOne, withMatches };
    } finally {
      client.close();
      await server.stop();
    }
  }
  // 2. Over HTTP, uncached, rotating over every request.
  {
    const server = await startServer({ ...(await serverOptions('http')), extraEnv: uncached });
    try {
      run.http = await load(
        'catalogue-search-uncached',
        'search: prefixes, misspellings, deep pages (no cache)',
        { paths: requests.map((r) => r.path) },
        { origin: server.origin, connections: opts.connections, durationS: opts.duration },
      );
    } finally {
      await server.stop();
    }
  }
  // 3. Bare Fastify, same requests, the bytes of the first search page.
  if (firstBody) {
    run.fastify = await bareFastifyBaseline(
      firstBody,
      firstHeaders,
      dir,
      opts,
      'bare',
      requests.map((r) => r.path),
    );
    if (run.http.rps && run.fastify.rps) run.vsFastify = Math.round((run.http.rps / run.fastify.rps) * 1000) / 1000;
  }
  // 3b. Bare Fastify doing the same search: each request's captured SQL on a pool of the server's size.
  if (kind === 'postgres') {
    run.fastifySearch = await bareSearchBaseline(
      (target as { url: string }).url,
      queriesByPath,
      dir,
      opts,
      requests.map((r) => r.path),
    );
    if (run.http.rps && run.fastifySearch.rps) {
      run.vsFastifySearch = Math.round((run.http.rps / run.fastifySearch.rps) * 1000) / 1000;
    }
  }
  // 4. Each sampled request's SQL alone.
  const samples = await sampleQueries(target, sets, 3);
  const byKind: Record<string, number[]> = {};
  for (const { kind: k, ms } of samples) (byKind[k] ??= []).push(ms);
  const all = samples.map((s) => s.ms).sort((a, b) => a - b);
  const stats = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  run.sql = {
    all: { ...stats(all), max: Math.round((all.at(-1) ?? 0) * 10) / 10 },
    byKind: Object.fromEntries(Object.entries(byKind).map(([k, times]) => [k, stats(times)])),
  };
  return run;
}

async function benchDatabase(
  kind: 'postgres' | 'pglite',
  opts: BenchOptions,
  passwordHash: string,
): Promise<DatabaseRun> {
  const run: DatabaseRun = { kind, scenarios: [], baselines: {}, growth: [] };
  const dir = tempDir(kind);
  const serverDataDir = path.join(dir, 'data');
  mkdirSync(serverDataDir, { recursive: true });
  let target: GenTarget;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (kind === 'postgres') {
    const adminUrl = opts.postgresUrl;
    const url = new URL(adminUrl);
    url.pathname = `/${opts.benchDatabase}`;
    target = { kind, url: url.toString() };
    const admin = async (sqlText: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(sqlText);
      } finally {
        await client.end();
      }
    };
    dropDatabase = () => admin(`drop database if exists "${opts.benchDatabase}" with (force)`);
    await dropDatabase();
    await admin(`create database "${opts.benchDatabase}"`);
    onCleanup(dropDatabase);
  } else {
    target = { kind, dataDir: serverDataDir };
  }

  let gen: Generator | undefined;
  let genOpen = false;
  try {
    log(`${kind}: migrate`);
    await migrate(
      kind === 'postgres' ? { DATABASE_URL: (target as { url: string }).url } : { DATA_DIR: serverDataDir },
      path.join(dir, 'migrate.log'),
    );
    const plan = makePlan({ users: opts.users, classes: opts.classes, enrollments: opts.enrollments });
    run.plan = plan;
    const generationStarted = performance.now();
    let generationMs = 0;
    gen = await Generator.open(target, plan);
    genOpen = true;
    await gen.base({ passwordHash, uploadDir: path.join(serverDataDir, 'uploads') });
    generationMs += performance.now() - generationStarted;

    const captured: Record<string, CapturedQuery[]> = {};
    const captureFile = path.join(dir, 'captured.sql.jsonl');
    // Only the search scenario: the catalogue at its final size, no growth steps.
    const steps = opts.parts.has('http') ? opts.growthSteps : [opts.classes];
    for (const [stepIndex, classes] of steps.entries()) {
      const isFinal = stepIndex === steps.length - 1;
      const stepStarted = performance.now();
      log(`${kind}: generate classes up to ${classes.toLocaleString('en-US')}`);
      await gen.growClasses(classes);
      await gen.analyze();
      if (isFinal) {
        const counts = await gen.verify();
        generationMs += performance.now() - stepStarted;
        run.generation = { timings: gen.timings, totalMs: Math.round(generationMs), counts };
        log(`${kind}: generated ${JSON.stringify(counts)} in ${(generationMs / 1000).toFixed(1)} s`);
      } else {
        generationMs += performance.now() - stepStarted;
      }
      await gen.close();
      genOpen = false;

      if (!opts.parts.has('http')) {
        log(`${kind}: search scenario at ${classes.toLocaleString('en-US')} classes (the catalogue cache off)`);
        run.search = await searchBench(kind, target, dir, serverDataDir, opts).catch((error: unknown) => ({
          requests: 0,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }));
        continue;
      }
      const capture = stepIndex === 0;
      const server = await startServer({
        port: await freePort(),
        dataDir: serverDataDir,
        databaseUrl: kind === 'postgres' ? (target as { url: string }).url : undefined,
        authSecret: randomSecret(),
        seed: false,
        logFile: path.join(dir, `server-${classes}.log`),
        ...(capture ? { nodeArgs: ['--import', CAPTURE_PRELOAD], extraEnv: { BENCH_CAPTURE_SQL: captureFile } } : {}),
      });
      const client = createClient(server.origin, opts.connections + 8);
      try {
        if (capture) {
          // The very first catalogue requests, so nothing is cached yet: each one's full SQL
          // (the page, and its total).
          try {
            captured['page 1'] = await captureRequestSql(client, captureFile, catalogue.page1);
            captured[`page ${DEEP_PAGE}`] = await captureRequestSql(client, captureFile, catalogue.deep(DEEP_PAGE));
            captured['search'] = await captureRequestSql(client, captureFile, catalogue.search);
            run.catalogueSql = describeSql(captured['page 1']);
          } catch (error) {
            log(`${kind}: could not capture the catalogue SQL: ${(error as Error).message}`);
          }
        }
        if (!isFinal) {
          log(`${kind}: growth step ${classes.toLocaleString('en-US')} classes`);
          const c = await catalogueScenarios(client, opts.growthDuration, opts.connections);
          run.growth.push({
            classes,
            acceptedClasses: acceptedCount(classes),
            enrollments: gen.enrolled,
            deepPage: c.deepPage,
            page1: pick(c.page1),
            deep: pick(c.deep),
            search: { ...pick(c.search), total: c.searchTotal },
          });
        } else {
          const rssAfterStartMiB = rssMiB(server.pid);
          log(
            `${kind}: HTTP scenarios at ${classes.toLocaleString('en-US')} classes (${opts.duration} s each, ${opts.connections} connections)`,
          );
          const c = await catalogueScenarios(client, opts.duration, opts.connections);
          run.scenarios.push(c.page1, c.deep, c.search);
          run.growth.push({
            classes,
            acceptedClasses: acceptedCount(classes),
            enrollments: gen.enrolled,
            deepPage: c.deepPage,
            page1: pick(c.page1),
            deep: pick(c.deep),
            search: { ...pick(c.search), total: c.searchTotal },
          });

          // Page 1 as browsers ask for it: compressed (autocannon sends no Accept-Encoding otherwise).
          const br = await load(
            'catalogue-page-1-br',
            'catalogue page 1, brotli',
            { paths: [catalogue.page1], headers: { 'accept-encoding': 'br, gzip' } },
            { origin: server.origin, connections: opts.connections, durationS: opts.duration },
          );
          br.request = `${br.request} (Accept-Encoding: br, gzip)`;
          run.scenarios.push(br);

          // The catalogue page as a browser asks for it (decision 030): rendered on the server with
          // its first page of classes and shared between anonymous visitors for the cache's
          // lifetime, as the JSON above is. Judged against that JSON in this same run.
          const renderedPath = '/allClassAllowed';
          const renderedHeaders = { 'accept-encoding': 'br, gzip', accept: 'text/html' };
          const renderedProbe = await client.request('GET', renderedPath, { headers: { accept: 'text/html' } });
          const isRendered =
            renderedProbe.status === 200 && renderedProbe.body.toString().includes('id="skillhive-state"');
          const rendered = isRendered
            ? await load(
                'catalogue-page-rendered',
                'catalogue page, server-rendered HTML (shared), brotli',
                { paths: [renderedPath], headers: renderedHeaders },
                { origin: server.origin, connections: opts.connections, durationS: opts.duration },
              )
            : skipped(
                'catalogue-page-rendered',
                'catalogue page, server-rendered HTML (shared), brotli',
                `GET ${renderedPath}`,
                `answered ${renderedProbe.status} without a rendered page (is apps/web/dist-ssr built?)`,
              );
          if (isRendered) {
            rendered.request = `${rendered.request} (Accept-Encoding: br, gzip)`;
            rendered.extra = {
              bytes: renderedProbe.body.length,
              ...(br.rps ? { vsCachedJson: Math.round(((rendered.rps ?? 0) / br.rps) * 1000) / 1000 } : {}),
            };
          }
          run.scenarios.push(rendered);

          // The floor of the stack: a route with every plugin and hook but no database.
          run.scenarios.push(
            await load(
              'health',
              'GET /api/health (no database)',
              { paths: ['/api/health'] },
              { origin: server.origin, connections: opts.connections, durationS: opts.duration },
            ),
          );

          // A class by id, rotating over a thousand accepted classes.
          const byIdPaths = sampleClassIds(plan, 1_000).map((id) => `/api/classes/${id}`);
          const byIdProbe = await client.request('GET', byIdPaths[0]!);
          run.scenarios.push(
            byIdProbe.status === 200
              ? await load(
                  'class-by-id',
                  'class by id',
                  { paths: byIdPaths },
                  { origin: server.origin, connections: opts.connections, durationS: opts.duration },
                )
              : skipped(
                  'class-by-id',
                  'class by id',
                  `GET ${byIdPaths[0]}`,
                  `GET /api/classes/:id answered ${byIdProbe.status}`,
                ),
          );

          // A student's enrollments, with a token from sign-in → POST /api/jwt.
          const email = historyStudentEmail(plan, 0);
          const enrolledPath = `/api/enrolled/${encodeURIComponent(email)}`;
          if (await hasRoute(client, 'GET', enrolledPath)) {
            const token = await signInForToken(client, email, BENCH_PASSWORD);
            const headers = { authorization: `Bearer ${token}` };
            const probe = await client.request('GET', enrolledPath, { headers });
            const result =
              probe.status === 200
                ? await load(
                    'student-enrollments',
                    "a student's enrollments",
                    { paths: [enrolledPath], headers },
                    { origin: server.origin, connections: opts.connections, durationS: opts.duration },
                  )
                : skipped(
                    'student-enrollments',
                    "a student's enrollments",
                    `GET ${enrolledPath}`,
                    `answered ${probe.status}: ${probe.body.toString().slice(0, 120)}`,
                  );
            if (probe.status === 200)
              result.extra = {
                enrollmentsOfStudent: Number(probe.headers['x-total-count'] ?? json<unknown[]>(probe).length),
              };
            run.scenarios.push(result);
          } else {
            run.scenarios.push(
              skipped(
                'student-enrollments',
                "a student's enrollments",
                `GET ${enrolledPath}`,
                'GET /api/enrolled/:email: the server under test has no such route',
              ),
            );
          }

          log(`${kind}: purchase flow, without and with a coupon`);
          run.scenarios.push(...(await flowScenario(client, server, plan, opts)));
          run.server = {
            readyMs: Math.round(server.readyMs),
            rssAfterStartMiB,
            rssAfterScenariosMiB: rssMiB(server.pid),
          };

          // The bytes of page 1, for the bare Fastify baseline.
          const page1 = await client.request('GET', catalogue.page1);
          if (page1.status === 200) {
            const headers: Record<string, string> = { 'content-type': String(page1.headers['content-type']) };
            const total = page1.headers['x-total-count'];
            if (typeof total === 'string') headers['x-total-count'] = total;
            log(`${kind}: catalogue page 1 and bare Fastify in alternating rounds`);
            run.alternated = await alternatedWithBare(server.origin, page1.body, headers, dir, opts);
            client.close();
            await server.stop();
            // The same page with LOG_LEVEL=warn (no line per request): what logging costs.
            log(`${kind}: catalogue page 1 with LOG_LEVEL=warn`);
            const quiet = await startServer({
              port: await freePort(),
              dataDir: serverDataDir,
              databaseUrl: kind === 'postgres' ? (target as { url: string }).url : undefined,
              authSecret: randomSecret(),
              seed: false,
              logLevel: 'warn',
              logFile: path.join(dir, `server-${classes}-warn.log`),
            });
            try {
              const warn = await load(
                'catalogue-page-1-warn',
                'catalogue page 1, LOG_LEVEL=warn',
                { paths: [catalogue.page1] },
                { origin: quiet.origin, connections: opts.connections, durationS: opts.duration },
              );
              run.scenarios.push(warn);
            } finally {
              await quiet.stop();
            }
            log(`${kind}: baseline — bare Fastify with the same ${page1.body.length} bytes`);
            run.baselines.fastify = await bareFastifyBaseline(page1.body, headers, dir, opts);
            run.baselines.fastifySecurity = await bareFastifyBaseline(page1.body, headers, dir, opts, 'security');
          }
        }
      } finally {
        client.close();
        await server.stop();
      }
      if (isFinal && opts.parts.has('search')) {
        log(`${kind}: search scenario (the catalogue cache off)`);
        run.search = await searchBench(kind, target, dir, serverDataDir, opts).catch((error: unknown) => ({
          requests: 0,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }));
      }
      const point = run.growth.at(-1);
      const sqlSets = { 'page 1': captured['page 1'], deep: captured[`page ${DEEP_PAGE}`], search: captured['search'] };
      if (point && sqlSets['page 1'] && sqlSets.deep && sqlSets.search) {
        point.sql = await timeQueries(target, sqlSets as Record<string, CapturedQuery[]>);
      }
      if (!isFinal) {
        await gen.reopen(target);
        genOpen = true;
      }
    }

    const page1Sql = captured['page 1'];
    if (page1Sql && page1Sql.length > 0) {
      log(`${kind}: baseline — the raw SQL of page 1 through the same driver`);
      run.baselines.sql = await runSqlBaseline(target, page1Sql, {
        durationS: opts.duration,
        connections: opts.connections,
      });
      run.explain = await explainAll(target, captured);
    }
    const fastifyRps = run.baselines.fastify?.rps;
    const sqlRps = run.baselines.sql?.rps;
    for (const scenario of [
      ...run.scenarios,
      ...(run.baselines.fastifySecurity ? [run.baselines.fastifySecurity] : []),
    ]) {
      if (scenario.skipped || scenario.id.startsWith('purchase-flow') || scenario.rps === undefined) continue;
      if (fastifyRps) scenario.vsFastify = Math.round((scenario.rps / fastifyRps) * 1000) / 1000;
      if (sqlRps) scenario.vsDatabase = Math.round((scenario.rps / sqlRps) * 1000) / 1000;
    }
    if (opts.profile && !run.scenarios[0]?.skipped) {
      log(`${kind}: CPU profile of the server during catalogue page 1`);
      run.profile = await profileCatalogue(target, dir, serverDataDir, opts);
    }
  } catch (error) {
    run.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`${kind}: FAILED: ${run.error}`);
  } finally {
    if (gen && genOpen) await gen.close().catch(() => {});
    if (dropDatabase) await dropDatabase().catch(() => {});
    removeTempDir(dir);
  }
  return run;
}

/** Embedded start-up (fresh DATA_DIR with demo seed, then the same DATA_DIR again) and Lighthouse. */
async function benchStartupAndWeb(opts: BenchOptions): Promise<{
  startup?: StartupRun;
  lighthouse?: {
    pages: LighthousePage[];
    lighthouseVersion: string;
    chromeVersion: string;
    origin: string;
    skipped?: string;
  };
  firstLoadJs?: FirstLoadJs[];
}> {
  const out: Awaited<ReturnType<typeof benchStartupAndWeb>> = {};
  const dir = tempDir('embedded');
  const dataDir = path.join(dir, 'data');
  const authSecret = randomSecret();
  const startup: StartupRun = { existingDataDir: [] };
  try {
    const port = await freePort();
    log('startup: embedded server, fresh DATA_DIR with seed');
    const server = await startServer({
      port,
      dataDir,
      authSecret,
      seed: true,
      logFile: path.join(dir, 'server-fresh.log'),
    });
    try {
      startup.freshWithSeed = { readyMs: Math.round(server.readyMs), rssMiB: rssMiB(server.pid) };
      if (opts.parts.has('lighthouse')) {
        if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
          out.lighthouse = {
            pages: [],
            lighthouseVersion: '',
            chromeVersion: '',
            origin: server.origin,
            skipped: 'apps/web/dist is not built (npm run build)',
          };
        } else if (!existsSync(opts.chromePath)) {
          out.lighthouse = {
            pages: [],
            lighthouseVersion: '',
            chromeVersion: '',
            origin: server.origin,
            skipped: `no chromium at ${opts.chromePath}`,
          };
        } else {
          log(`lighthouse: mobile, ${opts.lighthouseRuns} run(s) per page, against ${server.origin} (demo data)`);
          // A class page (DESIGN §6 names it beside / and the catalogue): the newest demo class.
          const newest = (await (await fetch(`${server.origin}/api/classes?limit=1`)).json()) as { _id: string }[];
          const classPage = newest[0] ? [`/classes/${newest[0]._id}`] : [];
          const lh = await runLighthouse({
            origin: server.origin,
            chromePath: opts.chromePath,
            pages: ['/', '/allClassAllowed', ...classPage],
            jsOnlyPages: ['/login', '/signup', '/teach'],
            runs: opts.lighthouseRuns,
            log,
          });
          out.lighthouse = {
            pages: lh.pages,
            lighthouseVersion: lh.lighthouseVersion,
            chromeVersion: lh.chromeVersion,
            origin: 'embedded server with demo data',
          };
          out.firstLoadJs = lh.firstLoadJs;
          startup.rssAfterLighthouseMiB = rssMiB(server.pid);
        }
      }
    } finally {
      await server.stop();
    }
    if (opts.parts.has('startup')) {
      log('startup: embedded server, fresh DATA_DIR without seed');
      const bareDir = path.join(dir, 'data-no-seed');
      const noSeed = await startServer({
        port,
        dataDir: bareDir,
        authSecret,
        seed: false,
        logFile: path.join(dir, 'server-no-seed.log'),
      });
      startup.freshNoSeed = { readyMs: Math.round(noSeed.readyMs), rssMiB: rssMiB(noSeed.pid) };
      await noSeed.stop();
      for (let i = 0; i < 3; i++) {
        log(`startup: embedded server, existing DATA_DIR (${i + 1}/3)`);
        const again = await startServer({
          port,
          dataDir,
          authSecret,
          seed: true,
          logFile: path.join(dir, 'server-again.log'),
        });
        startup.existingDataDir.push({ readyMs: Math.round(again.readyMs), rssMiB: rssMiB(again.pid) });
        await again.stop();
      }
    }
  } catch (error) {
    startup.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`startup/web: FAILED: ${startup.error}`);
  } finally {
    removeTempDir(dir);
  }
  if (opts.parts.has('startup')) out.startup = startup;
  return out;
}

function evaluateTargets(results: {
  databases: DatabaseRun[];
  schedule?: ScheduleBenchResult;
  lighthouse?: { pages: LighthousePage[]; skipped?: string };
  firstLoadJs?: FirstLoadJs[];
  startup?: StartupRun;
}): Target[] {
  const targets: Target[] = [];
  const pgRun = results.databases.find((d) => d.kind === 'postgres');
  const page1 = pgRun?.scenarios.find((s) => s.id === 'catalogue-page-1');
  const measured = page1 && !page1.skipped;
  targets.push({
    name: 'catalogue page 1 on PostgreSQL vs bare Fastify',
    target: '≥ 60%',
    measured:
      measured && page1.vsFastify !== undefined
        ? `${fmt.ratio(page1.vsFastify)} (${fmt.int(page1.rps)} vs ${fmt.int(pgRun?.baselines.fastify?.rps)} req/s)`
        : (page1?.skipped ?? 'not measured'),
    met: measured && page1.vsFastify !== undefined ? page1.vsFastify >= 0.6 : null,
  });
  // Decision 035: the cached page at the default log level, judged against bare Fastify in rounds
  // that took turns with it, on both databases.
  for (const db of results.databases) {
    const name = db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
    targets.push({
      name: `catalogue page 1 on ${name} vs bare Fastify, alternating rounds`,
      target: '≥ 75%',
      measured: db.alternated
        ? `${fmt.ratio(db.alternated.ratio)} (${fmt.int(db.alternated.app.rps)} vs ${fmt.int(db.alternated.bare.rps)} req/s)`
        : 'not measured',
      met: db.alternated ? db.alternated.ratio >= 0.75 : null,
    });
  }
  targets.push({
    name: 'catalogue page 1 on PostgreSQL p99 at 50 connections',
    target: '≤ 30 ms',
    measured: measured ? `${fmt.ms(page1.p99)} ms` : (page1?.skipped ?? 'not measured'),
    met: measured && page1.p99 !== undefined ? page1.p99 <= 30 : null,
  });
  // Decision 030: the server-rendered catalogue page, shared like the JSON, against that JSON
  // (brotli both) in the same run; PostgreSQL's run when there is one.
  const ssrRun = pgRun ?? results.databases[0];
  const ssr = ssrRun?.scenarios.find((s) => s.id === 'catalogue-page-rendered');
  const ssrJson = ssrRun?.scenarios.find((s) => s.id === 'catalogue-page-1-br');
  const ssrRatio = ssr?.extra?.['vsCachedJson'] as number | undefined;
  const ssrMeasured = ssr && !ssr.skipped && ssrRatio !== undefined;
  targets.push({
    name: `server-rendered catalogue page vs cached catalogue JSON${ssrRun ? ` (${ssrRun.kind})` : ''}`,
    target: '≥ 50%',
    measured: ssrMeasured
      ? `${fmt.ratio(ssrRatio)} (${fmt.int(ssr.rps)} vs ${fmt.int(ssrJson?.rps)} req/s)`
      : (ssr?.skipped ?? 'not measured'),
    met: ssrMeasured ? ssrRatio >= 0.5 : null,
  });
  targets.push({
    name: 'server-rendered catalogue page p99 at 50 connections',
    target: '≤ 30 ms',
    measured: ssrMeasured ? `${fmt.ms(ssr.p99)} ms` : (ssr?.skipped ?? 'not measured'),
    met: ssrMeasured && ssr.p99 !== undefined ? ssr.p99 <= 30 : null,
  });
  // Decision 018: uncached search of prefixes, misspellings and deep pages.
  const pgSearch = pgRun?.search;
  targets.push({
    name: 'uncached search SQL p99 on PostgreSQL (prefixes, misspellings, deep pages)',
    target: '≤ 50 ms',
    measured: pgSearch?.sql
      ? `${fmt.ms(pgSearch.sql.all.p99)} ms`
      : (pgSearch?.error?.split('\n')[0] ?? 'not measured'),
    met: pgSearch?.sql ? pgSearch.sql.all.p99 <= 50 : null,
  });
  // Decision 053: schedule-filtered catalogue pages (page and total) on their own database.
  const schedule = results.schedule;
  targets.push({
    name: 'catalogue schedule filter SQL p99 on PostgreSQL (page; total up to 1 001)',
    target: '≤ 50 ms',
    measured: schedule
      ? `${fmt.ms(schedule.pageP99)} ms; ${fmt.ms(schedule.countP99)} ms (${fmt.int(schedule.classes)} classes, ${fmt.int(schedule.sections)} sections)`
      : 'not measured',
    met: schedule ? Math.max(schedule.pageP99, schedule.countP99) <= 50 : null,
  });
  // Judged against bare Fastify doing the same search (decision 018, "Which bare Fastify"); the
  // fixed-bytes ratio is reported beside it.
  targets.push({
    name: 'uncached search over HTTP on PostgreSQL vs bare Fastify doing the same search SQL',
    target: '≥ 50%',
    measured:
      pgSearch?.vsFastifySearch !== undefined
        ? `${fmt.ratio(pgSearch.vsFastifySearch)} (${fmt.int(pgSearch.http?.rps)} vs ${fmt.int(pgSearch.fastifySearch?.rps)} req/s; ` +
          `vs fixed bytes ${pgSearch.vsFastify !== undefined ? fmt.ratio(pgSearch.vsFastify) : '–'}, ${fmt.int(pgSearch.fastify?.rps)} req/s)`
        : 'not measured',
    met: pgSearch?.vsFastifySearch !== undefined ? pgSearch.vsFastifySearch >= 0.5 : null,
  });
  // DESIGN §6, for the server-rendered pages (decision 030).
  const lhTargets: [keyof LighthousePage, string, string, (v: number) => boolean][] = [
    ['performance', 'Lighthouse performance', '≥ 98', (v) => v >= 98],
    ['lcpMs', 'Lighthouse LCP', '≤ 1 500 ms', (v) => v <= 1500],
    ['accessibility', 'Lighthouse accessibility', '100', (v) => v >= 100],
    ['bestPractices', 'Lighthouse best practices', '100', (v) => v >= 100],
    ['seo', 'Lighthouse SEO', '100', (v) => v >= 100],
    ['cls', 'CLS', '0', (v) => v === 0],
  ];
  for (const [key, name, target, ok] of lhTargets) {
    const pages = results.lighthouse?.pages ?? [];
    const values = pages.map((p) => ({ path: p.path, value: p[key] as number | null }));
    const known = values.filter((v): v is { path: string; value: number } => v.value !== null);
    targets.push({
      name: `${name} (mobile)`,
      target,
      measured: values.length
        ? values.map((v) => `${v.path} ${v.value ?? '–'}`).join(', ')
        : (results.lighthouse?.skipped ?? 'not measured'),
      met: known.length ? known.every((v) => ok(v.value)) : null,
    });
  }
  const js = results.firstLoadJs ?? [];
  targets.push({
    name: 'first-load JavaScript per public route',
    target: '≤ 150 KB gzip',
    measured: js.length ? js.map((j) => `${j.path} ${j.gzipKB} KB`).join(', ') : 'not measured',
    met: js.length ? js.every((j) => j.gzipKB <= 150) : null,
  });
  const starts = [
    ...(results.startup?.freshWithSeed ? [{ label: 'fresh + seed', ms: results.startup.freshWithSeed.readyMs }] : []),
    ...(results.startup?.freshNoSeed ? [{ label: 'fresh, no seed', ms: results.startup.freshNoSeed.readyMs }] : []),
    ...(results.startup?.existingDataDir ?? []).map((s, i) => ({ label: `existing #${i + 1}`, ms: s.readyMs })),
  ];
  targets.push({
    name: 'embedded start to ready',
    target: '≤ 5 s',
    measured: starts.length ? starts.map((s) => `${s.label} ${(s.ms / 1000).toFixed(2)} s`).join(', ') : 'not measured',
    met: starts.length ? starts.every((s) => s.ms <= 5_000) : null,
  });
  return targets;
}

function printReport(results: {
  databases: DatabaseRun[];
  schedule?: ScheduleBenchResult;
  lighthouse?: { pages: LighthousePage[]; skipped?: string };
  firstLoadJs?: FirstLoadJs[];
  startup?: StartupRun;
  targets: Target[];
}): string {
  const out: string[] = [];
  for (const db of results.databases) {
    out.push('', `## ${db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}`);
    if (db.error) out.push(`FAILED: ${db.error.split('\n')[0]}`);
    if (db.plan && db.generation) {
      out.push(
        `data: ${fmt.int(db.generation.counts.classes)} classes, ${fmt.int(db.generation.counts.users)} users, ${fmt.int(db.generation.counts.enrollments)} enrollments, ${fmt.int(db.generation.counts.payments)} payments — generated in ${(db.generation.totalMs / 1000).toFixed(1)} s`,
      );
    }
    if (db.server) {
      out.push(
        `server: ready in ${db.server.readyMs} ms; RSS ${db.server.rssAfterStartMiB} MiB after start, ${db.server.rssAfterScenariosMiB} MiB after the scenarios`,
      );
    }
    const rows = [
      ...db.scenarios,
      ...[
        db.baselines.fastify,
        db.baselines.fastifySecurity,
        db.baselines.sql,
        db.alternated?.app,
        db.alternated?.bare,
      ].filter((r): r is ScenarioResult => r !== undefined),
    ];
    if (rows.length) out.push('', table(SCENARIO_HEADERS, scenarioRows(rows)));
    if (db.alternated)
      out.push(
        `catalogue page 1 vs bare Fastify over ${db.alternated.rounds} alternating rounds: ${(db.alternated.ratio * 100).toFixed(0)}% (target ≥ 75%, decision 035)`,
      );
    if (db.search) {
      const sr = db.search;
      out.push('', `search, uncached (${sr.requests} different requests: prefixes, misspellings, deep pages):`);
      if (sr.error) out.push(`FAILED: ${sr.error.split('\n')[0]}`);
      const rows = [sr.http, sr.fastifySearch, sr.fastify].filter((r): r is ScenarioResult => r !== undefined);
      if (rows.length) out.push(table(SCENARIO_HEADERS, scenarioRows(rows)));
      if (sr.vsFastifySearch !== undefined)
        out.push(
          `HTTP search vs bare Fastify doing the same search SQL: ${(sr.vsFastifySearch * 100).toFixed(0)}% (target ≥ 50%)`,
        );
      if (sr.vsFastify !== undefined)
        out.push(`HTTP search vs bare Fastify sending fixed bytes: ${(sr.vsFastify * 100).toFixed(1)}%`);
      if (sr.found) out.push(`page-1 searches that found classes: ${sr.found.withMatches} of ${sr.found.pageOne}`);
      if (sr.failedCaptures) out.push(`sampled requests that failed during the SQL capture: ${sr.failedCaptures}`);
      if (sr.sql) {
        out.push(
          `SQL alone, ms: all p50 ${fmt.ms(sr.sql.all.p50)} / p99 ${fmt.ms(sr.sql.all.p99)} / max ${fmt.ms(sr.sql.all.max)} (target p99 ≤ 50 on PostgreSQL); ` +
            Object.entries(sr.sql.byKind)
              .map(([k, v]) => `${k} ${fmt.ms(v.p50)} / ${fmt.ms(v.p99)}`)
              .join('; '),
        );
      }
    }
    for (const flow of db.scenarios.filter((s) => s.id.startsWith('purchase-flow') && !s.skipped)) {
      const steps = flow.extra?.steps as { step: string; requests: number; p50: number; p99: number }[] | undefined;
      if (!steps) continue;
      const what = flow.id === 'purchase-flow-coupon' ? 'purchase flow with a coupon' : 'purchase flow';
      out.push('', `${what} steps (${flow.extra?.flowsCompleted} flows, ${flow.extra?.flowsFailed} failed):`);
      out.push(
        table(
          ['step', 'requests', 'p50 ms', 'p99 ms'],
          steps.map((s) => [s.step, s.requests, fmt.ms(s.p50), fmt.ms(s.p99)]),
        ),
      );
    }
    const plain = db.scenarios.find((s) => s.id === 'purchase-flow' && !s.skipped);
    const coupon = db.scenarios.find((s) => s.id === 'purchase-flow-coupon' && !s.skipped);
    if (plain?.rps && coupon?.rps) {
      out.push(
        '',
        `purchase flow with a coupon: ${((coupon.rps / plain.rps) * 100).toFixed(0)}% of the flows/s without (target ≥ 90%), p50 ${fmt.ms(coupon.p50)} vs ${fmt.ms(plain.p50)} ms`,
      );
    }
    if (db.growth.length) {
      out.push('', "growth — HTTP: p99 ms (req/s); SQL: the request's uncached queries alone, p50 / p99 ms:");
      const sqlCell = (v?: { p50: number; p99: number }) => (v ? `${fmt.ms(v.p50)} / ${fmt.ms(v.p99)}` : null);
      out.push(
        table(
          [
            'classes',
            'enrollments',
            'page 1',
            'SQL page 1',
            `page ${DEEP_PAGE}`,
            `SQL page ${DEEP_PAGE}`,
            `search "${SEARCH_TERM}"`,
            'SQL search',
            'matches',
          ],
          db.growth.map((g) => [
            fmt.int(g.classes),
            fmt.int(g.enrollments),
            g.page1.skipped ? 'skipped' : `${fmt.ms(g.page1.p99)} (${fmt.int(g.page1.rps)})`,
            sqlCell(g.sql?.['page 1']),
            g.deep.skipped ? 'skipped' : `${fmt.ms(g.deep.p99)} (${fmt.int(g.deep.rps)})`,
            sqlCell(g.sql?.deep),
            g.search.skipped ? 'skipped' : `${fmt.ms(g.search.p99)} (${fmt.int(g.search.rps)})`,
            sqlCell(g.sql?.search),
            fmt.int(g.search.total),
          ]),
        ),
      );
    }
    if (db.profile) {
      out.push('', `CPU profile of the server during catalogue page 1 (${db.profile.file}), self time by owner:`);
      out.push(
        table(
          ['owner', 'self ms', '%'],
          db.profile.byOwner.slice(0, 10).map((o) => [o.owner, o.selfMs, o.pct]),
        ),
      );
    }
  }
  if (results.lighthouse) {
    out.push('', '## Web (Lighthouse, mobile)');
    if (results.lighthouse.skipped) out.push(`skipped: ${results.lighthouse.skipped}`);
    out.push(
      table(
        ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP ms', 'CLS', 'TBT ms', 'perf runs'],
        results.lighthouse.pages.map((p) => [
          p.path,
          p.performance,
          p.accessibility,
          p.bestPractices,
          p.seo,
          p.lcpMs,
          p.cls,
          p.tbtMs,
          p.performanceRuns.join(' '),
        ]),
      ),
    );
  }
  if (results.firstLoadJs?.length) {
    out.push('', 'first-load JavaScript:');
    out.push(
      table(
        ['route', 'gzip KB', 'transferred KB', 'raw KB', 'files'],
        results.firstLoadJs.map((j) => [j.path, j.gzipKB, j.transferKB, j.rawKB, j.files.length]),
      ),
    );
  }
  if (results.startup) {
    const s = results.startup;
    out.push('', '## Embedded start-up (node apps/server/dist/server.js → /api/ready)');
    if (s.error) out.push(`FAILED: ${s.error.split('\n')[0]}`);
    out.push(
      table(
        ['run', 'ready ms', 'RSS MiB'],
        [
          ...(s.freshWithSeed ? [['fresh DATA_DIR + seed', s.freshWithSeed.readyMs, s.freshWithSeed.rssMiB]] : []),
          ...(s.freshNoSeed ? [['fresh DATA_DIR, SEED=false', s.freshNoSeed.readyMs, s.freshNoSeed.rssMiB]] : []),
          ...s.existingDataDir.map((e, i) => [`existing DATA_DIR #${i + 1}`, e.readyMs, e.rssMiB]),
          ...(s.rssAfterLighthouseMiB ? [['after the Lighthouse runs', null, s.rssAfterLighthouseMiB]] : []),
        ],
      ),
    );
  }
  const sched = results.schedule;
  if (sched) {
    out.push(
      '',
      '## Catalogue schedule filters (PostgreSQL, decision 053)',
      `${fmt.int(sched.classes)} classes, ${fmt.int(sched.sections)} sections, ${fmt.int(sched.sessions)} sessions (generated in ${sched.generateS} s, summaries in ${sched.summaryBackfillS} s); ${sched.requests} filters, load average ${sched.loadAverage.join(' ')}`,
      table(
        ['', 'p50 ms', 'p99 ms'],
        [
          ['fitting classes, up to 1 001 (the total)', sched.countP50, sched.countP99],
          ['the page (from those, or walked when more fit)', sched.pageP50, sched.pageP99],
          ['whole uncached service call (page, total, next starts)', sched.serviceP50, sched.serviceP99],
        ],
      ),
      `slowest: ${sched.slowest.map((s) => `${s.label} ${s.ms} ms`).join('; ')}`,
    );
  }
  out.push('', '## Targets (DESIGN.md §6)', table(['', 'target', 'goal', 'measured', ''], targetRows(results.targets)));
  return out.join('\n');
}

async function main() {
  const opts = loadOptions();
  const facts = machineFacts();
  const date = new Date().toISOString();
  const envSettings = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_')));
  const command = `${Object.entries(envSettings)
    .map(([k, v]) => `${k}=${v} `)
    .join('')}npm run bench`;
  log(`${command} — ${facts.nproc} CPUs, ${facts.memoryGiB} GiB, node ${facts.node}`);
  log(
    `classes ${fmt.int(opts.classes)}, users ${fmt.int(opts.users)}, enrollments ${fmt.int(opts.enrollments)}; growth ${opts.growthSteps.map((n) => fmt.int(n)).join(' → ')}; ${opts.duration} s per scenario at ${opts.connections} connections`,
  );

  // The bench measures what `npm start` runs: the server bundle, rebuilt so it matches the sources.
  log('building the server bundle (npm run build -w @skillhive/server)');
  execFileSync('npm', ['run', 'build', '--silent', '-w', '@skillhive/server'], { cwd: REPO_ROOT, stdio: 'inherit' });

  const databases: DatabaseRun[] = [];
  if (opts.parts.has('http') || opts.parts.has('search')) {
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    for (const kind of opts.targets) databases.push(await benchDatabase(kind, opts, passwordHash));
  }
  const web = opts.parts.has('startup') || opts.parts.has('lighthouse') ? await benchStartupAndWeb(opts) : {};
  const schedule = opts.parts.has('schedule')
    ? await benchSchedule(
        opts,
        (url) => migrate({ DATABASE_URL: url }, path.join(tempDir('schedule'), 'migrate.log')),
        log,
      )
    : undefined;

  const partial = {
    databases,
    schedule,
    lighthouse: web.lighthouse,
    firstLoadJs: web.firstLoadJs,
    startup: web.startup,
  };
  const targets = evaluateTargets(partial);
  const results = {
    meta: {
      date,
      command,
      quick: opts.quick,
      machine: facts,
      options: { ...opts, parts: [...opts.parts] },
      webBuild: existsSync(path.join(WEB_DIST, 'index.html'))
        ? statSync(path.join(WEB_DIST, 'index.html')).mtime.toISOString()
        : null,
      durationS: Math.round((performance.now() - benchStarted) / 1000),
    },
    targets,
    ...partial,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  // A run of some parts only (BENCH_PARTS=search) does not replace the full run's record.
  const name = opts.parts.size === PARTS.length ? 'latest' : `latest-${[...opts.parts].sort().join('-')}`;
  writeFileSync(path.join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  const report = printReport({ ...partial, targets });
  writeFileSync(path.join(RESULTS_DIR, `${name}.txt`), `${command}\n${date}\n${report}\n`);
  process.stdout.write(`${report}\n\nwritten: bench/results/${name}.json (${results.meta.durationS} s)\n`);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    log(`${signal}: stopping servers, dropping the bench database, removing temp dirs`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

try {
  await main();
} finally {
  if (!interrupted) await cleanupAll();
}
