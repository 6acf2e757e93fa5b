import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
// s3rver ships no types.
// @ts-expect-error -- untyped CommonJS module
import S3rver from 's3rver';
import sharp from 'sharp';

/**
 * npm run test:multi (docs/OPERATIONS.md "Scale out"): two built SkillHive instances
 * (apps/server/dist/server.js) on one PostgreSQL database, Redis and an S3-compatible server
 * (s3rver), behind HAProxy in round-robin. API flows go through the balancer, and every answer
 * must come from the other instance than the one before. Exits non-zero on any failure, within
 * TIME_LIMIT_MS, and stops and removes everything it started.
 *
 * Needs: PostgreSQL at MULTI_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres; a
 * database of its own is created and dropped), redis-server and haproxy on the PATH, and
 * `npm run build` done.
 */
const TIME_LIMIT_MS = 150_000;
const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'apps/server/dist/server.js');
const PG_ADMIN_URL = process.env.MULTI_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'Multi!Pass1';
const METRICS_TOKEN = randomBytes(24).toString('hex');

const work = mkdtempSync(path.join(tmpdir(), 'skillhive-multi-'));
const children: { name: string; child: ChildProcess }[] = [];
const cleanups: (() => Promise<void>)[] = [];
let failed = false;

function log(message: string) {
  console.log(`[multi] ${message}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const out = createWriteStream(path.join(work, `${name}.log`));
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      log(`${name} exited early (code ${code}, signal ${signal}); its log:\n${tail(name)}`);
      failed = true;
    }
  });
  children.push({ name, child });
  return child;
}

function tail(name: string): string {
  try {
    return readFileSync(path.join(work, `${name}.log`), 'utf8')
      .split('\n')
      .slice(-30)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000) {
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
}

let stopping = false;
async function cleanUp() {
  stopping = true;
  for (const { child } of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
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
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function main() {
  check(existsSync(SERVER), `${SERVER} is missing: run "npm run build" first`);
  for (const tool of ['redis-server', 'haproxy']) {
    check(spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0, `${tool} is not installed`);
  }
  const [redisPort, s3Port, port1, port2, lbPort] = await Promise.all([1, 2, 3, 4, 5].map(() => freePort()));

  // PostgreSQL: a database of our own.
  const dbName = `skillhive_multi_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${dbName}"`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`drop database if exists "${dbName}" with (force)`);
    await c.end();
  });
  const dbUrl = new URL(PG_ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  log(`database ${dbName}`);

  // Redis, without persistence.
  start('redis', 'redis-server', [
    '--port',
    String(redisPort),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);

  // S3-compatible server on loopback with one bucket.
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: s3Port,
    silent: true,
    directory: path.join(work, 's3'),
    configureBuckets: [{ name: 'skillhive', configs: [] }],
  });
  await s3.run();
  cleanups.push(() => s3.close());

  const lbUrl = `http://127.0.0.1:${lbPort}`;
  const sharedEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL: lbUrl,
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
    METRICS_TOKEN,
    LOG_LEVEL: 'info',
  };

  // Migrations once, before the instances (docs/OPERATIONS.md "Deploy").
  const migrated = spawnSync(process.execPath, [path.join(ROOT, 'apps/server/src/db/migrate-cli.ts')], {
    env: sharedEnv,
    encoding: 'utf8',
  });
  check(migrated.status === 0, `migrations failed:\n${migrated.stdout}${migrated.stderr}`);

  const instance = (name: string, port: number, extra: NodeJS.ProcessEnv = {}) =>
    start(name, process.execPath, [SERVER], {
      ...sharedEnv,
      PORT: String(port),
      DATA_DIR: path.join(work, `${name}-data`),
      ...extra,
    });
  const ready = (port: number) => async () => (await fetch(`http://127.0.0.1:${port}/api/ready`)).ok;
  // The first instance loads the demo classes (images into the bucket); the second starts once it is up.
  instance('app1', port1!, { SEED: 'true' });
  await waitFor('app1', ready(port1!), 90_000);
  instance('app2', port2!);
  await waitFor('app2', ready(port2!), 60_000);
  log(`instances on :${port1} and :${port2}`);

  const config = path.join(work, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 256',
      'defaults',
      '  mode http',
      '  option forwardfor',
      '  timeout connect 5s',
      '  timeout client 30s',
      '  timeout server 30s',
      'frontend skillhive',
      `  bind 127.0.0.1:${lbPort}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /api/ready',
      '  http-response set-header x-served-by %[srv_name]',
      `  server app1 127.0.0.1:${port1} check inter 2s`,
      `  server app2 127.0.0.1:${port2} check inter 2s`,
      '',
    ].join('\n'),
  );
  start('haproxy', 'haproxy', ['-f', config, '-db']);
  await waitFor('haproxy', async () => (await fetch(`${lbUrl}/api/health`)).ok, 20_000);

  // Every request through the balancer; x-served-by must alternate.
  const servedBy: string[] = [];
  const call = async (method: string, url: string, init: { headers?: Record<string, string>; body?: unknown } = {}) => {
    const isForm = init.body instanceof FormData;
    const res = await fetch(`${lbUrl}${url}`, {
      method,
      headers: {
        origin: lbUrl,
        ...(init.body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
    });
    const server = res.headers.get('x-served-by') ?? '?';
    servedBy.push(server);
    const bytes = Buffer.from(await res.arrayBuffer());
    log(`${method} ${url} → ${res.status} (${server})`);
    return { res, bytes, json: () => JSON.parse(bytes.toString()) as Record<string, unknown> };
  };
  const ok = (r: { res: Response; bytes: Buffer }, what: string) =>
    check(r.res.ok, `${what}: ${r.res.status} ${r.bytes.toString().slice(0, 300)}`);

  const email = `multi.${process.pid}.${randomBytes(3).toString('hex')}@example.test`;
  const signUp = await call('POST', '/api/auth/sign-up/email', {
    body: {
      name: 'Multi Instance',
      email,
      password: PASSWORD,
      phone: '+1 555-010-12345',
      image: 'https://example.test/a.png',
    },
  });
  ok(signUp, 'sign-up');
  const signIn = await call('POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
  ok(signIn, 'sign-in');
  const cookie = signIn.res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  check(cookie, 'sign-in set no cookie');
  const me = await call('POST', '/api/jwt', { headers: { cookie }, body: { email } });
  ok(me, 'token');
  const bearer = { authorization: `Bearer ${String(me.json().token)}` };

  const classes = await call('GET', '/api/classes?limit=12');
  ok(classes, 'catalogue');
  const list = JSON.parse(classes.bytes.toString()) as { _id?: string; id?: string; title: string }[];
  check(list.length > 0, 'the catalogue is empty: the seed did not run');
  const classId = list[0]!._id ?? list[0]!.id;
  check(classId, `no class id in ${JSON.stringify(list[0])}`);

  ok(await call('POST', '/api/enrolled', { headers: bearer, body: { enrollId: classId } }), 'enrol');
  const intent = await call('POST', '/api/create-payment-intent', { headers: bearer, body: {} });
  ok(intent, 'payment intent');
  const { clientSecret, cartIds } = intent.json() as { clientSecret: string; cartIds: string[] };
  const confirmed = await call('POST', '/api/test-gateway/confirm', {
    headers: bearer,
    body: {
      clientSecret,
      cardNumber: '4242 4242 4242 4242',
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 3,
      cvc: '123',
    },
  });
  ok(confirmed, 'card confirmation');
  const transactionId = String(confirmed.json().transactionId);
  ok(await call('POST', '/api/payments', { headers: bearer, body: { transactionId, cartIds } }), 'payment');

  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'multi.png');
  const uploaded = await call('POST', '/api/uploads/images', { headers: bearer, body: form });
  ok(uploaded, 'upload');
  const imageUrl = String((uploaded.json().data as { display_url: string }).display_url);
  const imagePath = imageUrl.startsWith('http') ? new URL(imageUrl).pathname : imageUrl;
  // Read back twice: once from each instance, both out of the bucket.
  for (let i = 0; i < 2; i++) {
    const image = await call('GET', imagePath);
    ok(image, 'image read-back');
    check(image.res.headers.get('content-type') === 'image/webp', 'the image is not WebP');
    check(image.bytes.subarray(8, 12).toString() === 'WEBP', 'the image bytes are not WebP');
  }

  // Round-robin: each answer from the other instance than the one before.
  check(!servedBy.includes('?'), 'an answer had no x-served-by header');
  for (let i = 1; i < servedBy.length; i++) {
    check(
      servedBy[i] !== servedBy[i - 1],
      `requests ${i} and ${i + 1} both went to ${servedBy[i]}: ${servedBy.join(' ')}`,
    );
  }
  log(`round-robin over ${servedBy.length} requests: ${servedBy.join(' ')}`);

  // Each instance's metrics saw part of the traffic, and its PostgreSQL pool.
  for (const port of [port1, port2]) {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const text = await res.text();
    check(res.ok, `metrics on :${port}: ${res.status}`);
    check(/^skillhive_db_pool_total \d+/m.test(text), `metrics on :${port} lack the pool gauges`);
    check(
      text.includes('route="/api/auth/*"') || text.includes('skillhive_http_requests_total{'),
      'no request metrics',
    );
  }
  log('all flows passed through the balancer');
}

const limit = setTimeout(() => {
  log(`time limit of ${TIME_LIMIT_MS} ms reached`);
  failed = true;
  void cleanUp().finally(() => process.exit(1));
}, TIME_LIMIT_MS);

try {
  await main();
} catch (error) {
  failed = true;
  log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  for (const name of ['app1', 'app2', 'haproxy']) log(`${name} log tail:\n${tail(name)}`);
}
clearTimeout(limit);
await cleanUp();
process.exit(failed ? 1 : 0);
