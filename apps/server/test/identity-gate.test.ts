import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@skillhive/shared/rules/messages';
import { schema } from '../src/db/client.ts';
import { createAuth } from '../src/modules/auth/auth.ts';
import { cookieHeader, createTestApp, signUp, TEST_PASSWORD, uniqueEmail, type TestContext } from './harness.ts';

/**
 * The identity gate (decision 009): every request under /api/auth is judged on the path
 * better-auth will run (the WHATWG-normalised one), only the endpoints we use are forwarded, and
 * the lockout, the per-address cap, the shared schemas and the password rule hold for every
 * spelling of the URL.
 */
const ORIGIN = 'http://localhost:3000';
const WRONG = 'Wrong#Pass1';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ RATE_LIMIT_LOGIN_FAILURES: '3', RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await ctx?.close();
});

interface RawResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * A request over a real socket with the path exactly as written: `app.inject` and `fetch` both
 * run the URL through the WHATWG parser first, which hides the spellings this file is about.
 */
function send(
  target: TestContext,
  options: { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: unknown },
): Promise<RawResponse> {
  const { port } = target.app.server.address() as AddressInfo;
  const body =
    options.payload === undefined
      ? undefined
      : typeof options.payload === 'string'
        ? options.payload
        : JSON.stringify(options.payload);
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.url, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function storedUser(email: string) {
  const [row] = await ctx.db.select().from(schema.users).where(eq(schema.users.email, email.toLowerCase()));
  return row;
}

/** Spellings the URL parser turns into the named endpoint. */
const dotted = (endpoint: string) => {
  const [first, ...rest] = endpoint.split('/');
  const tail = rest.join('/');
  return [
    `/api/auth/./${endpoint}`,
    tail ? `/api/auth/${first}/./${tail}` : `/api/auth/./././${endpoint}`,
    `/api/auth/x/../${endpoint}`,
    `/api/auth/%2e/${endpoint}`,
    `/api/auth/%2E/${endpoint}`,
    `/api/auth/x/%2e%2e/${endpoint}`,
    `/api/auth/x/.%2E/${endpoint}`,
    `/api/auth/a/b/../../${endpoint}`,
  ];
};
/** Spellings the gate does not know: never forwarded. */
const unknownSpellings = (endpoint: string) => [
  `/api/auth//${endpoint}`,
  `/api/auth/${endpoint.replace('/', '//')}`,
  `/api/auth/${endpoint}/`,
  `/api/auth/${endpoint.toUpperCase()}`,
  `/api/auth/${endpoint}/.`,
  `/api/auth/${endpoint.replace('/', '%2F')}`,
];

function expectNotFound(response: RawResponse) {
  expect(response.statusCode).toBe(404);
  const body = response.json();
  expect(body.error.code).toBe('not_found');
  expect(body.requestId).toBe(response.headers['x-request-id']);
  // better-auth's web client reads the top-level fields.
  expect(body.code).toBe('not_found');
  expect(body.message).toBe(body.error.message);
  expect(response.headers['set-cookie']).toBeUndefined();
}

describe('sign-in under any spelling of its path', () => {
  it('counts every failed attempt toward the lockout, so guessing stays limited', async () => {
    const user = await signUp(ctx);
    const spellings = dotted('sign-in/email');
    for (const url of spellings.slice(0, 3)) {
      const response = await send(ctx, {
        method: 'POST',
        url,
        payload: { email: user.email, password: WRONG },
      });
      expect(response.statusCode).toBe(401);
    }
    for (const url of [...spellings, '/api/auth/sign-in/email']) {
      const response = await send(ctx, {
        method: 'POST',
        url,
        payload: { email: user.email, password: TEST_PASSWORD },
      });
      expect(response.statusCode).toBe(429);
      expect(response.json().error.code).toBe('rate_limited');
    }
  });

  it('refuses spellings better-auth would not run as sign-in, without forwarding them', async () => {
    const user = await signUp(ctx);
    for (const url of unknownSpellings('sign-in/email')) {
      const response = await send(ctx, {
        method: 'POST',
        url,
        payload: { email: user.email, password: TEST_PASSWORD },
      });
      expectNotFound(response);
    }
  });

  it('checks the login schema on a dotted path', async () => {
    const response = await send(ctx, {
      method: 'POST',
      url: '/api/auth/./sign-in/email',
      payload: { password: 'x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ email: 'Email is required' });
  });
});

describe('sign-up under any spelling of its path', () => {
  const valid = () => ({
    name: 'Ada Lovelace',
    email: uniqueEmail('ada'),
    password: 'Engine#42',
    phone: '+44 20 7946 0958',
    image: 'https://example.test/ada.png',
  });

  it.each(dotted('sign-up/email'))('%s applies the sign-up schema and the password rule', async (url) => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ image: 'javascript:alert(1)' }, 'image', AUTH_MESSAGES.photoInvalid],
      [{ phone: undefined }, 'phone', 'Phone number is required'],
      [{ name: 'x'.repeat(3000) }, 'name', 'Name must be at most 100 characters'],
      [{ password: 'password' }, 'password', AUTH_MESSAGES.passwordPattern],
      [{ password: `Ab1!${'x'.repeat(40)}` }, 'password', AUTH_MESSAGES.passwordMax],
    ];
    for (const [change, field, message] of cases) {
      const body = { ...valid(), ...change };
      const response = await send(ctx, { method: 'POST', url, payload: body });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields[field]).toBe(message);
      expect(await storedUser(body.email)).toBeUndefined();
    }
    // A valid body through the same spelling creates the account as the canonical path does.
    const body = valid();
    const ok = await send(ctx, { method: 'POST', url, payload: body });
    expect(ok.statusCode).toBe(200);
    expect(await storedUser(body.email)).toMatchObject({ name: body.name, phone: body.phone, image: body.image });
  });

  it('refuses unknown spellings and stores nothing', async () => {
    for (const url of unknownSpellings('sign-up/email')) {
      const body = { ...valid(), image: 'javascript:alert(1)' };
      expectNotFound(await send(ctx, { method: 'POST', url, payload: body }));
      expect(await storedUser(body.email)).toBeUndefined();
    }
  });
});

describe('the per-address cap under any spelling', () => {
  let capped: TestContext;
  beforeAll(async () => {
    capped = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '3' });
    await capped.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await capped?.close();
  });

  it('counts dotted sign-ins and sign-ups against the same cap', async () => {
    const urls = ['/api/auth/./sign-in/email', '/api/auth/x/../sign-up/email', '/api/auth/%2e/sign-in/email'];
    for (const url of urls) {
      const response = await send(capped, { method: 'POST', url, payload: {} });
      expect(response.statusCode).toBe(400);
    }
    const fourth = await send(capped, {
      method: 'POST',
      url: '/api/auth/sign-in/./email',
      payload: { email: 'a@b.test', password: WRONG },
    });
    expect(fourth.statusCode).toBe(429);
  });
});

describe('profile changes under any spelling', () => {
  it.each(dotted('update-user'))('%s applies the profile schema', async (url) => {
    const user = await signUp(ctx);
    const headers = { ...user.headers, origin: ORIGIN };
    for (const payload of [
      { image: 'javascript:alert(1)' },
      { name: 'x'.repeat(3000) },
      { phone: '123' },
      { isAdmin: true },
    ]) {
      const response = await send(ctx, { method: 'POST', url, headers, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
    }
    const row = await storedUser(user.email);
    expect(row).toMatchObject({ name: user.name, image: 'https://example.test/avatar.png', isAdmin: false });
  });
});

describe('only the endpoints we use are forwarded', () => {
  it.each([
    ['GET', '/api/auth/ok'],
    ['GET', '/api/auth/list-accounts'],
    ['POST', '/api/auth/unlink-account'],
    ['POST', '/api/auth/delete-user'],
    ['POST', '/api/auth/update-session'],
    ['POST', '/api/auth/forget-password'],
    // Session tokens stay on the server: devices are listed by /api/users/me/sessions.
    ['GET', '/api/auth/list-sessions'],
    ['POST', '/api/auth/revoke-session'],
    ['POST', '/api/auth/x/../delete-user'],
    ['GET', '/api/auth/%2e%2e/auth/ok'],
    ['GET', '/api/auth/sign-in/email'],
    ['POST', '/api/auth/get-session'],
    ['GET', '/api/auth/'],
    ['GET', '/api/auth/x/../../users/me'],
  ] as const)('%s %s is 404 in the envelope', async (method, url) => {
    const user = await signUp(ctx);
    const response = await send(ctx, {
      method,
      url,
      headers: { ...user.headers, origin: ORIGIN },
      ...(method === 'POST' ? { payload: {} } : {}),
    });
    expectNotFound(response);
    expect(await storedUser(user.email)).toBeDefined();
  });

  it('forwards the ones the web app uses, under their query strings', async () => {
    const user = await signUp(ctx);
    const session = await send(ctx, {
      url: '/api/auth/get-session?disableCookieCache=true',
      headers: user.headers,
    });
    expect(session.statusCode).toBe(200);
    expect(session.json().user.id).toBe(user.id);
    const dottedSession = await send(ctx, { url: '/api/auth/x/../get-session', headers: user.headers });
    expect(dottedSession.json().user.id).toBe(user.id);
  });
});

describe('change-password (spec §5 password rule)', () => {
  it('applies the password rule to the new password', async () => {
    const user = await signUp(ctx);
    const headers = { ...user.headers, origin: ORIGIN };
    for (const [newPassword, message] of [
      ['short', AUTH_MESSAGES.passwordMin],
      ['alllowercase1!', AUTH_MESSAGES.passwordPattern],
      ['NoSpecial123', AUTH_MESSAGES.passwordPattern],
      [`Ab1!${'x'.repeat(30)}`, AUTH_MESSAGES.passwordMax],
    ] as const) {
      for (const url of ['/api/auth/change-password', '/api/auth/./change-password']) {
        const response = await send(ctx, {
          method: 'POST',
          url,
          headers,
          payload: { currentPassword: TEST_PASSWORD, newPassword },
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.fields.newPassword).toBe(message);
      }
    }
    // The old password still signs in: nothing was changed.
    const signIn = await send(ctx, {
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('changes to a password that follows the rule, and hands back a fresh session', async () => {
    const user = await signUp(ctx);
    const response = await send(ctx, {
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { ...user.headers, origin: ORIGIN },
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'Fresh#Pass2' },
    });
    expect(response.statusCode).toBe(200);
    const fresh = cookieHeader(response.headers['set-cookie']);
    expect(fresh).toContain('better-auth.session_token=');
    const session = await send(ctx, { url: '/api/auth/get-session', headers: { cookie: fresh } });
    expect(session.json().user.id).toBe(user.id);
    const signIn = await send(ctx, {
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: user.email, password: 'Fresh#Pass2' },
    });
    expect(signIn.statusCode).toBe(200);
  });
});

describe('change-password as a password oracle', () => {
  it('counts wrong current passwords toward the account’s lockout, shared with sign-in', async () => {
    const user = await signUp(ctx);
    const headers = { ...user.headers, origin: ORIGIN };
    for (let attempt = 1; attempt <= 3; attempt++) {
      const wrong = await send(ctx, {
        method: 'POST',
        url: attempt === 2 ? '/api/auth/./change-password' : '/api/auth/change-password',
        headers,
        payload: { currentPassword: `Guess#${attempt}a`, newPassword: 'Taken#Over1' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('INVALID_PASSWORD');
    }
    const right = await send(ctx, {
      method: 'POST',
      url: '/api/auth/change-password',
      headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'Taken#Over1' },
    });
    expect(right.statusCode).toBe(429);
    const signIn = await send(ctx, {
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(429);
  });
});

describe('bodies the gate refuses before anything runs', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it.each(['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/sign-out', '/api/auth/sign-in/social'])(
    'deeply nested JSON to %s is a 400 in the envelope',
    async (url) => {
      for (const payload of [`{"email":${nested(20_000)}}`, `{"a":${nested(100)}}`, nested(5000)]) {
        const response = await send(ctx, {
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json', origin: ORIGIN },
          payload,
        });
        expect(response.statusCode).toBe(400);
        const body = response.json();
        expect(body.error.code).toBe('validation_error');
        expect(body.code).toBe('validation_error');
      }
    },
  );
});

describe('sign-up when the database cannot store the user', () => {
  it('is a 503 with Retry-After, while a real duplicate stays a 409', async () => {
    const existing = await signUp(ctx);
    // Every insert into users now fails; reading users still works, as during a partial outage.
    await ctx.db.execute(sql`alter table users add constraint test_refuse_inserts check (false) not valid`);
    try {
      const response = await send(ctx, {
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: {
          name: 'Unlucky',
          email: uniqueEmail('unlucky'),
          password: TEST_PASSWORD,
          phone: '+1 555-010-12345',
          image: 'https://example.test/u.png',
        },
      });
      expect(response.statusCode).toBe(503);
      const body = response.json();
      expect(body.error.code).toBe('unavailable');
      expect(body.error.fields).toBeUndefined();
      expect(body.code).toBe('FAILED_TO_CREATE_USER');
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(response.headers['set-cookie']).toBeUndefined();

      const duplicate = await send(ctx, {
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: {
          name: 'Again',
          email: existing.email,
          password: TEST_PASSWORD,
          phone: '+1 555-010-12345',
          image: 'https://example.test/u.png',
        },
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().error.code).toBe('conflict');
    } finally {
      await ctx.db.execute(sql`alter table users drop constraint test_refuse_inserts`);
    }
  });
});

describe('better-auth itself, reached without the gate (defence in depth)', () => {
  const direct = () =>
    createAuth({
      db: ctx.db,
      secret: 'test-secret-that-is-long-enough-1234567890',
      publicUrl: ORIGIN,
      adminEmails: [],
    });
  const post = (auth: ReturnType<typeof direct>, path: string, body: unknown) =>
    auth.handler(
      new Request(`${ORIGIN}/api/auth/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify(body),
      }),
    );

  it('refuses endpoints off the allow-list', async () => {
    const auth = direct();
    expect((await auth.handler(new Request(`${ORIGIN}/api/auth/ok`))).status).toBe(404);
    expect((await auth.handler(new Request(`${ORIGIN}/api/auth/list-accounts`))).status).toBe(404);
  });

  it('applies the shared schemas and the password rule', async () => {
    const auth = direct();
    const body = {
      name: 'Direct Caller',
      email: uniqueEmail('direct'),
      password: 'Direct#1',
      phone: '+1 555-010-12345',
      image: 'https://example.test/d.png',
    };
    for (const change of [{ image: 'javascript:alert(1)' }, { phone: undefined }, { password: 'weakpassword' }]) {
      expect((await post(auth, 'sign-up/email', { ...body, ...change })).status).toBe(400);
      expect(await storedUser(body.email)).toBeUndefined();
    }
    const created = await post(auth, 'sign-up/email', body);
    expect(created.status).toBe(200);
    expect(await storedUser(body.email)).toMatchObject({ name: body.name });
  });
});
