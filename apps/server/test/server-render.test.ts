import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { formatPrice } from '@skillhive/shared/rules/money';
import { DEFAULT_WEB_ROOT } from '../src/app.ts';
import { escapeHtml } from '../src/plugins/static-web.ts';
import { FAST_SIGNUP_ENV, buy, createCaller, createClass, type Caller, type TestClass } from './commerce-fixtures.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';

/*
 * Decision 030: the public pages as the server answers them carry their content, rendered by the
 * web build's server entry (apps/web/dist-ssr, built with the web app by `npm install`).
 */

if (!existsSync(new URL('../../web/dist-ssr/entry-server.js', import.meta.url)) || !existsSync(DEFAULT_WEB_ROOT))
  throw new Error('build the web app first (npm run build): these tests render its pages');

let ctx: TestContext;
let teacher: Caller & { name: string };
let reviewer: Caller & { name: string };
const searched: TestClass[] = [];
let reviewed: TestClass;
/** A word only this suite's classes carry, so the search finds exactly them. */
const PREFIX = `Quokka${Date.now().toString(36)}`;

beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
  teacher = await createCaller(ctx, 'teacher', { name: 'Grace Renderer' });
  reviewer = await createCaller(ctx, 'student', { name: 'Ada Visitor' });
  // Fourteen matches: the search's second page (12 a page) holds two of them.
  for (let i = 0; i < 14; i += 1)
    searched.push(await createClass(ctx, teacher, { title: `${PREFIX} lesson ${i + 1}`, priceCents: 1000 + i * 111 }));
  reviewed = await createClass(ctx, teacher, { title: 'Server-rendered pottery', priceCents: 4550 });
  await buy(ctx, reviewer, [reviewed.id]);
  const review = await ctx.app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: reviewer.headers,
    payload: { classId: reviewed.id, rating: 4, details: 'Wheel-throwing made simple.' },
  });
  expect(review.statusCode).toBe(201);
});
afterAll(async () => {
  await ctx?.close();
});

/** The markup inside #root, where the page is rendered (not the head's meta tags). */
function rootOf(html: string): string {
  const start = html.indexOf('<div id="root">');
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</body>'));
}

describe('public pages rendered on the server', () => {
  it('/allClassAllowed?q=<prefix>&page=2 carries the second page of the search: titles, prices, teachers', async () => {
    const api = await ctx.app.inject(`/api/classes?q=${PREFIX}&page=2&limit=12`);
    const secondPage = api.json() as { title: string; price: number; name: string }[];
    expect(secondPage).toHaveLength(2);
    const firstPage = (await ctx.app.inject(`/api/classes?q=${PREFIX}&page=1&limit=12`)).json() as { title: string }[];

    const res = await ctx.app.inject(`/allClassAllowed?q=${PREFIX}&page=2`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const page = rootOf(res.body);
    for (const item of secondPage) {
      expect(page).toContain(escapeHtml(item.title));
      expect(page).toContain(escapeHtml(formatPrice(item.price)));
      expect(page).toContain('Grace Renderer');
    }
    // The second page, not the first.
    for (const item of firstPage) expect(page).not.toContain(`${escapeHtml(item.title)}<`);
    // Its links to the pages around it work without JavaScript.
    expect(page).toMatch(new RegExp(`href="/allClassAllowed\\?[^"]*page=1|href="/allClassAllowed\\?q=${PREFIX}"`));
  });

  it('/classes/<id> carries the class: title, description, price, teacher, rating and its review', async () => {
    const res = await ctx.app.inject(`/classes/${reviewed.id}`);
    expect(res.statusCode).toBe(200);
    const page = rootOf(res.body);
    expect(page).toContain('Server-rendered pottery');
    expect(page).toContain(escapeHtml('Description of Server-rendered pottery'));
    expect(page).toContain(escapeHtml(formatPrice(45.5)));
    expect(page).toContain('Grace Renderer');
    expect(page).toMatch(/4\.0(<!-- -->)? \(<!-- -->1 review/);
    expect(page).toContain('Wheel-throwing made simple.');
    expect(res.body).toContain('<title>Server-rendered pottery — SkillHive</title>');
  });

  it('/ carries the latest reviews: who wrote them, on which class, and what they said', async () => {
    const res = await ctx.app.inject('/');
    expect(res.statusCode).toBe(200);
    const page = rootOf(res.body);
    expect(page).toContain('Ada Visitor');
    expect(page).toContain('Server-rendered pottery');
    expect(page).toContain('Wheel-throwing made simple.');
  });

  it('hands the browser the data it rendered with, and no data preloads or no-JavaScript note', async () => {
    const res = await ctx.app.inject(`/classes/${reviewed.id}`);
    const state = /<script type="application\/json" id="skillhive-state">([^<]*)<\/script>/.exec(res.body);
    expect(state).not.toBeNull();
    const parsed = JSON.parse(state![1]!) as {
      queries: { queries: { queryKey: unknown[]; state: { data: unknown } }[] };
    };
    const keys = parsed.queries.queries.map((query) => JSON.stringify(query.queryKey));
    expect(keys).toContain(JSON.stringify(['session']));
    expect(keys.some((key) => key.includes(reviewed.id))).toBe(true);
    expect(res.body).not.toContain('rel="preload" as="fetch"');
    expect(res.body).not.toContain('<noscript>');
  });

  it('leaves the dashboard to the browser: its shell, with the session preloaded', async () => {
    const res = await ctx.app.inject('/dashboard/myEnrollClass');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain('skillhive-state');
    expect(res.body).toContain('<link rel="preload" as="fetch" crossorigin href="/api/auth/get-session">');
  });
});

describe('rendered pages shared with anonymous visitors, never with signed-in ones', () => {
  let shared: TestContext;
  // Not 0: lru-cache takes a start time of 0 for "never stored".
  let clock = 1_000;
  let item: TestClass;
  let student: TestUser;
  const TTL_SECONDS = 30;

  beforeAll(async () => {
    shared = await createTestApp(
      { ...FAST_SIGNUP_ENV, CATALOGUE_CACHE_TTL_SECONDS: String(TTL_SECONDS) },
      { monotonicNow: () => clock },
    );
    const owner = await createCaller(shared, 'teacher', { name: 'Cached Teacher' });
    item = await createClass(shared, owner, { title: 'Shared title one' });
    student = await createUser(shared, 'student', { name: 'Signed Student' });
  });
  afterAll(async () => {
    await shared?.close();
  });

  const retitle = (title: string) =>
    shared.db.update(schema.classes).set({ title }).where(eq(schema.classes.id, item.id));

  it('an anonymous page is rendered once per TTL, like the catalogue JSON; a signed-in visitor gets their own', async () => {
    const first = await shared.app.inject(`/classes/${item.id}`);
    expect(rootOf(first.body)).toContain('Shared title one');
    await retitle('Shared title two');
    clock += (TTL_SECONDS - 1) * 1000;
    // Within the TTL every anonymous visitor gets the same bytes — and so does the JSON.
    const again = await shared.app.inject(`/classes/${item.id}`);
    expect(again.body).toBe(first.body);
    expect((await shared.app.inject(`/api/classes/${item.id}/public`)).json()).toMatchObject({
      title: 'Shared title one',
    });
    // A signed-in visitor's page is rendered for them (its data is the shared JSON's).
    const signedIn = await shared.app.inject({ url: `/classes/${item.id}`, headers: student.headers });
    expect(signedIn.body).not.toBe(first.body);
    expect(rootOf(signedIn.body)).toContain('Account menu for Signed Student');
    clock += 2000;
    const expired = await shared.app.inject(`/classes/${item.id}`);
    expect(rootOf(expired.body)).toContain('Shared title two');
  });

  it("a signed-in visitor's navbar is right in the first HTML, and never reaches anyone else", async () => {
    const signedIn = await shared.app.inject({ url: '/allClassAllowed', headers: student.headers });
    const page = rootOf(signedIn.body);
    expect(page).toContain('aria-label="Account menu for Signed Student"');
    expect(page).not.toContain('>Sign In</a>');
    const anonymous = await shared.app.inject('/allClassAllowed');
    expect(rootOf(anonymous.body)).toContain('>Sign In</a>');
    expect(anonymous.body).not.toContain('Signed Student');
    expect(anonymous.body).not.toContain(student.email);
  });

  it('a cookie that names no session gets the shared page: a forged cookie cannot force renders', async () => {
    const other = await createClass(shared, await createCaller(shared, 'teacher'), { title: 'Forged one' });
    const forged = { cookie: 'better-auth.session_token=forged.value' };
    const first = await shared.app.inject({ url: `/classes/${other.id}`, headers: forged });
    expect(rootOf(first.body)).toContain('Forged one');
    await shared.db.update(schema.classes).set({ title: 'Forged two' }).where(eq(schema.classes.id, other.id));
    // Within the TTL: the bytes every anonymous visitor shares, not a render of its own.
    const anonymous = await shared.app.inject(`/classes/${other.id}`);
    expect(anonymous.body).toBe(first.body);
    const again = await shared.app.inject({ url: `/classes/${other.id}`, headers: forged });
    expect(again.body).toBe(first.body);
  });

  it("a signed-in visitor's page renews their session cookie as the browser's own session read did", async () => {
    const visitor = await createUser(shared, 'student', { name: 'Returning Student' });
    // Signed in two days ago: the session is past better-auth's update age (a day).
    await shared.db
      .update(schema.sessions)
      .set({ expiresAt: new Date(Date.now() + 5 * 24 * 3600 * 1000) })
      .where(eq(schema.sessions.userId, visitor.id));
    const res = await shared.app.inject({ url: '/allClassAllowed', headers: visitor.headers });
    expect(rootOf(res.body)).toContain('Account menu for Returning Student');
    const cookies = [res.headers['set-cookie'] ?? []].flat();
    expect(cookies.some((cookie) => /session_token=/.test(cookie) && /Max-Age=604800/i.test(cookie))).toBe(true);
  });

  it('compresses a shared page once and answers each encoding asked for', async () => {
    const br = await shared.app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    const plain = await shared.app.inject('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<div id="root"><div');
  });
});

/** The page without its code template: what the browser fetches and runs as it parses. */
const TEMPLATE = /<template id="skillhive-code">([\s\S]*?)<\/template>/;
const scriptSrcOf = (csp: unknown) => (/script-src ([^;]*)/.exec(String(csp))?.[1] ?? '').split(' ');
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('the CSP over server-rendered pages (decisions 030 and 049)', () => {
  it('runs one inline script, allowed by its hash; every other script is our own file or a JSON data block', async () => {
    const hostile = await createClass(ctx, teacher, {
      title: 'Break out </script><script>alert(1)</script><!--',
    });
    const res = await ctx.app.inject(`/classes/${hostile.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.body.replace(TEMPLATE, '');
    const scripts = [...body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({
      attributes: m[1]!.trim(),
      text: m[2]!,
    }));
    // The loader (decision 049) and the data block; the app's files are named only in the template.
    expect(scripts.map((script) => script.attributes)).toEqual([
      'type="module"',
      'type="application/json" id="skillhive-state"',
    ]);
    // The CSP allows that one inline script and no other: its hash, no 'unsafe-inline' or nonce.
    expect(scriptSrcOf(res.headers['content-security-policy'])).toEqual(["'self'", sha256(scripts[0]!.text)]);
    const own = [...TEMPLATE.exec(res.body)![1]!.matchAll(/<script\b([^>]*)><\/script>/g)].map((m) => m[1]!.trim());
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(/^type="module" crossorigin src="\/assets\/[\w.-]+\.js"$/);
    // The title cannot end the data block: its JSON escapes every "<".
    const state = /<script type="application\/json" id="skillhive-state">([\s\S]*?)<\/script>/.exec(res.body)![1]!;
    expect(state).not.toContain('<');
    expect(JSON.stringify(JSON.parse(state))).toContain('Break out </script><script>alert(1)</script><!--');
    expect(rootOf(res.body)).toContain('Break out &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--');
  });

  it('a page the browser renders (the dashboard) keeps its scripts in the head and the CSP without the hash', async () => {
    const res = await ctx.app.inject('/dashboard/myEnrollClass');
    expect(res.body).not.toMatch(TEMPLATE);
    expect(res.body).toMatch(/<script type="module" crossorigin src="\/assets\/[\w.-]+\.js"><\/script>/);
    expect(res.body).not.toMatch(/<script type="module">/);
    expect(scriptSrcOf(res.headers['content-security-policy'])).toEqual(["'self'"]);
  });
});

describe('code after the first paint (decision 049)', () => {
  const built = JSON.parse(readFileSync(path.join(DEFAULT_WEB_ROOT, 'route-preloads.json'), 'utf8')) as Record<
    string,
    { modules: string[]; images: string[] }
  >;
  const index = readFileSync(path.join(DEFAULT_WEB_ROOT, 'index.html'), 'utf8');
  const named = (html: string) =>
    [
      ...html.matchAll(
        /<(?:script type="module" crossorigin src|link rel="modulepreload" crossorigin href)="([^"]+)"/g,
      ),
    ].map((m) => m[1]!);

  it('names the same code as before, all of it inside the template: nothing is fetched or run before the paint', async () => {
    for (const [url, route] of [
      ['/', '/'],
      ['/allClassAllowed?q=pottery', '/allClassAllowed'],
      [`/classes/${reviewed.id}`, '/classes/:id'],
      ['/login', '/login'],
    ] as const) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      const template = TEMPLATE.exec(res.body);
      expect(template, url).not.toBeNull();
      // The shell's entry and chunks (index.html) and the route's own, each once.
      const expected = [...named(index), ...built[route]!.modules];
      expect(named(template![1]!).sort(), url).toEqual([...new Set(expected)].sort());
      expect(named(res.body.replace(TEMPLATE, '')), url).toEqual([]);
      // What the first paint needs stays in the head: the stylesheet, and the largest image's preload.
      expect(res.body, url).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[\w.-]+\.css">/);
      for (const image of built[route]!.images)
        expect(res.body, url).toContain(`<link rel="preload" as="image" fetchpriority="high" href="${image}">`);
    }
  });
});
