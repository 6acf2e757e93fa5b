import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTokenService } from '../apps/server/src/modules/auth/token.ts';
import {
  cleanupAll,
  freePort,
  migrate,
  onCleanup,
  randomSecret,
  REPO_ROOT,
  rssMiB,
  startServer,
  tempDir,
} from './procs.ts';

/**
 * Live notifications under load (decision 047): `node bench/live.ts` (not part of npm test or
 * npm run bench). One production-built instance (apps/server/dist, `npm run build` first) on a
 * fresh PostgreSQL database; LIVE_CONNECTIONS people (default 500) each hold a notification stream
 * (GET /api/notifications/stream, Bearer token) while their teacher answers them, LIVE_RATE
 * answers a second (default 20) for LIVE_SECONDS (default 20), at random. Measures, per answer,
 * the time from sending it to its notification arriving on the student's stream (p50, p90, p99,
 * max), answers lost, the server's RSS before and with the streams open, and the load average.
 * Writes bench/results/live-latest.json. Every connection is to 127.0.0.1.
 *
 * Needs PostgreSQL at LIVE_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres; a database
 * of its own is created and dropped).
 */
const CONNECTIONS = Number(process.env.LIVE_CONNECTIONS ?? 500);
const RATE = Number(process.env.LIVE_RATE ?? 20);
const SECONDS = Number(process.env.LIVE_SECONDS ?? 20);
const PG_URL = process.env.LIVE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const HOST = '127.0.0.1';

interface Listener {
  studentId: string;
  email: string;
  sessionId: string;
  threadId: string;
  token: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function createDatabase(): Promise<string> {
  const name = `skillhive_bench_live_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  onCleanup(async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.end();
  });
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A teacher, their class, and CONNECTIONS students who each asked about it (a thread each), with
 * a session per person: inserted directly, since signing up hundreds of people would measure
 * password hashing instead (as apps/server/test/commerce-fixtures.ts insertStudents does).
 */
async function insertPeople(databaseUrl: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const expires = new Date(Date.now() + 24 * 3600_000);
  const teacher = { id: randomUUID(), email: 'live.teacher@example.test', sessionId: randomUUID() };
  await db.query(
    `insert into users (id, name, email, email_verified, is_teacher) values ($1, 'Live Teacher', $2, true, true)`,
    [teacher.id, teacher.email],
  );
  const key = `${randomUUID()}.webp`;
  await db.query(
    `insert into uploads (key, owner_id, content_type, width, height, bytes) values ($1, $2, 'image/webp', 1200, 675, 1000)`,
    [key, teacher.id],
  );
  const inserted = await db.query<{ id: string }>(
    `insert into classes (teacher_id, teacher_name, teacher_email, title, description, price_cents, image_key, category, status)
     values ($1, 'Live Teacher', $2, 'Live class', 'Answers under load', 1000, $3, 'data-science', 'accepted') returning id`,
    [teacher.id, teacher.email, key],
  );
  const classId = inserted.rows[0]!.id;
  const students = Array.from({ length: CONNECTIONS }, (_, i) => ({
    id: randomUUID(),
    email: `live.${i}@example.test`,
    sessionId: randomUUID(),
  }));
  await db.query(
    `insert into users (id, name, email, email_verified)
     select id, 'Student ' || n, email, true from unnest($1::text[], $2::text[]) with ordinality as t(id, email, n)`,
    [students.map((s) => s.id), students.map((s) => s.email)],
  );
  const everyone = [teacher, ...students];
  await db.query(
    `insert into sessions (id, token, user_id, expires_at) select id, id, user_id, $3 from unnest($1::text[], $2::text[]) as t(id, user_id)`,
    [everyone.map((p) => p.sessionId), everyone.map((p) => p.id), expires],
  );
  const threads = (
    await db.query(
      `insert into message_threads (class_id, student_id, teacher_id)
       select $1, student_id, $2 from unnest($3::text[]) as t(student_id) returning id, student_id`,
      [classId, teacher.id, students.map((s) => s.id)],
    )
  ).rows as { id: string; student_id: string }[];
  await db.end();
  const threadOf = new Map(threads.map((t) => [t.student_id, t.id]));
  return { teacher, students: students.map((s) => ({ ...s, threadId: threadOf.get(s.id)! })) };
}

/** One stream: calls `onItem` with each notification's text and the time it arrived. */
function openStream(
  port: number,
  token: string,
  onItem: (body: string, at: number) => void,
): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: HOST,
        port,
        path: '/api/notifications/stream',
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        agent: false,
      },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        let buffer = '';
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (data) onItem((JSON.parse(data.slice(6)) as { body: string }).body, performance.now());
          }
        });
        resolve(request);
      },
    );
    request.on('error', reject);
  });
}

function post(port: number, pathname: string, token: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(
      {
        host: HOST,
        port,
        path: pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function main() {
  const work = tempDir('live');
  const logFile = path.join(work, 'server.log');
  const databaseUrl = await createDatabase();
  await migrate({ DATABASE_URL: databaseUrl }, logFile);
  const { teacher, students } = await insertPeople(databaseUrl);
  const authSecret = randomSecret();
  const tokens = createTokenService(authSecret);
  const listeners: Listener[] = await Promise.all(
    students.map(async (s) => ({
      studentId: s.id,
      email: s.email,
      sessionId: s.sessionId,
      threadId: s.threadId,
      token: await tokens.issue(s, s.sessionId),
    })),
  );
  const teacherToken = await tokens.issue(teacher, teacher.sessionId);
  const port = await freePort();
  const server = await startServer({
    port,
    dataDir: work,
    databaseUrl,
    authSecret,
    seed: false,
    logFile,
    logLevel: 'warn',
    extraEnv: { RATE_LIMIT_MESSAGES_PER_HOUR: '1000000' },
  });
  onCleanup(() => server.stop());
  const rssBefore = rssMiB(server.pid);

  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const streams: http.ClientRequest[] = [];
  const openStarted = performance.now();
  for (let i = 0; i < listeners.length; i += 50) {
    const batch = listeners.slice(i, i + 50);
    streams.push(
      ...(await Promise.all(
        batch.map((l) =>
          openStream(port, l.token, (body, at) => {
            const started = sentAt.get(body);
            if (started === undefined) return;
            sentAt.delete(body);
            latencies.push(at - started);
          }),
        ),
      )),
    );
  }
  const openMs = Math.round(performance.now() - openStarted);
  await sleep(1_000);
  const rssOpen = rssMiB(server.pid);

  // Answers at RATE a second, each to a student at random, for SECONDS.
  let sent = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const until = performance.now() + SECONDS * 1000;
  let next = performance.now();
  while (performance.now() < until) {
    const listener = listeners[Math.floor(Math.random() * listeners.length)]!;
    const body = `bench answer ${sent}`;
    sent += 1;
    sentAt.set(body, performance.now());
    const call = post(port, `/api/messages/threads/${listener.threadId}/messages`, teacherToken, { body })
      .then((status) => {
        if (status !== 201) failed += 1;
      })
      .catch(() => {
        failed += 1;
      })
      .finally(() => inFlight.delete(call));
    inFlight.add(call);
    next += 1000 / RATE;
    await sleep(Math.max(0, next - performance.now()));
  }
  await Promise.all(inFlight);
  await sleep(2_000);
  const rssAfter = rssMiB(server.pid);
  const load = loadavg().map((n) => Math.round(n * 100) / 100);
  for (const stream of streams) stream.destroy();

  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
  const result = {
    at: new Date().toISOString(),
    connections: streams.length,
    openAllMs: openMs,
    ratePerSecond: RATE,
    seconds: SECONDS,
    sent,
    failed,
    received: latencies.length,
    lost: sent - failed - latencies.length,
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? null),
    },
    rssMiB: { beforeStreams: rssBefore, withStreams: rssOpen, afterRun: rssAfter },
    loadAverage: load,
  };
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(path.join(REPO_ROOT, 'bench/results/live-latest.json'), `${JSON.stringify(result, null, 2)}\n`);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
