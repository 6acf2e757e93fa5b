import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticWebPlugin } from '../src/plugins/static-web.ts';
import { createClass } from './commerce-fixtures.ts';
import { createTestApp, createUser, type TestContext } from './harness.ts';

/** The built web app as the server serves it: a small stand-in build with the same layout. */
const webRoot = mkdtempSync(path.join(tmpdir(), 'skillhive-web-'));
mkdirSync(path.join(webRoot, 'assets'));
writeFileSync(
  path.join(webRoot, 'index.html'),
  '<!doctype html><html><head><title>SkillHive</title><meta name="description" content="Generic"></head><body><div id="root"></div></body></html>',
);
writeFileSync(
  path.join(webRoot, 'route-preloads.json'),
  JSON.stringify({
    '/': {
      modules: ['/assets/home-Ab12.js'],
      data: ['/api/reviews?page=1&limit=10'],
      images: ['/images/slides/first.svg'],
    },
    '/allClassAllowed': {
      modules: ['/assets/all-classes-Cd34.js', '/assets/money-Ef56.js'],
      data: ['/api/classes?sort=newest&page=1&limit=12'],
    },
    '/login': { modules: ['/assets/login-Gh78.js'], data: [] },
    '/classes/:id': { modules: ['/assets/class-page-Ij90.js'], data: ['/api/classes/:id/public'] },
  }),
);
writeFileSync(path.join(webRoot, 'assets', 'index-C0ffee12.js'), 'console.log("app");'.repeat(100));
writeFileSync(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { webRoot });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe('static web app', () => {
  it('caches hashed assets for a year as immutable', async () => {
    const res = await ctx.app.inject('/assets/index-C0ffee12.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates index.html and other files', async () => {
    const res = await ctx.app.inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>SkillHive</title>');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect((await ctx.app.inject('/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });

  it('answers client routes with index.html (SPA fallback) but unknown API paths with JSON 404', async () => {
    const page = await ctx.app.inject('/dashboard/myEnrollClass');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    const api = await ctx.app.inject('/api/unknown');
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('not_found');
    const missingAsset = await ctx.app.inject('/assets/missing-123.js');
    expect(missingAsset.statusCode).toBe(404);
  });

  it('answers any page path with index.html, HEAD included, and nothing else (plugins/static-web.ts)', async () => {
    for (const url of ['/no/such/page', '/no/such/page/', '/dashboard?tab=2']) {
      const page = await ctx.app.inject(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<div id="root"></div>');
    }
    const head = await ctx.app.inject({ method: 'HEAD', url: '/no/such/page' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    // The API, its root, unknown files and other methods get the JSON 404 of the error handler.
    for (const [method, url] of [
      ['GET', '/api/unknown'],
      ['GET', '/api'],
      ['GET', '/api/classes/1/2/3'],
      ['GET', '/robots.txt'],
      ['DELETE', '/no/such/page'],
    ] as const) {
      const res = await ctx.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json().error).toEqual({ code: 'not_found', message: `No route for ${method} ${url}` });
    }
  });

  it('without a built web app, a page path is a JSON 404 too', async () => {
    const app = await createTestApp({}, { webRoot: path.join(webRoot, 'not-built') });
    try {
      const res = await app.app.inject('/dashboard');
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    } finally {
      await app.close();
    }
  });

  it("names a public route's own chunks as modulepreload links in its index.html", async () => {
    const preloads = async (url: string) => {
      const res = await ctx.app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      return [...res.body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    };
    expect(await preloads('/')).toEqual(['/assets/home-Ab12.js']);
    expect(await preloads('/?utm=x')).toEqual(['/assets/home-Ab12.js']);
    const catalogue = ['/assets/all-classes-Cd34.js', '/assets/money-Ef56.js'];
    expect(await preloads('/allClassAllowed?page=2&category=seo')).toEqual(catalogue);
    expect(await preloads('/allClassAllowed/')).toEqual(catalogue);
    expect(await preloads('/dashboard/profile')).toEqual([]);
    expect(await preloads('/allClassAllowedX')).toEqual([]);
    const home = await ctx.app.inject('/');
    expect(home.body).toMatch(/<link rel="modulepreload"[^>]+>\s*(<link rel="preload"[^>]+>\s*){2}<\/head>/);
  });

  it("names a public route's largest first image as an image preload, with or without a query string", async () => {
    const imagePreloads = async (url: string) =>
      [
        ...(await ctx.app.inject(url)).body.matchAll(
          /<link rel="preload" as="image" fetchpriority="high" href="([^"]+)">/g,
        ),
      ].map((m) => m[1]);
    expect(await imagePreloads('/')).toEqual(['/images/slides/first.svg']);
    expect(await imagePreloads('/?utm=x')).toEqual(['/images/slides/first.svg']);
    expect(await imagePreloads('/allClassAllowed')).toEqual([]);
    expect(await imagePreloads('/dashboard/profile')).toEqual([]);
  });

  it("names a public route's first-render data as fetch preloads, only when it is visited without a query string", async () => {
    const dataPreloads = async (url: string) => {
      const res = await ctx.app.inject(url);
      expect(res.statusCode).toBe(200);
      return [...res.body.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    };
    // & is escaped in the attribute, as HTML wants.
    expect(await dataPreloads('/')).toEqual(['/api/reviews?page=1&amp;limit=10']);
    expect(await dataPreloads('/allClassAllowed')).toEqual(['/api/classes?sort=newest&amp;page=1&amp;limit=12']);
    expect(await dataPreloads('/allClassAllowed/')).toEqual(['/api/classes?sort=newest&amp;page=1&amp;limit=12']);
    // Another catalogue state asks for other data: its page-1 answer would be fetched for nothing.
    expect(await dataPreloads('/allClassAllowed?page=2')).toEqual([]);
    expect(await dataPreloads('/?utm=x')).toEqual([]);
    expect(await dataPreloads('/login')).toEqual([]);
    expect(await dataPreloads('/dashboard/profile')).toEqual([]);
    expect((await ctx.app.inject('/allClassAllowed?page=2')).body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/money-Ef56.js">',
    );
  });

  it('serves index.html as built when the route list is unreadable', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'skillhive-web-'));
    const built = '<!doctype html><html><head></head><body></body></html>';
    writeFileSync(path.join(root, 'index.html'), built);
    /**
     * The home page the plugin answers when it starts with this route list: the plugin alone on a
     * Fastify of its own (the list is read at start-up; a whole app and its database per list made
     * this test slow enough to time out on a loaded machine).
     */
    const homeWith = async (routePreloads: string) => {
      writeFileSync(path.join(root, 'route-preloads.json'), routePreloads);
      const app = Fastify({ logger: false });
      try {
        await app.register(staticWebPlugin, { root, publicUrl: 'http://localhost:3000' });
        const res = await app.inject('/');
        expect(res.statusCode).toBe(200);
        return res.body;
      } finally {
        await app.close();
      }
    };
    try {
      expect(await homeWith('{"/": {"modules": ["https://elsewhere.example/x.js"], "data": []}}')).toBe(built);
      expect(await homeWith('{ not json')).toBe(built);
      // A data URL that could close the attribute makes the list unreadable too.
      expect(await homeWith(JSON.stringify({ '/': { modules: [], data: ['/api/reviews?x="><script>'] } }))).toBe(built);
      // An image from elsewhere, or one that could close the attribute, makes it unreadable too.
      expect(
        await homeWith(JSON.stringify({ '/': { modules: [], data: [], images: ['//elsewhere.example/a.svg'] } })),
      ).toBe(built);
      expect(await homeWith(JSON.stringify({ '/': { modules: [], data: [], images: ['/images/a".svg'] } }))).toBe(
        built,
      );
      // The list of the previous release (route → chunks) is not read as this one.
      expect(await homeWith('{"/": ["/assets/home-Ab12.js"]}')).toBe(built);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('compresses large responses', async () => {
    const res = await ctx.app.inject({ url: '/assets/index-C0ffee12.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
  });
});

describe('the public class page', () => {
  it('names the class in the title, description and Open Graph tags, escaped, and preloads its data', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const title = '<script>alert("x")</script> & "Watercolour" \'basics\'';
    const cls = await createClass(ctx, teacher, { title });
    const res = await ctx.app.inject(`/classes/${cls.id}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Watercolour&quot; &#39;basics&#39;';
    expect(html).toContain(`<title>${escaped} — SkillHive</title>`);
    expect(html).toContain(`<meta property="og:title" content="${escaped} — SkillHive">`);
    expect(html).toContain(`<meta name="description" content="Description of ${escaped}">`);
    expect(html).not.toContain('content="Generic"');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain(`<meta property="og:url" content="http://localhost:3000/classes/${cls.id}">`);
    expect(html).toMatch(/<meta property="og:image" content="http:\/\/localhost:3000\/[^"]+\.webp">/);
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/class-page-Ij90.js">');
    expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="/api/classes/${cls.id}/public">`);
  });

  it('keeps the generic tags for a class that is not public or does not exist, and preloads nothing odd', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const pending = await createClass(ctx, teacher, { title: 'Secret draft', status: 'pending' });
    for (const id of [pending.id, '00000000-0000-4000-8000-000000000000']) {
      const html = (await ctx.app.inject(`/classes/${id}`)).body;
      expect(html).toContain('<title>SkillHive</title>');
      expect(html).not.toContain('Secret draft');
    }
    const odd = await ctx.app.inject(`/classes/${encodeURIComponent('"><img src=x>')}`);
    expect(odd.statusCode).toBe(200);
    expect(odd.body).not.toContain('<img');
    expect(odd.body).not.toContain('rel="preload" as="fetch"');
  });
});
