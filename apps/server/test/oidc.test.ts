import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { createTestApp, signUp, verifyEmail, type TestContext } from './harness.ts';

/**
 * Third-party sign-in end to end (spec §1, DESIGN §2): a real OpenID Connect provider (oidc-provider) on
 * loopback, the app listening on a real loopback port, and every hop made over HTTP — the
 * authorization request, the provider's login and consent, the callback, the code exchange with
 * PKCE, the ID token check and the user-info call.
 */

const PERSON = {
  sub: 'oidc-subject-42',
  email: 'Ada.Lovelace@Example.test',
  name: 'Ada Lovelace',
  picture: 'https://idp.example.test/pictures/ada.png',
};
/** Someone whose address another person registered first, with a password of their own. */
const VICTIM = {
  sub: 'oidc-subject-7',
  email: 'victim@example.test',
  name: 'Vic Tim',
  picture: 'https://idp.example.test/pictures/vic.png',
};
const PEOPLE = [PERSON, VICTIM];
/** Who logs in at the provider next (its login page, played by `interact`). */
let loggingIn = PERSON;
const CLIENT_ID = 'skillhive-test';
const CLIENT_SECRET = 'skillhive-test-client-secret';

/** A cookie jar per origin, as a browser keeps one. */
class CookieJar {
  readonly #byOrigin = new Map<string, Map<string, string>>();

  store(url: string, response: Response) {
    const origin = new URL(url).origin;
    const jar = this.#byOrigin.get(origin) ?? new Map<string, string>();
    this.#byOrigin.set(origin, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
  }

  header(url: string): string {
    const jar = this.#byOrigin.get(new URL(url).origin);
    return jar ? [...jar].map(([n, v]) => `${n}=${v}`).join('; ') : '';
  }
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Logs the test person in and grants what the client asked for, without a page: the provider's
 * own interaction API (interactionDetails / interactionFinished), as a login page would use it.
 */
async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: loggingIn.sub } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (details.prompt.name === 'consent') {
    const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const grant =
      existing ?? new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
    if (details.prompt.details.missingOIDCScope) grant.addOIDCScope(details.prompt.details.missingOIDCScope.join(' '));
    if (details.prompt.details.missingOIDCClaims) grant.addOIDCClaims(details.prompt.details.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }
  res.statusCode = 501;
  res.end(`unexpected prompt ${details.prompt.name}`);
}

/** The provider's storage: in memory, per test run (its own default warns that it is not for production). */
class MemoryAdapter {
  static readonly store = new Map<
    string,
    { payload: Record<string, unknown> & { uid?: string; grantId?: string; userCode?: string; consumed?: number } }
  >();
  readonly #model: string;
  constructor(model: string) {
    this.#model = model;
  }
  #key(id: string) {
    return `${this.#model}:${id}`;
  }
  async upsert(id: string, payload: Record<string, unknown>) {
    MemoryAdapter.store.set(this.#key(id), { payload });
  }
  async find(id: string) {
    return MemoryAdapter.store.get(this.#key(id))?.payload;
  }
  async findByUid(uid: string) {
    for (const [key, value] of MemoryAdapter.store)
      if (key.startsWith(`${this.#model}:`) && value.payload.uid === uid) return value.payload;
    return undefined;
  }
  async findByUserCode(userCode: string) {
    for (const [key, value] of MemoryAdapter.store)
      if (key.startsWith(`${this.#model}:`) && value.payload.userCode === userCode) return value.payload;
    return undefined;
  }
  async consume(id: string) {
    const entry = MemoryAdapter.store.get(this.#key(id));
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    MemoryAdapter.store.delete(this.#key(id));
  }
  async revokeByGrantId(grantId: string) {
    for (const [key, value] of MemoryAdapter.store)
      if (value.payload.grantId === grantId) MemoryAdapter.store.delete(key);
  }
}

let idp: Server;
let issuer: string;
let ctx: TestContext;
let appUrl: string;
const tokenRequests: { codeVerifier: boolean }[] = [];

beforeAll(async () => {
  // The provider first: the app discovers it when better-auth starts.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  idp = createServer((req, res) => handle(req, res));
  const idpPort = await listen(idp);
  issuer = `http://127.0.0.1:${idpPort}`;

  const appPort = await freePort();
  appUrl = `http://127.0.0.1:${appPort}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${appUrl}/api/auth/callback/oidc`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' }] },
    adapter: MemoryAdapter,
    cookies: { keys: ['oidc-test-cookie-key'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    features: { devInteractions: { enabled: false } },
    // The provider refuses any authorization request without PKCE.
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const person = PEOPLE.find((p) => p.sub === sub);
      return person
        ? {
            accountId: sub,
            claims: async () => ({
              sub,
              email: person.email,
              email_verified: true,
              name: person.name,
              picture: person.picture,
            }),
          }
        : undefined;
    },
  });
  // Every successful code exchange, and whether the app proved the PKCE verifier in it.
  provider.on('grant.success', (koa) => {
    const params = (koa as { oidc: { params: Record<string, unknown> } }).oidc.params;
    tokenRequests.push({ codeVerifier: typeof params.code_verifier === 'string' && params.code_verifier.length >= 43 });
  });
  const callback = provider.callback();
  handle = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(provider, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    callback(req, res);
  };

  ctx = await createTestApp({
    PUBLIC_URL: appUrl,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_NAME: 'Test IdP',
  });
  await ctx.app.listen({ port: appPort, host: '127.0.0.1' });
});

afterAll(async () => {
  await ctx?.close();
  await new Promise((resolve) => idp?.close(resolve));
});

/** Follows redirects like a browser, keeping cookies, until the browser is sent back to the app. */
async function followToApp(start: string, jar: CookieJar): Promise<string> {
  let url = start;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(`${appUrl}/`)) return url;
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) } });
    jar.store(url, response);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`provider answered ${response.status} at ${url}: ${(await response.text()).slice(0, 300)}`);
    }
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects');
}

async function startSignIn(jar: CookieJar): Promise<URL> {
  const url = `${appUrl}/api/auth/sign-in/social`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appUrl },
    body: JSON.stringify({ provider: 'oidc', callbackURL: `${appUrl}/dashboard` }),
    redirect: 'manual',
  });
  jar.store(url, response);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { url: string; redirect: boolean };
  expect(body.redirect).toBe(true);
  return new URL(body.url);
}

describe('OpenID Connect sign-in against a real provider', () => {
  it('offers the provider by its configured name', async () => {
    const response = await fetch(`${appUrl}/api/config`);
    expect(((await response.json()) as { auth: unknown }).auth).toEqual({ google: false, oidc: { name: 'Test IdP' } });
  });

  it('creates a student with the provider’s name, e-mail and picture, with PKCE and state', async () => {
    const jar = new CookieJar();
    const authorize = await startSignIn(jar);

    // The authorization request: the discovered endpoint, PKCE (S256) and an unguessable state.
    expect(authorize.origin).toBe(issuer);
    const params = authorize.searchParams;
    expect(params.get('client_id')).toBe(CLIENT_ID);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('redirect_uri')).toBe(`${appUrl}/api/auth/callback/oidc`);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')?.length ?? 0).toBeGreaterThanOrEqual(16);
    expect(params.get('nonce')?.length ?? 0).toBeGreaterThanOrEqual(16);
    expect(params.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));

    const callback = new URL(await followToApp(authorize.toString(), jar));
    expect(callback.pathname).toBe('/api/auth/callback/oidc');
    expect(callback.searchParams.get('state')).toBe(params.get('state'));
    expect(callback.searchParams.get('code')).toBeTruthy();

    // A callback whose state was not issued to this browser is refused, and signs nobody in.
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state-value-that-was-never-issued');
    const forgedResponse = await fetch(forged, { redirect: 'manual', headers: { cookie: jar.header(appUrl) } });
    expect(forgedResponse.status).toBe(302);
    expect(forgedResponse.headers.get('location')).toContain('error=');
    expect(
      forgedResponse.headers.getSetCookie().some((c) => c.includes('session_token=') && !c.includes('session_token=;')),
    ).toBe(false);

    // The real callback: the app exchanges the code (with its PKCE verifier) and signs the user in.
    const back = await fetch(callback, { redirect: 'manual', headers: { cookie: jar.header(appUrl) } });
    jar.store(appUrl, back);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`${appUrl}/dashboard`);
    expect(tokenRequests.at(-1)).toEqual({ codeVerifier: true });
    const sessionCookie = back.headers.getSetCookie().find((c) => c.startsWith('better-auth.session_token='));
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);

    const session = await fetch(`${appUrl}/api/auth/get-session`, { headers: { cookie: jar.header(appUrl) } });
    const body = (await session.json()) as { user: { id: string; email: string; name: string; image: string } };
    expect(body.user).toMatchObject({ email: PERSON.email.toLowerCase(), name: PERSON.name, image: PERSON.picture });

    const [stored] = await ctx.db.select().from(schema.users).where(eq(schema.users.id, body.user.id));
    expect(stored).toMatchObject({
      email: PERSON.email.toLowerCase(),
      name: PERSON.name,
      image: PERSON.picture,
      phone: null,
      isAdmin: false,
      isTeacher: false,
    });
    const linked = await ctx.db
      .select()
      .from(schema.accounts)
      .where(and(eq(schema.accounts.userId, body.user.id), eq(schema.accounts.providerId, 'oidc')));
    expect(linked.map((a) => a.accountId)).toEqual([PERSON.sub]);

    // The session works like any other: a token, then the profile as a student.
    const token = await fetch(`${appUrl}/api/jwt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: jar.header(appUrl) },
      body: JSON.stringify({ email: PERSON.email }),
    });
    expect(token.status).toBe(200);
    const { token: bearer } = (await token.json()) as { token: string };
    const profile = await fetch(`${appUrl}/api/users/profile/${encodeURIComponent(PERSON.email.toLowerCase())}`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({
      role: 'student',
      name: PERSON.name,
      image: PERSON.picture,
      phone: null,
    });

    // spec §7: after a third-party sign-in the web app saves the profile; the phone is filled in.
    const saved = await fetch(`${appUrl}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({
        name: 'Someone Else',
        email: 'other@example.test',
        phone: '+44 20 7946 0958',
        role: 'admin',
      }),
    });
    expect(await saved.json()).toEqual({ insertedId: body.user.id });
    const [after] = await ctx.db.select().from(schema.users).where(eq(schema.users.id, body.user.id));
    expect(after).toMatchObject({
      name: PERSON.name,
      email: PERSON.email.toLowerCase(),
      phone: '+44 20 7946 0958',
      isAdmin: false,
    });
  });

  it('refuses to send the browser back to another origin after sign-in (no open redirect)', async () => {
    const response = await fetch(`${appUrl}/api/auth/sign-in/social`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: appUrl },
      body: JSON.stringify({ provider: 'oidc', callbackURL: 'https://evil.example/steal' }),
      redirect: 'manual',
    });
    // The identity gate refuses it before better-auth (the one rule for callbacks, isLocalCallback).
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error).toMatchObject({
      code: 'validation_error',
      fields: { callbackURL: 'The callback must be a path on this site' },
    });
  });

  it('signs the same person in again without creating a second account', async () => {
    const jar = new CookieJar();
    const authorize = await startSignIn(jar);
    const callback = await followToApp(authorize.toString(), jar);
    const back = await fetch(callback, { redirect: 'manual', headers: { cookie: jar.header(appUrl) } });
    jar.store(appUrl, back);
    expect(back.status).toBe(302);
    const session = await fetch(`${appUrl}/api/auth/get-session`, { headers: { cookie: jar.header(appUrl) } });
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(PERSON.email.toLowerCase());
    const rows = await ctx.db.select().from(schema.users).where(eq(schema.users.email, PERSON.email.toLowerCase()));
    expect(rows).toHaveLength(1);
  });

  it('never joins an existing password account whose address is unverified (account pre-hijacking)', async () => {
    // Someone registers the victim's address first, with a password they know.
    const squatter = await signUp(ctx, { email: VICTIM.email, verified: false });
    loggingIn = VICTIM;
    try {
      const jar = new CookieJar();
      const callback = await followToApp((await startSignIn(jar)).toString(), jar);
      const back = await fetch(callback, { redirect: 'manual', headers: { cookie: jar.header(appUrl) } });
      jar.store(appUrl, back);
      expect(back.status).toBe(302);
      const landing = new URL(back.headers.get('location')!);
      expect(landing.origin + landing.pathname).toBe(`${appUrl}/login`);
      expect(landing.searchParams.get('error')).toBe('account_not_linked');
      const session = await fetch(`${appUrl}/api/auth/get-session`, { headers: { cookie: jar.header(appUrl) } });
      expect(await session.json()).toBeNull();
      const linked = await ctx.db
        .select()
        .from(schema.accounts)
        .where(and(eq(schema.accounts.userId, squatter.id), eq(schema.accounts.providerId, 'oidc')));
      expect(linked).toHaveLength(0);

      // Once the address is proven (its owner follows the verification link), the provider joins it.
      await verifyEmail(ctx, VICTIM.email);
      const again = new CookieJar();
      const callback2 = await followToApp((await startSignIn(again)).toString(), again);
      const back2 = await fetch(callback2, { redirect: 'manual', headers: { cookie: again.header(appUrl) } });
      again.store(appUrl, back2);
      expect(back2.headers.get('location')).toBe(`${appUrl}/dashboard`);
      const session2 = await fetch(`${appUrl}/api/auth/get-session`, { headers: { cookie: again.header(appUrl) } });
      expect(((await session2.json()) as { user: { id: string } }).user.id).toBe(squatter.id);
    } finally {
      loggingIn = PERSON;
    }
  });
});
