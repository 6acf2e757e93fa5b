import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@skillhive/shared/rules/messages';
import { schema } from '../src/db/client.ts';
import { TOKEN_TTL_SECONDS } from '../src/modules/auth/token.ts';
import {
  cookieHeader,
  createTestApp,
  createUser,
  signUp,
  TEST_PASSWORD,
  tokenFor,
  uniqueEmail,
  type TestContext,
} from './harness.ts';

/**
 * Accounts, sessions and the token of spec §4/§7 (DESIGN §1.2, §1.5), through the real routes.
 * The app's clock (the `now` dep) is shifted to age API tokens; better-auth keeps real time.
 */
const ORIGIN = 'http://localhost:3000';
let clockShiftMs = 0;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { now: () => new Date(Date.now() + clockShiftMs) });
});
afterAll(async () => {
  await ctx?.close();
});

const validSignUp = () => ({
  name: 'Grace Hopper',
  email: uniqueEmail('grace'),
  password: 'Cobol#59',
  phone: '+1 555-010-12345',
  image: 'https://example.test/grace.png',
});

async function storedUser(email: string) {
  const [row] = await ctx.db.select().from(schema.users).where(eq(schema.users.email, email.toLowerCase()));
  return row;
}

describe('sign-up validation (spec §5) on the server', () => {
  // Each case: what is wrong, the field it concerns, and the spec's message for it.
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['name missing', { name: undefined }, 'name', AUTH_MESSAGES.nameRequired],
    ['name blank', { name: '   ' }, 'name', 'Name is required'],
    ['photo URL missing', { image: undefined }, 'image', 'Photo URL is required'],
    ['photo URL empty', { image: '' }, 'image', 'Photo URL is required'],
    ['phone missing', { phone: undefined }, 'phone', 'Phone number is required'],
    ['phone empty', { phone: '' }, 'phone', 'Phone number is required'],
    ['phone of 10 digits', { phone: '0123456789' }, 'phone', 'Must be at least 11 digits'],
    ['phone of 21 digits', { phone: '012345678901234567890' }, 'phone', 'Must be at most 20 digits'],
    ['phone with letters', { phone: '0123-abc-45678' }, 'phone', 'Must be between 11 and 20 digits'],
    ['phone with a doubled separator', { phone: '012--345-678901' }, 'phone', 'Must be between 11 and 20 digits'],
    ['e-mail missing', { email: undefined }, 'email', 'Email is required'],
    ['e-mail empty', { email: '' }, 'email', 'Email is required'],
    ['e-mail malformed', { email: 'not-an-email' }, 'email', AUTH_MESSAGES.emailInvalid],
    ['password missing', { password: undefined }, 'password', 'Password is required'],
    ['password empty', { password: '' }, 'password', 'Password is required'],
    ['password of 5 characters', { password: 'Ab1!x' }, 'password', 'Password must be 6 characters'],
    ['password of 21 characters', { password: `Ab1!${'x'.repeat(17)}` }, 'password', AUTH_MESSAGES.passwordMax],
    [
      'password without upper case',
      { password: 'cobol#59' },
      'password',
      'Password must have one Upper case one lower case, one number and one special characters',
    ],
    ['password without lower case', { password: 'COBOL#59' }, 'password', AUTH_MESSAGES.passwordPattern],
    ['password without a digit', { password: 'Cobol#xx' }, 'password', AUTH_MESSAGES.passwordPattern],
    ['password without a special character', { password: 'Cobol159' }, 'password', AUTH_MESSAGES.passwordPattern],
    [
      'password whose only special character is not one of ! @ # $ & *',
      { password: 'Cobol%59' },
      'password',
      AUTH_MESSAGES.passwordPattern,
    ],
  ];

  it.each(cases)('%s → 400 with the spec message', async (_label, change, field, message) => {
    const body: Record<string, unknown> = { ...validSignUp(), ...change };
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: body });
    expect(response.statusCode).toBe(400);
    const json = response.json();
    expect(json.error.code).toBe('validation_error');
    expect(json.error.fields[field]).toBe(message);
    expect(json.requestId).toBe(response.headers['x-request-id']);
    if (typeof body.email === 'string' && body.email.includes('@'))
      expect(await storedUser(body.email)).toBeUndefined();
  });

  it('reports every invalid field at once', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      name: 'Name is required',
      image: 'Photo URL is required',
      phone: 'Phone number is required',
      email: 'Email is required',
      password: 'Password is required',
    });
  });

  it.each(['01234567890', '+44 20 7946 0958', '123-45-678901', '+1 555 010 1234 5678 9012'])(
    'accepts the phone %s',
    async (phone) => {
      const body = { ...validSignUp(), phone };
      const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: body });
      expect(response.statusCode).toBe(200);
      expect((await storedUser(body.email))?.phone).toBe(phone);
    },
  );

  it('creates a student with a salted argon2id hash, and signs them in', async () => {
    const body = { ...validSignUp(), email: uniqueEmail('Mixed.Case').replace('mixed', 'MiXeD') };
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: body });
    expect(response.statusCode).toBe(200);
    const user = await storedUser(body.email);
    expect(user).toMatchObject({
      name: body.name,
      email: body.email.toLowerCase(),
      image: body.image,
      phone: body.phone,
      isAdmin: false,
      isTeacher: false,
    });
    const [account] = await ctx.db.select().from(schema.accounts).where(eq(schema.accounts.userId, user!.id));
    expect(account?.providerId).toBe('credential');
    expect(account?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(account?.password).not.toContain(body.password);
    const session = await ctx.app.inject({
      url: '/api/auth/get-session',
      headers: { cookie: cookieHeader(response.headers['set-cookie']) },
    });
    expect(session.json().user.email).toBe(body.email.toLowerCase());
  });

  it('refuses a second account for the same e-mail, in any letter case', async () => {
    const first = validSignUp();
    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: first })).statusCode).toBe(
      200,
    );
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { ...validSignUp(), email: first.email.toUpperCase() },
    });
    expect(again.statusCode).toBe(409);
    const json = again.json();
    expect(json.error.code).toBe('conflict');
    expect(json.error.fields.email).toBe(json.error.message);
    expect(json.message).toBe(json.error.message);
    const rows = await ctx.db.select().from(schema.users).where(eq(schema.users.email, first.email));
    expect(rows).toHaveLength(1);
  });
});

describe('sign-in, session and sign-out', () => {
  it('requires both login fields (spec §5)', async () => {
    const noEmail = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { password: 'x' },
    });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().error.fields).toEqual({ email: 'Email is required' });
    const noPassword = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'a@b.test', password: '' },
    });
    expect(noPassword.json().error.fields).toEqual({ password: 'Password is required' });
  });

  it('gives a wrong password and an unknown e-mail the same answer', async () => {
    const user = await signUp(ctx);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: user.email, password: 'Wrong#Pass1' },
    });
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: uniqueEmail('nobody'), password: 'Wrong#Pass1' },
    });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toEqual({ code: 'unauthenticated', message: AUTH_MESSAGES.invalidCredentials });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    expect(strip(wrong.json())).toEqual(strip(unknown.json()));
  });

  it('signs in with any letter case of the e-mail, reads the session, and signs out', async () => {
    const user = await signUp(ctx);
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: user.email.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = cookieHeader(signIn.headers['set-cookie']);
    const session = await ctx.app.inject({ url: '/api/auth/get-session', headers: { cookie } });
    expect(session.json().user).toMatchObject({ id: user.id, email: user.email, isAdmin: false, isTeacher: false });

    // A cross-site form cannot sign the user out (better-auth's Origin check, on in every environment).
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('forbidden');
    expect((await ctx.app.inject({ url: '/api/auth/get-session', headers: { cookie } })).json()).not.toBeNull();

    const signOut = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: ORIGIN },
    });
    expect(signOut.statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/auth/get-session', headers: { cookie } })).json()).toBeNull();
    const afterwards = await ctx.app.inject({
      method: 'POST',
      url: '/api/jwt',
      headers: { cookie },
      payload: { email: user.email },
    });
    expect(afterwards.statusCode).toBe(401);
  });

  it('sets the session cookie httpOnly and SameSite=Lax, not Secure over plain http', async () => {
    const body = validSignUp();
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: body });
    const cookie = [response.headers['set-cookie']].flat().find((c) => c?.startsWith('better-auth.session_token='));
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
  });
});

describe('the API token (spec §4, §7; DESIGN §1.2)', () => {
  it('is refused without a session', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/jwt',
      payload: { email: 'someone@example.test' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('unauthenticated');
  });

  it('is refused for another e-mail than the session’s', async () => {
    const user = await signUp(ctx);
    const victim = await signUp(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/jwt',
      headers: user.headers,
      payload: { email: victim.email },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden');
  });

  it('is issued for the caller’s own e-mail and works as a Bearer token on a secured endpoint', async () => {
    const user = await signUp(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/jwt',
      headers: user.headers,
      payload: { email: user.email.toUpperCase() },
    });
    expect(response.statusCode).toBe(200);
    const { token } = response.json() as { token: string };
    expect(token.split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      sub: string;
      exp: number;
      iat: number;
    };
    expect(claims.sub).toBe(user.id);
    expect(claims.exp - claims.iat).toBe(TOKEN_TTL_SECONDS);

    const profile = await ctx.app.inject({
      url: `/api/users/profile/${user.email}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().email).toBe(user.email);
    const anonymous = await ctx.app.inject({ url: `/api/users/profile/${user.email}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('is rejected once it has expired, and when tampered with', async () => {
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    const call = (bearer: string) =>
      ctx.app.inject({ url: `/api/users/admin/${user.email}`, headers: { authorization: `Bearer ${bearer}` } });
    expect((await call(token)).statusCode).toBe(200);
    const [head, payload, signature] = token.split('.') as [string, string, string];
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), exp: 9_999_999_999 }),
    ).toString('base64url');
    expect((await call(`${head}.${forgedPayload}.${signature}`)).statusCode).toBe(401);
    expect((await call('not-a-token')).statusCode).toBe(401);
    clockShiftMs = (TOKEN_TTL_SECONDS - 60) * 1000;
    try {
      expect((await call(token)).statusCode).toBe(200);
      clockShiftMs = (TOKEN_TTL_SECONDS + 1) * 1000;
      const expired = await call(token);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().error.code).toBe('unauthenticated');
    } finally {
      clockShiftMs = 0;
    }
  });

  it('is issued against a session only: a token cannot renew itself', async () => {
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    const renewal = await ctx.app.inject({
      method: 'POST',
      url: '/api/jwt',
      headers: { authorization: `Bearer ${token}` },
      payload: { email: user.email },
    });
    expect(renewal.statusCode).toBe(401);
    expect(renewal.json().error.code).toBe('unauthenticated');
  });

  it('does not let a stale token hide a live session cookie', async () => {
    const user = await signUp(ctx);
    const response = await ctx.app.inject({
      url: `/api/users/admin/${user.email}`,
      headers: { ...user.headers, authorization: 'Bearer stale.token.value' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('no request body grants a role (DESIGN §1.1)', () => {
  it('ignores role fields in the sign-up body', async () => {
    const body = { ...validSignUp(), isAdmin: true, isTeacher: true, role: 'admin', admin: true, teacher: true };
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: body });
    expect(response.statusCode).toBe(200);
    expect(await storedUser(body.email)).toMatchObject({ isAdmin: false, isTeacher: false });
  });

  it('refuses role flags and e-mail changes through better-auth’s update-user, and checks the fields it allows', async () => {
    const user = await signUp(ctx);
    const headers = { ...user.headers, origin: ORIGIN };
    for (const payload of [
      { isAdmin: true },
      { isTeacher: true },
      { isAdmin: true, name: 'Sneaky' },
      { email: 'other@example.test' },
    ]) {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/update-user', headers, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
    }
    expect(await storedUser(user.email)).toMatchObject({
      isAdmin: false,
      isTeacher: false,
      name: user.name,
      email: user.email,
    });

    const badPhone = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers,
      payload: { phone: '123' },
    });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().error.fields).toEqual({ phone: 'Must be at least 11 digits' });
    const badPhoto = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers,
      payload: { image: 'javascript:alert(1)' },
    });
    expect(badPhoto.json().error.fields).toEqual({ image: AUTH_MESSAGES.photoInvalid });

    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers,
      payload: { name: 'New Name', image: 'https://example.test/new.png' },
    });
    expect(ok.statusCode).toBe(200);
    expect(await storedUser(user.email)).toMatchObject({
      name: 'New Name',
      image: 'https://example.test/new.png',
      isAdmin: false,
    });
  });

  it('ignores role and e-mail in POST /api/users', async () => {
    const user = await signUp(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: user.headers,
      payload: {
        name: user.name,
        email: 'admin@example.test',
        role: 'admin',
        isAdmin: true,
        isTeacher: true,
        admin: true,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ insertedId: null });
    expect(await storedUser(user.email)).toMatchObject({ email: user.email, isAdmin: false, isTeacher: false });
    expect(await storedUser('admin@example.test')).toBeUndefined();
  });
});

describe('an app configured with an https PUBLIC_URL and ADMIN_EMAILS', () => {
  let configured: TestContext;
  const bossEmail = uniqueEmail('boss');
  const laterEmail = uniqueEmail('later');
  beforeAll(async () => {
    configured = await createTestApp({
      PUBLIC_URL: 'https://skillhive.example',
      ADMIN_EMAILS: `${bossEmail.toUpperCase()}, ${laterEmail}`,
    });
  });
  afterAll(async () => {
    await configured?.close();
  });

  it('marks cookies Secure when PUBLIC_URL is https, and trusts that origin only', async () => {
    const response = await configured.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: validSignUp(),
    });
    expect(response.statusCode).toBe(200);
    const cookie = [response.headers['set-cookie']].flat().find((c) => c?.includes('better-auth.session_token='));
    expect(cookie).toMatch(/^__Secure-better-auth\.session_token=/);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    // better-auth's trusted origin is PUBLIC_URL: only that origin may post with the cookie.
    const headers = { cookie: cookieHeader(response.headers['set-cookie']) };
    const http = await configured.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { ...headers, origin: 'http://skillhive.example' },
    });
    expect(http.statusCode).toBe(403);
    const same = await configured.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { ...headers, origin: 'https://skillhive.example' },
    });
    expect(same.statusCode).toBe(200);
  });

  it('makes a listed e-mail an admin at sign-up, and nobody else', async () => {
    const boss = await signUp(configured, { email: bossEmail });
    const student = await signUp(configured);
    const flag = (email: string, headers: { cookie: string }) =>
      configured.app.inject({ url: `/api/users/admin/${email}`, headers });
    expect((await flag(boss.email, boss.headers)).json()).toEqual({ admin: true });
    expect((await flag(student.email, student.headers)).json()).toEqual({ admin: false });
    const [row] = await configured.db.select().from(schema.users).where(eq(schema.users.id, boss.id));
    expect(row).toMatchObject({ isAdmin: true, isTeacher: false });
  });

  it('makes a listed e-mail an admin when an existing account signs in', async () => {
    // The account existed before its address was listed (here: its flag is cleared in the database).
    const later = await signUp(configured, { email: laterEmail });
    await configured.db.update(schema.users).set({ isAdmin: false }).where(eq(schema.users.id, later.id));
    const before = await configured.app.inject({ url: `/api/users/admin/${later.email}`, headers: later.headers });
    expect(before.json()).toEqual({ admin: false });
    const signIn = await configured.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: laterEmail, password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const after = await configured.app.inject({
      url: `/api/users/admin/${later.email}`,
      headers: { cookie: cookieHeader(signIn.headers['set-cookie']) },
    });
    expect(after.json()).toEqual({ admin: true });
  });

  it('has no admin in an app without ADMIN_EMAILS', async () => {
    const rows = await ctx.db.select().from(schema.users).where(eq(schema.users.isAdmin, true));
    const created = await createUser(ctx, 'student');
    expect(rows).toHaveLength(0);
    expect((await storedUser(created.email))?.isAdmin).toBe(false);
  });
});
