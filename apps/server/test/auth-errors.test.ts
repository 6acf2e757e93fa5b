import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '@skillhive/shared/contracts/errors';
import { ERROR_RESPONSE_SCHEMA } from '../src/plugins/openapi-access.ts';
import { createTestApp, signUp, TEST_PASSWORD, uniqueEmail, type TestContext, type TestUser } from './harness.ts';

/**
 * Every /api/auth/* failure the web app meets answers ONE shape (DESIGN §3): the envelope
 * {error:{code,message,fields?},requestId} and, beside it, better-auth's top-level {code,message},
 * which its browser client hands to the web (the web reads `message`, and `code` to tell
 * INVALID_PASSWORD or INVALID_TOKEN apart) — the ErrorResponse schema of the API document.
 */
const ORIGIN = 'http://localhost:3000';
const WRONG = 'Wrong#Pass1';

let ctx: TestContext;
let user: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  user = await signUp(ctx);
});
afterAll(async () => {
  await ctx?.close();
});

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'POST', url, headers: { origin: ORIGIN, ...headers }, payload: payload as object });
}

type Answer = Awaited<ReturnType<typeof post>>;

/** The one shape, whatever answered: better-auth, the identity gate, or our error handler. */
function expectOneShape(response: Answer, status: number, code: string, authCode: string) {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json() as Record<string, unknown>;
  const envelope = ErrorBody.parse(body);
  expect(envelope.error.code).toBe(code);
  expect(envelope.requestId).toBe(response.headers['x-request-id']);
  expect(Object.keys(body).sort()).toEqual(Object.keys(ERROR_RESPONSE_SCHEMA.properties).sort());
  expect(body.code).toBe(authCode);
  expect(body.message).toBe(envelope.error.message);
  expect(envelope.error.message).not.toBe('');
  return envelope;
}

describe('errors under /api/auth/* the web app meets', () => {
  it('a wrong password at sign-in', async () => {
    const response = await post('/api/auth/sign-in/email', { email: user.email, password: WRONG });
    expectOneShape(response, 401, 'unauthenticated', 'INVALID_EMAIL_OR_PASSWORD');
  });

  it('a sign-up that fails the spec §5 rules, with per-field messages', async () => {
    const response = await post('/api/auth/sign-up/email', { email: uniqueEmail(), password: 'short' });
    const envelope = expectOneShape(response, 400, 'validation_error', 'validation_error');
    expect(Object.keys(envelope.error.fields ?? {})).toEqual(expect.arrayContaining(['name', 'password']));
  });

  it('a sign-up with an address already registered, on the e-mail field', async () => {
    const response = await post('/api/auth/sign-up/email', {
      name: 'Second Try',
      email: user.email,
      password: TEST_PASSWORD,
      phone: '+1 555-010-12345',
      image: 'https://example.test/avatar.png',
    });
    const envelope = expectOneShape(response, 409, 'conflict', response.json().code);
    expect(String(response.json().code)).toMatch(/^USER_ALREADY_EXISTS/);
    expect(envelope.error.fields?.email).toBe(envelope.error.message);
  });

  it('an unknown password-reset token', async () => {
    const response = await post('/api/auth/reset-password', { token: 'not-a-token', newPassword: 'New!Pass12' });
    expectOneShape(response, 400, 'validation_error', 'INVALID_TOKEN');
  });

  it('a wrong current password when changing it', async () => {
    const response = await post(
      '/api/auth/change-password',
      { currentPassword: WRONG, newPassword: 'New!Pass12' },
      user.headers,
    );
    expectOneShape(response, 400, 'validation_error', 'INVALID_PASSWORD');
  });

  it('a profile change without a session', async () => {
    const response = await post('/api/auth/update-user', { name: 'Nobody' });
    expectOneShape(response, 401, 'unauthenticated', 'UNAUTHORIZED');
  });

  it('an unknown path', async () => {
    const response = await post('/api/auth/no-such-endpoint', {});
    expectOneShape(response, 404, 'not_found', 'not_found');
  });

  it('too many wrong passwords (the lockout)', async () => {
    const victim = await signUp(ctx);
    const from = { remoteAddress: '198.51.100.77' };
    const attempt = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { origin: ORIGIN },
        payload: { email: victim.email, password: WRONG },
        ...from,
      });
    for (let i = 1; i <= 5; i++) expect((await attempt()).statusCode).toBe(401);
    expectOneShape(await attempt(), 429, 'rate_limited', 'rate_limited');
  });
});
