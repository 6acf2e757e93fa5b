import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@skillhive/shared/rules/messages';
import { schema } from '../src/db/client.ts';
import { createClass, createIntent, enrolOk } from './commerce-fixtures.ts';
import {
  cookieHeader,
  createTestApp,
  createUser,
  latestMail,
  signUp,
  TEST_PASSWORD,
  tokenFor,
  uniqueEmail,
  verifyEmail,
  type TestContext,
  type TestUser,
} from './harness.ts';
import { startSmtpServer } from './smtp-server.ts';

/**
 * Accounts and e-mail (decision 014): verification, password reset, change of address, devices,
 * notification preferences and deleting one's own account, each through the real endpoints and
 * the real outbox; links are followed as a person's browser would.
 */
const ORIGIN = 'http://localhost:3000';
const NEW_PASSWORD = 'New!Pass42';
const application = { experience: 'mid-level', title: 'Front-end mentor', category: 'web-development' } as const;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    ADMIN_EMAILS: 'boss@example.test,boss2@example.test',
  });
});
afterAll(async () => {
  await ctx.close();
});

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'POST', url, headers: { origin: ORIGIN, ...headers }, payload: payload as object });
}

/** Follows a mail's link; `location` is where the browser goes next, as a path on this site. */
async function follow(link: URL, headers: Record<string, string> = {}) {
  const response = await ctx.app.inject({ method: 'GET', url: link.pathname + link.search, headers });
  const next = new URL(String(response.headers.location ?? ''), ORIGIN);
  expect(next.origin).toBe(ORIGIN);
  return { status: response.statusCode, location: next.pathname + next.search, response };
}

async function session(headers: Record<string, string>) {
  return (await ctx.app.inject({ url: '/api/auth/get-session', headers })).json() as {
    user: { email: string; emailVerified: boolean };
  } | null;
}

async function signIn(email: string, password: string) {
  const response = await post('/api/auth/sign-in/email', { email, password });
  return { status: response.statusCode, cookie: cookieHeader(response.headers['set-cookie']) };
}

async function isAdmin(user: TestUser) {
  const response = await ctx.app.inject({ url: `/api/users/admin/${user.email}`, headers: user.headers });
  return (response.json() as { admin: boolean }).admin;
}

describe('e-mail verification', () => {
  it('sends a link at sign-up; until it is followed, applying to teach and paying are refused', async () => {
    const user = await signUp(ctx, { verified: false, name: 'Vera Unverified' });
    const mail = await latestMail(ctx, user.email, 'verify-email');
    expect(mail.subject).toBe('Verify your e-mail address — SkillHive');
    expect(mail.text).toContain('Hello,');
    expect(mail.text).not.toContain('Vera Unverified');
    expect(mail.html).toContain(`href="${mail.link.toString().replaceAll('&', '&#38;')}"`);
    expect(mail.link.origin).toBe(ORIGIN);
    expect((await session(user.headers))?.user.emailVerified).toBe(false);

    const apply = await ctx.app.inject({
      method: 'POST',
      url: '/api/teachers/teacher-requests',
      headers: user.headers,
      payload: application,
    });
    expect(apply.statusCode).toBe(403);
    expect(apply.json().error.code).toBe('email_not_verified');
    const teacher = await createUser(ctx, 'teacher');
    const cls = await createClass(ctx, teacher, { title: 'Verified buyers only' });
    await enrolOk(ctx, user, cls.id);
    const pay = await createIntent(ctx, user);
    expect(pay.statusCode).toBe(403);
    expect(pay.json().error.code).toBe('email_not_verified');

    const followed = await follow(mail.link);
    expect(followed.status).toBe(302);
    expect(followed.location).toBe('/email-verified');
    expect((await session(user.headers))?.user.emailVerified).toBe(true);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/teachers/teacher-requests',
      headers: user.headers,
      payload: application,
    });
    expect(again.statusCode).toBe(200);
    expect((await createIntent(ctx, user)).statusCode).toBe(200);
  });

  it('sends a bad or forged link back to the page with an error, and verifies nothing', async () => {
    const user = await signUp(ctx, { verified: false });
    const { link } = await latestMail(ctx, user.email, 'verify-email');
    const forged = new URL(link);
    forged.searchParams.set('token', `${link.searchParams.get('token')!.slice(0, -4)}AAAA`);
    const response = await follow(forged);
    expect(response.status).toBe(302);
    expect(response.location).toBe('/email-verified?error=INVALID_TOKEN');
    expect((await session(user.headers))?.user.emailVerified).toBe(false);
  });

  it('sends the link again on request, to a path on this site only, and limits how often', async () => {
    const user = await signUp(ctx, { verified: false });
    const offsite = await post(
      '/api/auth/send-verification-email',
      { email: user.email, callbackURL: 'https://evil.example/steal' },
      user.headers,
    );
    expect(offsite.statusCode).toBe(400);
    const protocolRelative = await post(
      '/api/auth/send-verification-email',
      { email: user.email, callbackURL: '//evil.example' },
      user.headers,
    );
    expect(protocolRelative.statusCode).toBe(400);

    // Sign-up's own mail was the first of the address's three (decision 028): two more, then 429.
    const before = await ctx.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.to, user.email));
    for (let i = 0; i < 2; i++) {
      expect((await post('/api/auth/send-verification-email', { email: user.email }, user.headers)).statusCode).toBe(
        200,
      );
    }
    const after = await ctx.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.to, user.email));
    expect(after.length - before.length).toBe(2);
    const limited = await post('/api/auth/send-verification-email', { email: user.email }, user.headers);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another person's address cannot be mailed from a session.
    const other = await post('/api/auth/send-verification-email', { email: uniqueEmail('other') }, user.headers);
    expect(other.statusCode).toBe(400);
  });

  it('grants admin from ADMIN_EMAILS only once the address is verified', async () => {
    const boss = await signUp(ctx, { email: 'boss@example.test', verified: false });
    expect(await isAdmin(boss)).toBe(false);
    const again = await signIn(boss.email, TEST_PASSWORD);
    expect(await isAdmin({ ...boss, headers: { cookie: again.cookie } })).toBe(false);
    await verifyEmail(ctx, boss.email);
    expect(await isAdmin(boss)).toBe(true);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the account exists, and mails only a real one', async () => {
    const user = await signUp(ctx);
    const known = await post('/api/auth/request-password-reset', { email: user.email });
    const unknown = await post('/api/auth/request-password-reset', { email: uniqueEmail('nobody') });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const mail = await latestMail(ctx, user.email, 'reset-password');
    expect(mail.subject).toBe('Reset your password — SkillHive');
    expect(mail.text).toContain('It works once, for one hour.');
  });

  it('resets through the link: the rule holds, every session and token ends, the link works once', async () => {
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    const other = await signIn(user.email, TEST_PASSWORD);
    expect((await post('/api/auth/request-password-reset', { email: user.email })).statusCode).toBe(200);
    const { link } = await latestMail(ctx, user.email, 'reset-password');

    const landing = await follow(link);
    expect(landing.status).toBe(302);
    const target = new URL(landing.location, ORIGIN);
    expect(target.pathname).toBe('/reset-password');
    const resetToken = target.searchParams.get('token')!;
    expect(resetToken).toBeTruthy();

    const weak = await post('/api/auth/reset-password', { token: resetToken, newPassword: 'alllowercase1!' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.message).toBe(AUTH_MESSAGES.passwordPattern);

    const reset = await post('/api/auth/reset-password', { token: resetToken, newPassword: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(await session(user.headers)).toBeNull();
    expect(await session({ cookie: other.cookie })).toBeNull();
    const withToken = await ctx.app.inject({
      url: `/api/users/profile/${user.email}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withToken.statusCode).toBe(401);

    const reused = await post('/api/auth/reset-password', { token: resetToken, newPassword: 'Other!Pass7' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe('INVALID_TOKEN');
    expect((await follow(link)).location).toBe('/reset-password?error=INVALID_TOKEN');

    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a link after its hour', async () => {
    const user = await signUp(ctx);
    await post('/api/auth/request-password-reset', { email: user.email });
    const { link } = await latestMail(ctx, user.email, 'reset-password');
    const token = link.pathname.split('/').at(-1)!;
    const [row] = await ctx.db
      .select({ expiresAt: schema.verifications.expiresAt, createdAt: schema.verifications.createdAt })
      .from(schema.verifications)
      .where(eq(schema.verifications.identifier, `reset-password:${token}`));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeCloseTo(60 * 60 * 1000, -4);
    // An hour passes (the stored expiry is moved, as the clock would move it).
    await ctx.db
      .update(schema.verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.verifications.identifier, `reset-password:${token}`));
    expect((await follow(link)).location).toBe('/reset-password?error=INVALID_TOKEN');
    const late = await post('/api/auth/reset-password', { token, newPassword: NEW_PASSWORD });
    expect(late.statusCode).toBe(400);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('limits reset requests per address', async () => {
    const email = uniqueEmail('many-resets');
    for (let i = 0; i < 3; i++)
      expect((await post('/api/auth/request-password-reset', { email })).statusCode).toBe(200);
    expect((await post('/api/auth/request-password-reset', { email })).statusCode).toBe(429);
  });

  it('keeps one mail limit per address across every endpoint, sign-up included', async () => {
    const email = uniqueEmail('one-limit');
    const mover = await signUp(ctx);
    await signUp(ctx, { email, verified: false });
    expect((await post('/api/auth/send-verification-email', { email })).statusCode).toBe(200);
    expect((await post('/api/auth/request-password-reset', { email })).statusCode).toBe(200);
    // Three mails to this address within the window: no endpoint sends a fourth.
    expect((await post('/api/auth/request-password-reset', { email })).statusCode).toBe(429);
    expect((await post('/api/auth/send-verification-email', { email: email.toUpperCase() })).statusCode).toBe(429);
    expect(
      (await post('/api/auth/change-email', { newEmail: email, password: TEST_PASSWORD }, mover.headers)).statusCode,
    ).toBe(429);
  });

  it('proves the address: an unverified account is verified by a reset, and a listed one becomes admin', async () => {
    const boss = await signUp(ctx, { email: 'boss2@example.test', verified: false });
    await post('/api/auth/request-password-reset', { email: boss.email });
    const { link } = await latestMail(ctx, boss.email, 'reset-password');
    const token = new URL((await follow(link)).location, ORIGIN).searchParams.get('token')!;
    expect((await post('/api/auth/reset-password', { token, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
    const signedIn = await signIn(boss.email, NEW_PASSWORD);
    expect((await session({ cookie: signedIn.cookie }))?.user.emailVerified).toBe(true);
    expect(await isAdmin({ ...boss, headers: { cookie: signedIn.cookie } })).toBe(true);
  });
});

describe('changing the e-mail address', () => {
  it('changes only when the link sent to the new address is followed', async () => {
    const user = await signUp(ctx);
    const newEmail = uniqueEmail('moved');
    const bad = await post('/api/auth/change-email', { newEmail: 'not-an-email' }, user.headers);
    expect(bad.statusCode).toBe(400);
    const asked = await post('/api/auth/change-email', { newEmail, password: TEST_PASSWORD }, user.headers);
    expect(asked.statusCode).toBe(200);
    expect((await session(user.headers))?.user.email).toBe(user.email);
    const mail = await latestMail(ctx, newEmail, 'change-email');
    expect(mail.text).toContain(`You asked to use ${newEmail}`);
    const followed = await follow(mail.link, user.headers);
    expect(followed.location).toBe('/dashboard/profile');
    const now = await session(user.headers);
    expect(now?.user).toMatchObject({ email: newEmail, emailVerified: true });
    expect((await signIn(newEmail, TEST_PASSWORD)).status).toBe(200);
  });

  it('says nothing about whether the new address is taken, and changes nothing then', async () => {
    const user = await signUp(ctx);
    const taken = await signUp(ctx);
    const asked = await post(
      '/api/auth/change-email',
      { newEmail: taken.email, password: TEST_PASSWORD },
      user.headers,
    );
    expect(asked.statusCode).toBe(200);
    expect((await session(user.headers))?.user.email).toBe(user.email);
  });

  it('sends the link back to the profile with EMAIL_TAKEN when someone registered the address meanwhile', async () => {
    const user = await signUp(ctx);
    const newEmail = uniqueEmail('contested');
    expect((await post('/api/auth/change-email', { newEmail, password: TEST_PASSWORD }, user.headers)).statusCode).toBe(
      200,
    );
    const mail = await latestMail(ctx, newEmail, 'change-email');
    // Someone else signs up with the address before the link is followed.
    await signUp(ctx, { email: newEmail });
    const followed = await follow(mail.link, user.headers);
    expect(followed.status).toBe(302);
    expect(followed.location).toBe('/dashboard/profile?error=EMAIL_TAKEN');
    expect((await session(user.headers))?.user.email).toBe(user.email);
    // Followed again later, or without a session: the same answer, still no 500.
    expect((await follow(mail.link)).location).toBe('/dashboard/profile?error=EMAIL_TAKEN');
  });

  it('needs a session', async () => {
    expect((await post('/api/auth/change-email', { newEmail: uniqueEmail() })).statusCode).toBe(401);
  });

  it('asks for the current password, counted by the sign-in lockout: a session alone changes nothing', async () => {
    const user = await signUp(ctx);
    const newEmail = uniqueEmail('thief');
    const bare = await post('/api/auth/change-email', { newEmail }, user.headers);
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error.fields).toHaveProperty('password');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const wrong = await post('/api/auth/change-email', { newEmail, password: `Wrong!Pass${i}` }, user.headers);
      statuses.push(wrong.statusCode);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(429);
    const none = await ctx.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.to, newEmail));
    expect(none).toEqual([]);
  });

  it('tells the current address when a change is asked for and when it completes', async () => {
    const user = await signUp(ctx);
    const newEmail = uniqueEmail('moving-on');
    await post('/api/auth/change-email', { newEmail, password: TEST_PASSWORD }, user.headers);
    const asked = await latestMail(ctx, user.email, 'email-change-requested');
    expect(asked.text).toContain(newEmail);
    expect(asked.link.pathname).toBe('/not-me');
    await follow((await latestMail(ctx, newEmail, 'change-email')).link, user.headers);
    const done = await latestMail(ctx, user.email, 'email-changed');
    expect(done.text).toContain(newEmail);
    expect(done.link.pathname).toBe('/not-me');
  });

  it('"this was not me" ends every session and gives the address back', async () => {
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    const thief = await signIn(user.email, TEST_PASSWORD);
    const newEmail = uniqueEmail('stolen');
    await post('/api/auth/change-email', { newEmail, password: TEST_PASSWORD }, { cookie: thief.cookie });
    await follow((await latestMail(ctx, newEmail, 'change-email')).link, { cookie: thief.cookie });
    expect((await session({ cookie: thief.cookie }))?.user.email).toBe(newEmail);

    const notMe = (await latestMail(ctx, user.email, 'email-changed')).link.searchParams.get('token')!;
    const undone = await post('/api/users/not-me', { token: notMe });
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toEqual({ signedOut: 2, emailRestored: true });
    expect(await session({ cookie: thief.cookie })).toBeNull();
    expect(await session(user.headers)).toBeNull();
    const withToken = await ctx.app.inject({
      url: '/api/users/me/sessions',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withToken.statusCode).toBe(401);
    expect((await signIn(newEmail, TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(200);
    // The link works once.
    expect((await post('/api/users/not-me', { token: notMe })).statusCode).toBe(400);
    expect((await post('/api/users/not-me', { token: 'x'.repeat(43) })).statusCode).toBe(400);
  });

  it('a pending change link dies at a password change, at sign-out everywhere and at a reset', async () => {
    const ends = {
      'password change': async (user: TestUser) => {
        const changed = await post(
          '/api/auth/change-password',
          { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
          user.headers,
        );
        expect(changed.statusCode).toBe(200);
      },
      'sign-out everywhere': async (user: TestUser) => {
        expect((await post('/api/auth/revoke-sessions', {}, user.headers)).statusCode).toBe(200);
      },
      'password reset': async (user: TestUser) => {
        await post('/api/auth/request-password-reset', { email: user.email });
        const { link } = await latestMail(ctx, user.email, 'reset-password');
        const resetToken = new URL((await follow(link)).location, ORIGIN).searchParams.get('token')!;
        expect(
          (await post('/api/auth/reset-password', { token: resetToken, newPassword: NEW_PASSWORD })).statusCode,
        ).toBe(200);
      },
    };
    for (const [what, end] of Object.entries(ends)) {
      const user = await signUp(ctx);
      const newEmail = uniqueEmail('pending');
      await post('/api/auth/change-email', { newEmail, password: TEST_PASSWORD }, user.headers);
      const { link } = await latestMail(ctx, newEmail, 'change-email');
      await end(user);
      const followed = await follow(link);
      expect(followed.location, what).toBe('/dashboard/profile?error=INVALID_TOKEN');
      const [row] = await ctx.db
        .select({ email: schema.users.email })
        .from(schema.users)
        .where(eq(schema.users.id, user.id));
      expect(row?.email, what).toBe(user.email);
    }
  });

  it('a verification link dies at sign-out everywhere', async () => {
    const user = await signUp(ctx, { verified: false });
    const { link } = await latestMail(ctx, user.email, 'verify-email');
    expect((await post('/api/auth/revoke-sessions', {}, user.headers)).statusCode).toBe(200);
    expect((await follow(link)).location).toBe('/email-verified?error=INVALID_TOKEN');
  });
});

describe('callbacks and redirects stay on this site, under any spelling', () => {
  /** Values that a URL parser (ours, better-auth's, a browser's) could turn into another origin or path. */
  const HOSTILE = [
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2e//evil.example',
    '/.%2e//evil.example',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example/steal',
    'http://localhost:3000.evil.example/x',
    'evil.example',
    '/email-verified/../..//evil.example',
    '/a//b',
    '/a/./b',
    '/a/%2e%2e/b',
    '/email-verified\t',
    '/email-verified%0d%0aSet-Cookie:x=1',
  ];

  function expectRefusedWithoutRedirect(response: Awaited<ReturnType<typeof ctx.app.inject>>) {
    expect(response.statusCode, response.body).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.json().error.code).toBe('validation_error');
  }

  it.each(HOSTILE)('a verification link whose callbackURL is %j is refused, never redirected', async (callback) => {
    expectRefusedWithoutRedirect(
      await ctx.app.inject({ url: `/api/auth/verify-email?token=x&callbackURL=${encodeURIComponent(callback)}` }),
    );
  });

  it('refuses the raw spellings of the attack, the genuine token included, and verifies nothing', async () => {
    const user = await signUp(ctx, { verified: false });
    const { link } = await latestMail(ctx, user.email, 'verify-email');
    const token = link.searchParams.get('token')!;
    for (const query of [
      'callbackURL=%2F.%2F%2Fevil.example',
      'callbackURL=/..//evil.example',
      'callbackURL=/%2e//evil.example',
      'callbackURL=%2F%252e%2F%2Fevil.example',
    ]) {
      expectRefusedWithoutRedirect(await ctx.app.inject({ url: `/api/auth/verify-email?token=x&${query}` }));
      expectRefusedWithoutRedirect(await ctx.app.inject({ url: `/api/auth/verify-email?token=${token}&${query}` }));
    }
    expect((await session(user.headers))?.user.emailVerified).toBe(false);
    // The genuine link still works, and lands on this site.
    const followed = await follow(link);
    expect(followed.location).toBe('/email-verified');
  });

  it('refuses a hostile callbackURL on the reset link too', async () => {
    const user = await signUp(ctx);
    await post('/api/auth/request-password-reset', { email: user.email });
    const { link } = await latestMail(ctx, user.email, 'reset-password');
    for (const callback of HOSTILE) {
      const response = await ctx.app.inject({ url: `${link.pathname}?callbackURL=${encodeURIComponent(callback)}` });
      expectRefusedWithoutRedirect(response);
    }
    expect((await follow(link)).location).toMatch(/^\/reset-password\?token=/);
  });

  it.each(HOSTILE)('refuses %j as the callback of every mail and sign-in request', async (callback) => {
    const user = await signUp(ctx, { verified: false });
    const requests: [string, Record<string, unknown>, Record<string, string>][] = [
      ['/api/auth/send-verification-email', { email: user.email, callbackURL: callback }, user.headers],
      ['/api/auth/request-password-reset', { email: user.email, redirectTo: callback }, {}],
      ['/api/auth/change-email', { newEmail: uniqueEmail('moving'), callbackURL: callback }, user.headers],
      ['/api/auth/sign-in/email', { email: user.email, password: TEST_PASSWORD, callbackURL: callback }, {}],
      ['/api/auth/sign-in/social', { provider: 'google', callbackURL: callback }, {}],
      ['/api/auth/sign-in/social', { provider: 'google', errorCallbackURL: callback }, {}],
      ['/api/auth/sign-in/social', { provider: 'google', newUserCallbackURL: callback }, {}],
    ];
    for (const [url, payload, headers] of requests) {
      const response = await post(url, payload, headers);
      expect({ url, status: response.statusCode }).toEqual({ url, status: 400 });
      expect(response.json().error.code).toBe('validation_error');
    }
    const mails = await ctx.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.to, user.email));
    expect(mails.map((mail) => mail.kind)).toEqual(['verify-email']);
  });

  it('accepts paths on this site, and this site’s own absolute address for a provider sign-in', async () => {
    const user = await signUp(ctx, { verified: false });
    const sent = await post(
      '/api/auth/send-verification-email',
      { email: user.email, callbackURL: '/email-verified?from=profile' },
      user.headers,
    );
    expect(sent.statusCode).toBe(200);
    const { link } = await latestMail(ctx, user.email, 'verify-email');
    expect(link.searchParams.get('callbackURL')).toBe('/email-verified?from=profile');
    expect((await follow(link)).location).toBe('/email-verified?from=profile');
  });
});

describe('mails to an address nobody has proven yet greet no one by name', () => {
  const CHOSEN = 'Claim your prize at evil.example';

  it('the verification mail, sent at sign-up and again on request', async () => {
    const user = await signUp(ctx, { verified: false, name: CHOSEN });
    const first = await latestMail(ctx, user.email, 'verify-email');
    expect(first.text.startsWith('Hello,\n')).toBe(true);
    expect(`${first.subject}${first.text}${first.html}`).not.toContain(CHOSEN);
    expect((await post('/api/auth/send-verification-email', { email: user.email })).statusCode).toBe(200);
    const again = await latestMail(ctx, user.email, 'verify-email');
    expect(`${again.subject}${again.text}${again.html}`).not.toContain(CHOSEN);
  });

  it('the reset mail of an unverified account; a verified one is still greeted by name', async () => {
    const squatter = await signUp(ctx, { verified: false, name: CHOSEN });
    await post('/api/auth/request-password-reset', { email: squatter.email });
    const unverified = await latestMail(ctx, squatter.email, 'reset-password');
    expect(unverified.text.startsWith('Hello,\n')).toBe(true);
    expect(`${unverified.text}${unverified.html}`).not.toContain(CHOSEN);

    const owner = await signUp(ctx, { name: 'Olga Owner' });
    await post('/api/auth/request-password-reset', { email: owner.email });
    expect((await latestMail(ctx, owner.email, 'reset-password')).text).toContain('Hello Olga Owner,');
  });

  it('the change-of-address mail to the new address', async () => {
    const user = await signUp(ctx, { name: CHOSEN });
    const newEmail = uniqueEmail('victim');
    expect((await post('/api/auth/change-email', { newEmail, password: TEST_PASSWORD }, user.headers)).statusCode).toBe(
      200,
    );
    const mail = await latestMail(ctx, newEmail, 'change-email');
    expect(mail.text.startsWith('Hello,\n')).toBe(true);
    expect(`${mail.text}${mail.html}`).not.toContain(CHOSEN);
  });
});

describe('my devices', () => {
  it('lists my sessions without their tokens, and ends one, with its API tokens', async () => {
    const user = await signUp(ctx);
    const phone = await signIn(user.email, TEST_PASSWORD);
    const phoneToken = await tokenFor(ctx, { ...user, headers: { cookie: phone.cookie } });
    const list = await ctx.app.inject({ url: '/api/users/me/sessions', headers: user.headers });
    expect(list.statusCode).toBe(200);
    const items = list.json() as { id: string; current: boolean }[];
    expect(items).toHaveLength(2);
    expect(items.filter((s) => s.current)).toHaveLength(1);
    expect(JSON.stringify(items)).not.toMatch(/token/i);
    const phoneSession = items.find((s) => !s.current)!;

    // Another user cannot end it.
    const stranger = await signUp(ctx);
    const refused = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/me/sessions/${phoneSession.id}`,
      headers: { ...stranger.headers, origin: ORIGIN },
    });
    expect(refused.statusCode).toBe(404);
    expect(await session({ cookie: phone.cookie })).not.toBeNull();

    const ended = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/me/sessions/${phoneSession.id}`,
      headers: { ...user.headers, origin: ORIGIN },
    });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ deletedCount: 1 });
    expect(await session({ cookie: phone.cookie })).toBeNull();
    const withToken = await ctx.app.inject({
      url: '/api/users/me/sessions',
      headers: { authorization: `Bearer ${phoneToken}` },
    });
    expect(withToken.statusCode).toBe(401);
    expect(await session(user.headers)).not.toBeNull();
  });

  it('signs out everywhere', async () => {
    const user = await signUp(ctx);
    const laptop = await signIn(user.email, TEST_PASSWORD);
    const out = await post('/api/auth/revoke-sessions', {}, user.headers);
    expect(out.statusCode).toBe(200);
    expect(await session(user.headers)).toBeNull();
    expect(await session({ cookie: laptop.cookie })).toBeNull();
  });

  it('is for signed-in users only', async () => {
    expect((await ctx.app.inject({ url: '/api/users/me/sessions' })).statusCode).toBe(401);
    const anonymous = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/users/me/sessions/abc',
      headers: { origin: ORIGIN },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('notification preferences', () => {
  it('are on by default, can be turned off, and then the optional mail is not sent', async () => {
    const applicant = await signUp(ctx);
    const admin = await createUser(ctx, 'admin');
    const read = await ctx.app.inject({ url: '/api/users/me/notifications', headers: applicant.headers });
    expect(read.json()).toEqual({
      teacherApplication: true,
      classReviews: true,
      newMessages: true,
      sessionReminders: true,
    });

    const bad = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications',
      headers: { ...applicant.headers, origin: ORIGIN },
      payload: { teacherApplication: 'no' },
    });
    expect(bad.statusCode).toBe(400);
    const off = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications',
      headers: { ...applicant.headers, origin: ORIGIN },
      payload: { teacherApplication: false, classReviews: true, newMessages: true, sessionReminders: true },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({
      teacherApplication: false,
      classReviews: true,
      newMessages: true,
      sessionReminders: true,
    });

    const applied = await ctx.app.inject({
      method: 'POST',
      url: '/api/teachers/teacher-requests',
      headers: applicant.headers,
      payload: application,
    });
    const id = (applied.json() as { insertedId: string }).insertedId;
    const approved = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/teachers/teacher-requests/${id}/approve`,
      headers: admin.headers,
    });
    expect(approved.statusCode).toBe(200);
    const decisionMails = await ctx.db
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.to, applicant.email), eq(schema.mailOutbox.kind, 'teacher-request-approved')));
    expect(decisionMails).toHaveLength(0);
  });

  it('are for signed-in users only', async () => {
    expect((await ctx.app.inject({ url: '/api/users/me/notifications' })).statusCode).toBe(401);
    const put = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications',
      headers: { origin: ORIGIN },
      payload: { teacherApplication: false, classReviews: false, newMessages: false, sessionReminders: false },
    });
    expect(put.statusCode).toBe(401);
  });
});

describe('deleting my own account', () => {
  function deleteMe(headers: Record<string, string>, payload: unknown) {
    return ctx.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: { ...headers, origin: ORIGIN },
      payload: payload as object,
    });
  }

  it('needs my password, then ends every session and keeps nothing but the financial records', async () => {
    const user = await signUp(ctx);
    const token = await tokenFor(ctx, user);
    expect((await deleteMe(user.headers, {})).statusCode).toBe(400);
    const wrong = await deleteMe(user.headers, { password: 'Wrong!Pass1' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.message).toBe('The password is not right');

    const done = await deleteMe(user.headers, { password: TEST_PASSWORD });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ deletedCount: 1 });
    expect(await session(user.headers)).toBeNull();
    const withToken = await ctx.app.inject({
      url: '/api/users/me/sessions',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withToken.statusCode).toBe(401);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(401);
    const audit = await ctx.db.select().from(schema.auditLog).where(eq(schema.auditLog.targetId, user.id));
    expect(audit.map((entry) => entry.action)).toEqual(['user.delete_self']);
  });

  it('counts wrong passwords toward the sign-in lockout', async () => {
    const user = await signUp(ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await deleteMe(user.headers, { password: `Wrong!Pass${i}` })).statusCode);
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses[5]).toBe(429);
    expect((await deleteMe(user.headers, { password: TEST_PASSWORD })).statusCode).toBe(429);
  });

  it('keeps the last admin', async () => {
    const lone = await createTestApp();
    try {
      const admin = await createUser(lone, 'admin');
      const response = await lone.app.inject({
        method: 'DELETE',
        url: '/api/users/me',
        headers: { ...admin.headers, origin: ORIGIN },
        payload: { password: TEST_PASSWORD },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.message).toBe('The last admin cannot be deleted');
    } finally {
      await lone.close();
    }
  });

  it('is for signed-in users only', async () => {
    expect((await deleteMe({}, { password: TEST_PASSWORD })).statusCode).toBe(401);
  });
});

describe('with a real SMTP server', () => {
  it('delivers the verification and reset mails with links that work', async () => {
    const smtp = await startSmtpServer();
    const mailed = await createTestApp({ SMTP_URL: smtp.url, MAIL_WORKER_INTERVAL_MS: '100' });
    try {
      const user = await signUp(mailed, { verified: false });
      const verification = await smtp.waitForMail(user.email, 'Verify your e-mail address');
      const verifyLink = new URL(verification.text!.match(/http\S+verify-email\S+/)![0]);
      const verified = await mailed.app.inject({ url: verifyLink.pathname + verifyLink.search });
      expect(verified.headers.location).toBe('/email-verified');

      await mailed.app.inject({
        method: 'POST',
        url: '/api/auth/request-password-reset',
        headers: { origin: ORIGIN },
        payload: { email: user.email },
      });
      const reset = await smtp.waitForMail(user.email, 'Reset your password');
      const resetLink = new URL(reset.text!.match(/http\S+reset-password\S+/)![0]);
      const landing = await mailed.app.inject({ url: resetLink.pathname + resetLink.search });
      expect(String(landing.headers.location)).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=/);
    } finally {
      await mailed.close();
      await smtp.close();
    }
  });
});

describe('who may call the account endpoints', () => {
  const endpoints = [
    { method: 'GET', url: '/api/users/me/notifications' },
    {
      method: 'PUT',
      url: '/api/users/me/notifications',
      payload: { teacherApplication: true, classReviews: false, newMessages: true, sessionReminders: true },
    },
    { method: 'GET', url: '/api/users/me/sessions' },
  ] as const;

  it.each(['student', 'teacher', 'admin', 'admin-teacher'] as const)(
    'a %s reads and changes only their own settings and devices',
    async (role) => {
      const me = await createUser(ctx, role);
      const someoneElse = await createUser(ctx, 'student');
      for (const endpoint of endpoints) {
        const response = await ctx.app.inject({
          method: endpoint.method,
          url: endpoint.url,
          headers: { ...me.headers, origin: ORIGIN },
          ...('payload' in endpoint ? { payload: endpoint.payload } : {}),
        });
        expect(response.statusCode, `${endpoint.method} ${endpoint.url}`).toBe(200);
      }
      const theirs = await ctx.app.inject({ url: '/api/users/me/notifications', headers: someoneElse.headers });
      expect(theirs.json()).toEqual({
        teacherApplication: true,
        classReviews: true,
        newMessages: true,
        sessionReminders: true,
      });
      const mySessions = (await ctx.app.inject({ url: '/api/users/me/sessions', headers: me.headers })).json() as {
        id: string;
      }[];
      const theirSessions = (
        await ctx.app.inject({ url: '/api/users/me/sessions', headers: someoneElse.headers })
      ).json() as { id: string }[];
      expect(mySessions.some((s) => theirSessions.some((t) => t.id === s.id))).toBe(false);
    },
  );

  it.each(endpoints)('anonymous $method $url is 401', async (endpoint) => {
    const response = await ctx.app.inject({
      method: endpoint.method,
      url: endpoint.url,
      headers: { origin: ORIGIN },
      ...('payload' in endpoint ? { payload: endpoint.payload } : {}),
    });
    expect(response.statusCode).toBe(401);
  });

  it('a forged token is anonymous', async () => {
    const response = await ctx.app.inject({
      url: '/api/users/me/sessions',
      headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.forged' },
    });
    expect(response.statusCode).toBe(401);
  });
});
