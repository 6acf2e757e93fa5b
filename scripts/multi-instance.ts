import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { check, createHarness, freePort, readyOn, startBacking, startInstance } from './cluster.ts';
import { DEMO_PASSWORD } from '../apps/server/src/db/seed.ts';
import { startMailCatcher } from './mail-catcher.ts';

/**
 * npm run test:multi (docs/OPERATIONS.md "Scale out"): two built SkillHive instances
 * (apps/server/dist/server.js) on one PostgreSQL database, Redis and an S3-compatible server
 * (s3rver), behind HAProxy in round-robin. API flows go through the balancer, and every answer
 * must come from the other instance than the one before; a question asked through one instance
 * reaches its teacher's notification stream on the other (Redis pub/sub, decision 047). Exits
 * non-zero on any failure, within
 * TIME_LIMIT_MS, and stops and removes everything it started.
 *
 * Needs: PostgreSQL at MULTI_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres; a
 * database of its own is created and dropped), redis-server and haproxy on the PATH, and
 * `npm run build` done.
 */
const TIME_LIMIT_MS = 150_000;
const PG_ADMIN_URL = process.env.MULTI_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'Multi!Pass1';
const METRICS_TOKEN = randomBytes(24).toString('hex');

const h = createHarness('multi');
const log = h.log;

async function main() {
  const [port1, port2, lbPort] = await Promise.all([1, 2, 3].map(() => freePort()));
  const lbUrl = `http://127.0.0.1:${lbPort}`;
  // Mail goes to a real SMTP server: a new account verifies its address from the mail before it pays.
  const mail = await startMailCatcher();
  h.onCleanUp(() => mail.close());
  const backing = await startBacking(h, {
    pgAdminUrl: PG_ADMIN_URL,
    lbUrl,
    extraEnv: { METRICS_TOKEN, SMTP_URL: mail.url, MAIL_WORKER_INTERVAL_MS: '200' },
  });

  // The first instance loads the demo classes (images into the bucket); the second starts once it is up.
  startInstance(h, backing, 'app1', port1!, { SEED: 'true' });
  await h.waitFor('app1', readyOn(port1!), 90_000);
  startInstance(h, backing, 'app2', port2!);
  await h.waitFor('app2', readyOn(port2!), 60_000);
  log(`instances on :${port1} and :${port2}`);

  const config = path.join(h.work, 'haproxy.cfg');
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
  h.start('haproxy', 'haproxy', ['-f', config, '-db']);
  await h.waitFor('haproxy', async () => (await fetch(`${lbUrl}/api/health`)).ok, 20_000);

  // Every request through the balancer; x-served-by must alternate.
  const servedBy: string[] = [];
  const call = async (
    method: string,
    url: string,
    init: { headers?: Record<string, string>; body?: unknown; redirect?: RequestRedirect } = {},
  ) => {
    const isForm = init.body instanceof FormData;
    const res = await fetch(`${lbUrl}${url}`, {
      method,
      redirect: init.redirect ?? 'follow',
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
  // Whichever instance's worker sends it, the link works through the balancer.
  const verifyLink = await mail.linkIn(email, 'Verify your e-mail address');
  check(verifyLink.origin === lbUrl, `the verification link points at ${verifyLink.origin}, not the balancer`);
  // One request: the redirect to the web app's page names any failure in its query.
  const verified = await call('GET', verifyLink.pathname + verifyLink.search, { redirect: 'manual' });
  const landing = verified.res.headers.get('location') ?? '';
  check(
    verified.res.status === 302 && landing === '/email-verified',
    `verification: ${verified.res.status} → ${landing}`,
  );
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

  ok(await call('POST', '/api/enrolled', { headers: bearer, body: { enrollId: classId } }), 'enroll');
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

  // Live notifications across instances (decision 047): the class's teacher listens on app2, the
  // question is asked through app1; it arrives through Redis.
  const teacherEmail = String((list[0] as unknown as { email: string }).email);
  const teacherSignIn = await fetch(`http://127.0.0.1:${port2}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: lbUrl },
    body: JSON.stringify({ email: teacherEmail, password: DEMO_PASSWORD }),
  });
  check(teacherSignIn.ok, `teacher sign-in: ${teacherSignIn.status}`);
  const teacherCookie = teacherSignIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const abort = new AbortController();
  const stream = await fetch(`http://127.0.0.1:${port2}/api/notifications/stream`, {
    headers: { cookie: teacherCookie, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  check(stream.status === 200, `notification stream on app2: ${stream.status}`);
  const question = `Across instances ${randomBytes(3).toString('hex')}`;
  const arrived = (async () => {
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes(question)) return true;
    }
    return false;
  })();
  const asked = await fetch(`http://127.0.0.1:${port1}/api/classes/${classId}/messages`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ body: question }),
  });
  check(asked.status === 201, `question through app1: ${asked.status}`);
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000));
  check(await Promise.race([arrived, timeout]), 'the question did not reach the stream on app2 within 5 s');
  abort.abort();
  log('a question asked through app1 reached the teacher’s stream on app2');

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

await h.run(main, TIME_LIMIT_MS, ['app1', 'app2', 'haproxy']);
