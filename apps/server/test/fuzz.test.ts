import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@skillhive/shared/rules/http';
import { createClass, FAST_SIGNUP_ENV } from './commerce-fixtures.ts';
import { createTestApp, createUser, tokenFor, type TestContext } from './harness.ts';

/**
 * Property-based fuzzing of every route (hardening §4): hostile path parameters, query strings
 * and bodies, as anonymous, student and admin callers. No answer may be a 5xx, and every error
 * must be JSON in the envelope {error:{code,message[,fields]},requestId}.
 *
 * Bounded: a fixed seed by default (FUZZ_SEED overrides it, FUZZ_RUNS the runs per route), so a
 * failure names the seed and the counterexample to replay.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 24);
const ORIGIN = 'http://localhost:3000';
const CODES = new Set<string>(Object.values(ErrorCode));

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI template, e.g. /api/classes/{id}. */
  path: string;
  pathParams: string[];
  query: string[];
  /** Property names of the JSON body, or null when the route takes none. */
  bodyKeys: string[] | null;
  /** Callers who may run it: sign-out would end the shared sessions. */
  anonymousOnly?: boolean;
}

/** The identity endpoints, hidden from the OpenAPI document. */
const AUTH_OPERATIONS: Operation[] = [
  {
    method: 'POST',
    path: '/api/auth/sign-up/email',
    pathParams: [],
    query: [],
    bodyKeys: ['name', 'email', 'password', 'phone', 'image'],
  },
  {
    method: 'POST',
    path: '/api/auth/sign-in/email',
    pathParams: [],
    query: [],
    bodyKeys: ['email', 'password', 'rememberMe', 'callbackURL'],
  },
  {
    method: 'POST',
    path: '/api/auth/update-user',
    pathParams: [],
    query: [],
    bodyKeys: ['name', 'image', 'phone', 'email', 'isAdmin'],
  },
  {
    method: 'POST',
    path: '/api/auth/sign-in/social',
    pathParams: [],
    query: [],
    bodyKeys: ['provider', 'callbackURL', 'errorCallbackURL'],
  },
  { method: 'POST', path: '/api/auth/sign-out', pathParams: [], query: [], bodyKeys: [], anonymousOnly: true },
  { method: 'GET', path: '/api/auth/get-session', pathParams: [], query: ['disableCookieCache'], bodyKeys: null },
  {
    method: 'GET',
    path: '/api/auth/callback/{provider}',
    pathParams: ['provider'],
    query: ['code', 'state', 'error'],
    bodyKeys: null,
  },
  { method: 'GET', path: '/api/health', pathParams: [], query: [], bodyKeys: null },
];

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

function operationsOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      const json = op.requestBody?.content['application/json'];
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodyKeys: json ? Object.keys(json.schema?.properties ?? {}) : method === 'get' ? null : [],
      });
    }
  }
  return operations;
}

// ---- hostile values -------------------------------------------------------------------------

const BAD_LITERALS = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e309',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  '../../etc/passwd',
  "' or 1=1 --",
  '<script>alert(1)</script>',
  '\u202e\u0000\uFEFF',
  'Ω≈ç√∫',
  '🦄'.repeat(50),
  '__proto__',
  'constructor',
];
const BAD_EMAILS = [
  'a@',
  '@b.test',
  'a@b',
  `${'x'.repeat(300)}@example.test`,
  'A@EXAMPLE.TEST',
  'a\u0000@b.test',
  'ä@ü.de',
  '"quoted"@x.test',
  'a@b.test%00',
  'a@@b.test',
];

/**
 * Ids and e-mails that exist (a teacher, a class, a teacher request of a user kept for this), filled
 * in before the properties run, so hostile input also reaches the code behind a found row.
 */
const realValues: string[] = ['placeholder'];
const realValue = fc.nat().map((i) => realValues[i % realValues.length]!);

const withNul = fc.string({ maxLength: 10 }).map((s) => `${s}\u0000${s}`);
const longString = fc.integer({ min: 201, max: 20_000 }).map((n) => 'é'.repeat(n));
const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  withNul,
  longString,
  fc.emailAddress(),
  fc.constantFrom(...BAD_EMAILS),
  fc.uuid(),
  fc.constantFrom(...BAD_LITERALS),
  realValue,
);

const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Text that puts `key` first in an object literal, which JSON.stringify cannot produce for __proto__. */
const protoBody = fc
  .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), hostileValue)
  .map(
    ([key, value]) => `{"${key}":{"prototype":{"isAdmin":true},"isAdmin":true},"x":${JSON.stringify(value) ?? 'null'}}`,
  );

const deepBody = fc
  .tuple(fc.constantFrom(63, 65, 1_000, 10_000), fc.boolean())
  .map(([depth, objects]) =>
    objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`,
  );

interface Body {
  contentType?: string;
  payload?: string;
}

/** A JSON object over the route's own keys (so handlers run), with hostile values and extra keys. */
function schemaBody(keys: string[]): fc.Arbitrary<Body> {
  const known = keys.length > 0 ? fc.constantFrom(...keys) : hostileString;
  return fc
    .dictionary(fc.oneof(known, known, hostileString), hostileValue, { maxKeys: Math.max(keys.length + 1, 2) })
    .map((object) => ({ contentType: 'application/json', payload: JSON.stringify(object) }));
}

function bodyFor(operation: Operation): fc.Arbitrary<Body> {
  if (operation.bodyKeys === null) return fc.constant({});
  return fc.oneof(
    { weight: 8, arbitrary: schemaBody(operation.bodyKeys) },
    {
      weight: 1,
      arbitrary: hostileValue.map((v) => ({ contentType: 'application/json', payload: JSON.stringify(v) ?? 'null' })),
    },
    { weight: 1, arbitrary: protoBody.map((payload) => ({ contentType: 'application/json', payload })) },
    { weight: 1, arbitrary: deepBody.map((payload) => ({ contentType: 'application/json', payload })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { contentType: 'application/json', payload: `{"a":"${'x'.repeat(900_000)}"}` },
        { contentType: 'application/json', payload: `{"a":"${'x'.repeat(1_100_000)}"}` },
        { contentType: 'application/json', payload: '' },
        { contentType: 'application/json', payload: '{"a":' },
        { contentType: 'application/json; charset=latin1', payload: '{}' },
        { contentType: 'text/plain', payload: 'hello\u0000' },
        { contentType: 'application/x-www-form-urlencoded', payload: 'a=%zz&b=%00' },
        { contentType: 'multipart/form-data; boundary=xyz', payload: '--xyz\r\ngarbage' },
        { contentType: 'multipart/form-data', payload: 'no boundary' },
        { contentType: 'application/xml', payload: '<a/>' },
        {},
      ),
    },
  );
}

/** A string as a URL component: encoded (lone surrogates replaced), or one of the raw malformed ones. */
const RAW_COMPONENTS = ['%', '%zz', '%E0%A4%A', '%00', '..', '%2e%2e', '%2F', 'a'.repeat(250), '%C0%AF'];
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}
const pathComponent = fc.oneof(
  { weight: 5, arbitrary: hostileString.map(encode) },
  { weight: 2, arbitrary: realValue.map(encode) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_COMPONENTS) },
);

function queryFor(operation: Operation): fc.Arbitrary<string> {
  const key = operation.query.length > 0 ? fc.oneof(fc.constantFrom(...operation.query), hostileString) : hostileString;
  const pair = fc
    .tuple(
      key,
      fc.oneof(
        pathComponent,
        pathComponent.map((v) => [v, v]),
      ),
    )
    .map(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => `${encode(k)}=${one}`).join('&'));
  return fc.array(pair, { maxLength: 4 }).map((pairs) => (pairs.length > 0 ? `?${pairs.join('&')}` : ''));
}

// ---- the app and its callers ------------------------------------------------------------------

/**
 * Responses that never end by themselves (Server-Sent Events, decision 047): injected with their
 * payload as a stream, which answers once the headers are written; a started event stream is
 * dropped there (the app ends it when it closes), an error is read whole.
 */
const STREAMS = new Set(['GET /api/notifications/stream']);

let ctx: TestContext;
let callers: Record<string, Record<string, string>>;

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV, PUBLIC_URL: ORIGIN });
  const student = await createUser(ctx, 'student');
  const admin = await createUser(ctx, 'admin');
  const teacher = await createUser(ctx, 'teacher');
  const approved = await createClass(ctx, teacher, { status: 'accepted' });
  const pending = await createClass(ctx, teacher, { status: 'pending' });
  const applicant = await createUser(ctx, 'student');
  const request = await ctx.app.inject({
    method: 'POST',
    url: '/api/teachers/teacher-requests',
    headers: { ...applicant.headers, origin: ORIGIN },
    payload: { experience: 'beginner', title: 'Pottery', category: 'web-development' },
  });
  realValues.splice(0, realValues.length, teacher.id, teacher.email, approved.id, pending.id, applicant.email);
  realValues.push((request.json() as { insertedId: string }).insertedId);
  callers = {
    anonymous: { origin: ORIGIN },
    student: { ...student.headers, origin: ORIGIN },
    admin: { ...admin.headers, origin: ORIGIN },
    adminBearer: { authorization: `Bearer ${await tokenFor(ctx, admin)}` },
    // A forged or mangled session cookie and a token that is not one.
    forged: {
      cookie: 'better-auth.session_token=%E0%A4%A.\u0000; better-auth.session_data=eyJ%',
      authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.',
      origin: ORIGIN,
    },
  };
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

/** Fails unless the answer is below 500 and, if an error, JSON in the envelope. */
function checkAnswer(
  operation: Operation,
  response: { statusCode: number; headers: Record<string, unknown>; body: string },
): void {
  const where = `${operation.method} ${operation.path} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  if (response.statusCode >= 500) throw new Error(`5xx: ${where}`);
  if (response.statusCode < 400) return;
  if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new Error(`error not JSON: ${where}`);
  }
  const body = JSON.parse(response.body) as Record<string, unknown>;
  const error = body.error as Record<string, unknown> | undefined;
  const extra = Object.keys(body).filter((k) => k !== 'error' && k !== 'requestId');
  // better-auth's web client also reads a top-level code/message under /api/auth.
  const allowedExtra = operation.path.startsWith('/api/auth/') ? ['code', 'message'] : [];
  const ok =
    error !== undefined &&
    typeof error.code === 'string' &&
    CODES.has(error.code) &&
    typeof error.message === 'string' &&
    error.message !== '' &&
    Object.keys(error).every((k) => ['code', 'message', 'fields'].includes(k)) &&
    (error.fields === undefined ||
      (typeof error.fields === 'object' &&
        error.fields !== null &&
        Object.values(error.fields).every((v) => typeof v === 'string'))) &&
    typeof body.requestId === 'string' &&
    body.requestId === response.headers['x-request-id'] &&
    extra.every((k) => allowedExtra.includes(k));
  if (!ok) throw new Error(`not the error envelope: ${where}`);
}

/** A GET injected with its payload as a stream: its answer, or, once an event stream started, its status alone. */
async function openAndClose(
  url: string,
  headers: Record<string, string>,
): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }> {
  // With a callback, inject is Fastify's own (the contract check reads whole payloads only).
  const response = await new Promise<LightMyRequestResponse>((resolve, reject) => {
    void ctx.app.inject(
      { method: 'GET', url, headers, payloadAsStream: true },
      (error: Error | undefined, answer: LightMyRequestResponse | undefined) =>
        error || !answer ? reject(error ?? new Error('no answer')) : resolve(answer),
    );
  });
  const answer = { statusCode: response.statusCode, headers: response.headers, body: '' };
  const stream = response.stream();
  if (String(response.headers['content-type']).startsWith('text/event-stream')) {
    stream.destroy();
    return answer;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  answer.body = Buffer.concat(chunks).toString('utf8');
  return answer;
}

describe('fuzzing every route', async () => {
  // The document is read from a throw-away app, so the routes are known when the tests are named.
  const probe = await createTestApp();
  const document = (await probe.app.inject('/api/docs/json')).json();
  await probe.close();
  const operations = [...operationsOf(document), ...AUTH_OPERATIONS];

  it('covers the whole OpenAPI document and the identity endpoints', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.some((o) => o.path === '/api/uploads/images' && o.method === 'POST')).toBe(true);
    expect(realValues).toHaveLength(6);
  });

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s answers hostile input with a 4xx in the envelope',
    async (_name, operation) => {
      const role = operation.anonymousOnly
        ? fc.constant('anonymous')
        : fc.constantFrom('anonymous', 'student', 'admin', 'adminBearer', 'forged');
      const params = fc.tuple(...operation.pathParams.map(() => pathComponent));
      await fc.assert(
        fc.asyncProperty(role, params, queryFor(operation), bodyFor(operation), async (who, values, query, body) => {
          let url = operation.path;
          operation.pathParams.forEach((name, i) => {
            url = url.replace(`{${name}}`, values[i] ?? '');
          });
          const headers = { ...callers[who], ...(body.contentType ? { 'content-type': body.contentType } : {}) };
          if (STREAMS.has(`${operation.method} ${operation.path}`)) {
            checkAnswer(operation, await openAndClose(`${url}${query}`, headers));
            return;
          }
          const response = await ctx.app.inject({
            method: operation.method,
            url: `${url}${query}`,
            headers,
            ...(body.payload !== undefined && operation.method !== 'GET' ? { payload: body.payload } : {}),
          });
          checkAnswer(operation, response);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    60_000,
  );
});
