import http from 'node:http';
import autocannon, { type Request as CannonRequest } from 'autocannon';

/** One measured HTTP scenario (a row of the table). Latencies in milliseconds. */
export interface ScenarioResult {
  id: string;
  title: string;
  /** The request, as sent (one example when it rotates). */
  request: string;
  skipped?: string;
  /** 2xx answers per second. */
  rps?: number;
  p50?: number;
  p99?: number;
  max?: number;
  requests?: number;
  non2xx?: number;
  errors?: number;
  timeouts?: number;
  statusCodes?: Record<string, number>;
  durationS?: number;
  connections?: number;
  vsFastify?: number;
  vsDatabase?: number;
  /** Extra facts (flow steps, page number, ...). */
  extra?: Record<string, unknown>;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

export interface Client {
  origin: string;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Answer>;
  close(): void;
}

/** A keep-alive JSON client for loopback origins only. */
export function createClient(origin: string, maxSockets = 64): Client {
  const url = new URL(origin);
  if (url.hostname !== '127.0.0.1') throw new Error(`refusing to send traffic to ${origin}: loopback only`);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return {
    origin,
    request(method, path, options = {}) {
      const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
      const headers: Record<string, string> = { ...options.headers };
      if (payload) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(payload.length);
      }
      const started = performance.now();
      return new Promise((resolve, reject) => {
        const req = http.request(
          { host: url.hostname, port: url.port, method, path, headers, agent, timeout: 30_000 },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: Buffer.concat(chunks),
                ms: performance.now() - started,
              }),
            );
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

export function json<T>(answer: Answer): T {
  return JSON.parse(answer.body.toString('utf8')) as T;
}

/** Whether the server has a route for this method and path (the error handler says "No route for"). */
export async function hasRoute(client: Client, method: string, path: string): Promise<boolean> {
  const answer = await client.request(method, path, method === 'GET' ? {} : { body: {} });
  if (answer.status !== 404) return true;
  try {
    return !json<{ error?: { message?: string } }>(answer).error?.message?.startsWith('No route for');
  } catch {
    return true;
  }
}

/** Signs in through better-auth and exchanges the session for an API token (POST /api/jwt). */
export async function signInForToken(client: Client, email: string, password: string): Promise<string> {
  const origin = { origin: client.origin };
  const signIn = await client.request('POST', '/api/auth/sign-in/email', {
    body: { email, password },
    headers: origin,
  });
  if (signIn.status !== 200)
    throw new Error(`sign-in of ${email} failed: ${signIn.status} ${signIn.body.toString().slice(0, 200)}`);
  const setCookie = signIn.headers['set-cookie'] ?? [];
  const cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
  const jwt = await client.request('POST', '/api/jwt', { body: { email }, headers: { ...origin, cookie } });
  if (jwt.status !== 200) throw new Error(`POST /api/jwt failed: ${jwt.status} ${jwt.body.toString().slice(0, 200)}`);
  return json<{ token: string }>(jwt).token;
}

export interface LoadOptions {
  origin: string;
  connections: number;
  durationS: number;
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Runs one autocannon scenario (after a short warm-up) and reduces its result. `paths` rotates
 * through several paths, one per request.
 */
export async function load(
  id: string,
  title: string,
  target: { paths: string[]; headers?: Record<string, string> },
  opts: LoadOptions,
): Promise<ScenarioResult> {
  const { paths, headers } = target;
  let next = 0;
  const request: CannonRequest = { method: 'GET', path: paths[0], ...(headers ? { headers } : {}) };
  if (paths.length > 1) request.setupRequest = (req) => ({ ...req, path: paths[next++ % paths.length] });
  // Warm-up: JIT (a few thousand requests reach optimized code), pools and caches; not measured.
  await autocannon({ url: opts.origin, connections: opts.connections, amount: 3_000, requests: [request] });
  const result = await autocannon({
    url: opts.origin,
    connections: opts.connections,
    duration: opts.durationS,
    requests: [request],
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, v]) => [code, v.count]));
  return {
    id,
    title,
    request: `GET ${paths[0]}${paths.length > 1 ? ` (rotating over ${paths.length})` : ''}`,
    rps: round(result['2xx'] / result.duration, 0),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationS: round(result.duration, 2),
    connections: opts.connections,
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return round(sorted[index] ?? 0, 2);
}

export interface FlowStudent {
  email: string;
  token: string;
}

export const FLOW_STEPS = [
  'POST /api/enrolled',
  'POST /api/create-payment-intent',
  'POST /api/test-gateway/confirm',
  'POST /api/payments',
] as const;

/** What the rounds of one purchase-flow scenario measured, added up across its rounds. */
export interface FlowTally {
  latencies: number[][];
  failures: Record<string, number>;
  flowTimes: number[];
  completed: number;
  failed: number;
  elapsedS: number;
  students: number;
}

export function newFlowTally(): FlowTally {
  return {
    latencies: FLOW_STEPS.map(() => []),
    failures: {},
    flowTimes: [],
    completed: 0,
    failed: 0,
    elapsedS: 0,
    students: 0,
  };
}

/**
 * The whole purchase, once per student: enroll in a class, create a payment intent for the cart
 * (with `couponCode`, when given), confirm it with the test gateway's success card, record the
 * payment. `concurrency` students run at once; the loop ends after `durationS` or when every
 * student has paid once. With `tally`, several rounds add up into one scenario (summariseFlows).
 */
export async function runFlows(
  client: Client,
  students: FlowStudent[],
  classIds: string[],
  opts: { concurrency: number; durationS: number; couponCode?: string; tally?: FlowTally },
): Promise<ScenarioResult> {
  const tally = opts.tally ?? newFlowTally();
  tally.students += students.length;
  const { latencies, failures, flowTimes } = tally;
  let next = 0;
  const year = new Date().getUTCFullYear() + 2;
  const started = performance.now();
  const deadline = started + opts.durationS * 1000;

  async function step(
    index: number,
    method: string,
    path: string,
    token: string,
    body: unknown,
  ): Promise<Answer | null> {
    const answer = await client.request(method, path, { body, headers: { authorization: `Bearer ${token}` } });
    latencies[index]?.push(answer.ms);
    if (answer.status >= 300) {
      const key = `${FLOW_STEPS[index]} → ${answer.status}`;
      failures[key] = (failures[key] ?? 0) + 1;
      if ((failures[key] ?? 0) === 1) failures[`${key}: ${answer.body.toString().slice(0, 160)}`] = 1;
      return null;
    }
    return answer;
  }

  async function flow(student: FlowStudent, classId: string): Promise<boolean> {
    const t0 = performance.now();
    const enrolled = await step(0, 'POST', '/api/enrolled', student.token, { enrollId: classId });
    if (!enrolled) return false;
    const intentAnswer = await step(
      1,
      'POST',
      '/api/create-payment-intent',
      student.token,
      opts.couponCode ? { couponCode: opts.couponCode } : {},
    );
    if (!intentAnswer) return false;
    const intent = json<{ clientSecret: string; amount: number; cartIds: string[] }>(intentAnswer);
    const confirmAnswer = await step(2, 'POST', '/api/test-gateway/confirm', student.token, {
      clientSecret: intent.clientSecret,
      cardNumber: '4242 4242 4242 4242',
      expMonth: 12,
      expYear: year,
      cvc: '123',
    });
    if (!confirmAnswer) return false;
    const confirmed = json<{ status: string; transactionId?: string }>(confirmAnswer);
    if (confirmed.status !== 'succeeded' || !confirmed.transactionId) return false;
    const paid = await step(3, 'POST', '/api/payments', student.token, {
      email: student.email,
      price: intent.amount / 100,
      transactionId: confirmed.transactionId,
      data: new Date().toISOString(),
      cartIds: intent.cartIds,
      menuItemIds: [classId],
      status: 'succeeded',
    });
    if (!paid) return false;
    flowTimes.push(performance.now() - t0);
    return true;
  }

  async function worker() {
    while (performance.now() < deadline) {
      const index = next++;
      const student = students[index];
      if (!student) return;
      const classId = classIds[(index * 7919) % classIds.length]!;
      try {
        if (await flow(student, classId)) tally.completed++;
        else tally.failed++;
      } catch (error) {
        tally.failed++;
        const key = `error: ${(error as Error).message}`;
        failures[key] = (failures[key] ?? 0) + 1;
      }
    }
  }

  await Promise.all(Array.from({ length: opts.concurrency }, () => worker()));
  tally.elapsedS += (performance.now() - started) / 1000;
  return summariseFlows(tally, opts);
}

/** One scenario's figures from its tally: flows/s over every round's time, percentiles over every flow. */
export function summariseFlows(
  tally: FlowTally,
  opts: { concurrency: number; couponCode?: string | undefined },
): ScenarioResult {
  const { latencies, failures, completed, failed, elapsedS } = tally;
  const sortedFlows = [...tally.flowTimes].sort((a, b) => a - b);
  const steps = FLOW_STEPS.map((name, i) => {
    const sorted = [...(latencies[i] ?? [])].sort((a, b) => a - b);
    return { step: name, requests: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  });
  const requests = steps.reduce((sum, s) => sum + s.requests, 0);
  return {
    id: opts.couponCode ? 'purchase-flow-coupon' : 'purchase-flow',
    title: opts.couponCode
      ? 'enroll → intent with a coupon → confirm → payment'
      : 'enroll → intent → confirm → payment',
    request: FLOW_STEPS.join(' → '),
    rps: round(completed / elapsedS, 1),
    p50: percentile(sortedFlows, 50),
    p99: percentile(sortedFlows, 99),
    max: round(sortedFlows.at(-1) ?? 0, 1),
    requests,
    non2xx: failed,
    errors: 0,
    timeouts: 0,
    durationS: round(elapsedS, 2),
    connections: opts.concurrency,
    extra: {
      unit: 'flows/s; latency of a whole flow',
      flowsCompleted: completed,
      flowsFailed: failed,
      studentsAvailable: tally.students,
      requestsPerSecond: round(requests / elapsedS, 0),
      steps,
      failures,
    },
  };
}
