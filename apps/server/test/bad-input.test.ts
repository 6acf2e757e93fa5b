import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';

/** Hostile input is a 4xx in the error envelope, never a 500 or Fastify's own shape (hardening §1–3). */
let ctx: TestContext;
let student: TestUser;
let admin: TestUser;
const ORIGIN = 'http://localhost:3000';
beforeAll(async () => {
  ctx = await createTestApp();
  student = await createUser(ctx, 'student');
  admin = await createUser(ctx, 'admin');
});
afterAll(async () => {
  await ctx?.close();
});

function expectEnvelope(response: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) {
  const body = response.json() as { error: { code: string; message: string }; requestId: string };
  expect(body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  expect(body.requestId).toBe(response.headers['x-request-id']);
  return body;
}

describe('NUL bytes', () => {
  it('are a 400 in a query string, anonymously', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/classes?q=%00' });
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope(response).error.code).toBe('validation_error');
  });

  it('are a 400 in a query key and in path parameters', async () => {
    for (const url of ['/api/classes?%00=1', '/api/classes/abc%00def', '/api/users/profile/a%00%40example.test']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: admin.headers });
      expect(response.statusCode, url).toBe(400);
      expect(expectEnvelope(response).error.code).toBe('validation_error');
    }
  });

  it('are a 400 in JSON bodies, nested or in keys, on our routes and under /api/auth', async () => {
    const cases = [
      { url: '/api/reviews', payload: { classId: 'x', rating: 5, comment: 'nice\u0000' } },
      { url: '/api/teachers/teacher-requests', payload: { title: 'a\u0000b', category: 'x', experience: 'x' } },
      { url: '/api/jwt', payload: { email: `${student.email}\u0000` } },
      { url: '/api/classes', payload: { nested: [{ 'k\u0000': 1 }] } },
      { url: '/api/auth/update-user', payload: { name: 'Nul\u0000Name' } },
      { url: '/api/auth/sign-in/email', payload: { email: 'a\u0000@example.test', password: 'x\u0000yyyyyy' } },
    ];
    for (const { url, payload } of cases) {
      const response = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { ...student.headers, origin: ORIGIN },
        payload,
      });
      expect(response.statusCode, url).toBe(400);
      expect(expectEnvelope(response).error.code).toBe('validation_error');
    }
  });
});

describe('bodies the parsers refuse', () => {
  it('answers a malformed multipart upload with 400', async () => {
    const bodies = [
      { type: 'multipart/form-data; boundary=xyz', payload: '--xyz\r\ngarbage' },
      { type: 'multipart/form-data', payload: 'no boundary at all' },
      {
        type: 'multipart/form-data; boundary=xyz',
        payload: '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc',
      },
    ];
    for (const { type, payload } of bodies) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/uploads/images',
        headers: { ...student.headers, 'content-type': type },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(expectEnvelope(response).error.code).toBe('validation_error');
    }
  });

  it('refuses JSON nested 10 000 levels deep with 400, objects and arrays alike', async () => {
    const objects = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const arrays = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const payload of [objects, arrays]) {
      for (const url of ['/api/jwt', '/api/classes', '/api/auth/sign-in/email', '/api/auth/sign-up/email']) {
        const response = await ctx.app.inject({
          method: 'POST',
          url,
          headers: { ...student.headers, origin: ORIGIN, 'content-type': 'application/json' },
          payload,
        });
        expect(response.statusCode, url).toBe(400);
        expect(expectEnvelope(response).error.message).toMatch(/nested/);
      }
    }
  });

  it('still parses JSON within the depth limit, brackets in strings not counted', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/jwt',
      headers: { ...student.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: student.email, note: '['.repeat(500) }),
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses prototype keys, empty and broken JSON with 400', async () => {
    for (const payload of ['{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{}}}', '', '{"a":']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/jwt',
        headers: { ...student.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(expectEnvelope(response).error.code).toBe('validation_error');
    }
  });
});

describe('errors the router meets before any route', () => {
  it('answers bad percent-encoding in the envelope', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/classes/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope(response)).toMatchObject({ error: { code: 'validation_error' } });
  });

  it('answers an over-long path parameter in the envelope with a 4xx', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/classes/${'a'.repeat(300)}` });
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope(response)).toMatchObject({ error: { code: 'validation_error' } });
  });
});

describe('headers', () => {
  it('answers a NUL byte in a cookie or token with 400, not a 500 from the session lookup', async () => {
    for (const headers of [
      { cookie: 'better-auth.session_token=a\u0000b' },
      { authorization: 'Bearer a\u0000b', cookie: student.cookie },
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/classes', headers });
      expect(response.statusCode).toBe(400);
      expect(expectEnvelope(response).error.code).toBe('validation_error');
    }
  });

  it('answers a request Node refuses to parse in the envelope too', async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0000b\r\n\r\n');
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    const requestId = /x-request-id: ([\w-]+)/i.exec(head ?? '')?.[1];
    expect(JSON.parse(body ?? '')).toEqual({
      error: { code: 'validation_error', message: 'The request is not valid HTTP' },
      requestId,
    });
  });
});
