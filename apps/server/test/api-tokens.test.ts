import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import {
  cookieHeader,
  createTestApp,
  createUser,
  signUp,
  TEST_PASSWORD,
  tokenFor,
  type TestContext,
  type TestUser,
} from './harness.ts';

/**
 * API tokens end with the session they were issued against (decision 009): sign-out, session
 * revocation, a password change and account deletion make them fail at once, not within the hour.
 */
const ORIGIN = 'http://localhost:3000';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
});
afterAll(async () => {
  await ctx?.close();
});

function callWith(token: string, user: TestUser) {
  return ctx.app.inject({ url: `/api/users/admin/${user.email}`, headers: { authorization: `Bearer ${token}` } });
}

async function expectTokenDead(token: string, user: TestUser) {
  const response = await callWith(token, user);
  expect(response.statusCode).toBe(401);
  expect(response.json().error.code).toBe('unauthenticated');
}

/** A second session of the same user (another device). */
async function signInAgain(user: TestUser): Promise<TestUser> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email: user.email, password: TEST_PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  const cookie = cookieHeader(response.headers['set-cookie']);
  return { ...user, cookie, headers: { cookie } };
}

async function sessionIdOf(user: TestUser): Promise<string> {
  const response = await ctx.app.inject({ url: '/api/auth/get-session', headers: user.headers });
  return (response.json() as { session: { id: string } }).session.id;
}

describe('a token names its session', () => {
  it('carries the session id as `sid`', async () => {
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid?: string };
    expect(claims.sid).toBe(await sessionIdOf(user));
    expect((await callWith(token, user)).statusCode).toBe(200);
  });
});

describe('a token ends with its session', () => {
  it('on sign-out', async () => {
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    expect((await callWith(token, user)).statusCode).toBe(200);
    const signOut = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { ...user.headers, origin: ORIGIN },
    });
    expect(signOut.statusCode).toBe(200);
    await expectTokenDead(token, user);
  });

  it('on signing one device out, and only for that device', async () => {
    const user = await signUp(ctx);
    const other = await signInAgain(user);
    const doomed = await tokenFor(ctx, user);
    const kept = await tokenFor(ctx, other);
    const userSessionId = await sessionIdOf(user);
    const revoke = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/me/sessions/${userSessionId}`,
      headers: { ...other.headers, origin: ORIGIN },
    });
    expect(revoke.statusCode).toBe(200);
    await expectTokenDead(doomed, user);
    expect((await callWith(kept, user)).statusCode).toBe(200);
  });

  it('on revoke-other-sessions, for the other sessions', async () => {
    const user = await signUp(ctx);
    const other = await signInAgain(user);
    const doomed = await tokenFor(ctx, user);
    const kept = await tokenFor(ctx, other);
    const revoke = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/revoke-other-sessions',
      headers: { ...other.headers, origin: ORIGIN },
      payload: {},
    });
    expect(revoke.statusCode).toBe(200);
    await expectTokenDead(doomed, user);
    expect((await callWith(kept, user)).statusCode).toBe(200);
  });

  it('on revoke-sessions, for every session', async () => {
    const user = await signUp(ctx);
    const other = await signInAgain(user);
    const tokens = [await tokenFor(ctx, user), await tokenFor(ctx, other)];
    const revoke = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/revoke-sessions',
      headers: { ...other.headers, origin: ORIGIN },
      payload: {},
    });
    expect(revoke.statusCode).toBe(200);
    for (const token of tokens) await expectTokenDead(token, user);
  });

  it('on a password change, for every older session, even when the caller asks to keep them', async () => {
    const user = await signUp(ctx);
    const other = await signInAgain(user);
    const tokens = [await tokenFor(ctx, user), await tokenFor(ctx, other)];
    const change = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { ...user.headers, origin: ORIGIN },
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'Changed#Pass3', revokeOtherSessions: false },
    });
    expect(change.statusCode).toBe(200);
    for (const token of tokens) await expectTokenDead(token, user);
    expect((await ctx.app.inject({ url: '/api/auth/get-session', headers: other.headers })).json()).toBeNull();
    // The caller carries on with the fresh session better-auth hands back, and can get a new token.
    const cookie = cookieHeader(change.headers['set-cookie']);
    const fresh = { ...user, cookie, headers: { cookie } };
    expect((await callWith(await tokenFor(ctx, fresh), user)).statusCode).toBe(200);
  });

  it('on account deletion', async () => {
    const admin = await createUser(ctx, 'admin');
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    const removed = await ctx.app.inject({ method: 'DELETE', url: `/api/users/${user.id}`, headers: admin.headers });
    expect(removed.statusCode).toBe(200);
    await expectTokenDead(token, user);
  });

  it('when its session has expired', async () => {
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    const sid = await sessionIdOf(user);
    await ctx.db
      .update(schema.sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.sessions.id, sid));
    await expectTokenDead(token, user);
  });

  it('when its session belongs to someone else (a forged pairing cannot be signed, but the check holds)', async () => {
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    const sid = await sessionIdOf(user);
    const stranger = await signUp(ctx);
    await ctx.db.update(schema.sessions).set({ userId: stranger.id }).where(eq(schema.sessions.id, sid));
    await expectTokenDead(token, user);
  });
});
