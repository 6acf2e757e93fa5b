import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/arrange.ts';
import { expectReady } from '../fixtures/dashboard.ts';
import { ROLE_STATE, roleAccounts } from '../fixtures/roles.ts';
import { PUBLIC_PAGES } from '../../apps/web/src/app/routes.manifest.ts';

/** Every public route, from the web app's route manifest (the build's first-load report reads it too). */
const PUBLIC_ROUTES = PUBLIC_PAGES.map((page) => page.path);

/**
 * A class no test changes: the role teacher's accepted class (fixtures/roles.ts). The newest class
 * of the catalogue would do, but other tests add and delete classes while these run.
 */
const stableClass = () => {
  const { id, title } = roleAccounts().teacher.acceptedClass;
  return { id, title };
};

/** The scripts the build loads only after the first paint or on use (route-preloads.json). */
async function deferredScripts(request: APIRequestContext, path: string): Promise<string[]> {
  const built = (await (await request.get('/route-preloads.json')).json()) as Record<string, { deferred: string[] }>;
  return built[path]?.deferred ?? [];
}

test.describe('routing', () => {
  test('an unknown route shows a not-found page with a way home', async ({ page }) => {
    await page.goto('/this/does/not/exist');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL('/');
  });

  test('the manifest lists the spec routes among the public pages', () => {
    expect(PUBLIC_ROUTES).toEqual(expect.arrayContaining(['/', '/signup', '/login', '/teach', '/allClassAllowed']));
  });

  for (const manifestPage of PUBLIC_PAGES) {
    test(`${manifestPage.path} is titled as the manifest says`, async ({ page }) => {
      // A page of one class (/classes/:id) is titled with that class's title.
      const item = stableClass();
      const { path, title } = manifestPage.path.includes(':id')
        ? { path: manifestPage.path.replace(':id', item.id), title: `${item.title} — SkillHive` }
        : manifestPage;
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    });
  }

  // The router's first load (decision 024): each public page renders complete, without a script
  // error or an error logged on the console.
  for (const manifestPage of PUBLIC_PAGES) {
    test(`${manifestPage.path} renders with no error on the console`, async ({ page }) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(manifestPage.path.replace(':id', stableClass().id));
      await expectReady(page);
      expect(errors).toEqual([]);
    });
  }

  // Decision 030: each public page arrives rendered, and the browser takes over that same markup
  // (hydration): no second render, no hydration warning, nothing on the console.
  for (const manifestPage of PUBLIC_PAGES) {
    test(`${manifestPage.path} arrives rendered and hydrates without a second render or a warning`, async ({
      page,
      request,
    }) => {
      const path = manifestPage.path.replace(':id', stableClass().id);
      const html = await (await request.get(path)).text();
      expect(html).toMatch(/<div id="root"><div[^>]*>[\s\S]*<h1[\s>]/);
      const messages: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') messages.push(message.text());
      });
      page.on('pageerror', (error) => messages.push(error.message));
      // The server's nodes, noted before any script of the page runs.
      await page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const marked = window as unknown as { serverNodes?: Element[] };
          marked.serverNodes = [...document.querySelectorAll('#root > div, #root main > *, #root h1')];
        });
      });
      await page.goto(path);
      await expectReady(page);
      // Hydrated: React has taken the page over (a link navigates without a document request).
      await expect
        .poll(() =>
          page.evaluate(() => Object.keys(document.getElementById('root')!).some((k) => k.startsWith('__react'))),
        )
        .toBe(true);
      const kept = await page.evaluate(() => {
        const nodes = (window as unknown as { serverNodes?: Element[] }).serverNodes ?? [];
        return { count: nodes.length, connected: nodes.filter((node) => node.isConnected).length };
      });
      expect(kept.count).toBeGreaterThan(2);
      expect(kept.connected).toBe(kept.count);
      expect(messages).toEqual([]);
    });
  }

  // DESIGN §6 (decision 005): every public route's first load stays within 150 KB of gzip, and
  // none of it is dashboard code.
  for (const path of PUBLIC_ROUTES) {
    test(`${path} loads at most 150 KB of JavaScript (gzip) and no dashboard code`, async ({ page, request }) => {
      // The first load is what the page runs before it is drawn (apps/web/first-load-report.ts): the
      // scripts the build defers until after the first paint or a use are not part of it.
      const deferred = await deferredScripts(request, path);
      // The budget is stated for gzip; ask for gzip rather than Brotli.
      await page.setExtraHTTPHeaders({ 'Accept-Encoding': 'gzip' });
      const scripts: string[] = [];
      const sizes: Promise<number>[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'script') return;
        const script = new URL(response.url()).pathname;
        scripts.push(script);
        if (deferred.includes(script)) return;
        sizes.push(
          response
            .request()
            .sizes()
            .then((s) => s.responseBodySize),
        );
      });
      await page.goto(path);
      await expectReady(page);
      const bytes = (await Promise.all(sizes)).reduce((sum, n) => sum + n, 0);
      expect(sizes.length).toBeGreaterThan(0);
      expect(bytes / 1024).toBeLessThanOrEqual(150);
      // Neither what it loaded nor what it may load later is dashboard code.
      expect([...scripts, ...deferred].filter((s) => /dashboard|recharts/i.test(s))).toEqual([]);
    });
  }

  // The server names each public route's chunks in its index.html (modulepreload), so no script of
  // the first load waits for the shell to run and ask for it. The only other scripts a page may
  // load are those its own code imports later, after the first paint or on use (the build lists
  // them as `deferred`: the home page's Embla), and nothing of those may be in the first load.
  for (const path of PUBLIC_ROUTES) {
    test(`${path} is served with every script of its first load named in the HTML`, async ({ page, request }) => {
      const html = await (await request.get(path)).text();
      const named = [
        ...html.matchAll(
          /<(?:script type="module" crossorigin src|link rel="modulepreload" crossorigin href)="([^"]+)"/g,
        ),
      ].map((m) => m[1]);
      const deferred = await deferredScripts(request, path);
      expect(deferred.filter((script) => named.includes(script))).toEqual([]);
      const loaded: string[] = [];
      page.on('request', (req) => {
        if (req.resourceType() === 'script') loaded.push(new URL(req.url()).pathname);
      });
      await page.goto(path);
      await expectReady(page);
      expect(loaded.length).toBeGreaterThan(1);
      expect(loaded.filter((script) => !named.includes(script) && !deferred.includes(script))).toEqual([]);
    });
  }

  // Decision 008: a page the browser renders waits for its data, so its HTML preloads that data —
  // and the request the page then makes must be the one the preload answers, not a second download.
  const firstRenderData: Record<string, string[]> = {
    '/dashboard': ['/api/auth/get-session'],
  };
  for (const [path, data] of Object.entries(firstRenderData)) {
    test(`${path} preloads the data its first render waits for, and uses the preloads`, async ({ page, request }) => {
      const html = await (await request.get(path)).text();
      const preloaded = [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) =>
        m[1]!.replaceAll('&amp;', '&'),
      );
      expect(preloaded.sort()).toEqual([...data].sort());
      const requested: string[] = [];
      page.on('request', (req) => {
        const url = new URL(req.url());
        if (url.pathname.startsWith('/api/') && req.resourceType() !== 'image')
          requested.push(url.pathname + url.search);
      });
      await page.goto(path);
      await expectReady(page);
      for (const url of preloaded)
        expect(
          requested.filter((r) => r === url),
          url,
        ).toHaveLength(1);
    });
  }

  // Decision 030: a public page is rendered on the server with the data its first render waits
  // for, and hands that data to the browser in the page: nothing to preload, nothing to ask again.
  const renderedData: Record<string, string[]> = {
    '/': ['/api/auth/get-session', '/api/reviews?page=1&limit=10'],
    '/allClassAllowed': ['/api/auth/get-session', '/api/classes?sort=newest&page=1&limit=12'],
    '/allClassAllowed?page=2': ['/api/auth/get-session', '/api/classes?sort=newest&page=2&limit=12'],
    '/login': ['/api/auth/get-session'],
  };
  for (const [path, data] of Object.entries(renderedData)) {
    test(`${path} carries the data its first render needs, and asks for none of it`, async ({ page, request }) => {
      const html = await (await request.get(path)).text();
      expect(html).not.toContain('<link rel="preload" as="fetch"');
      expect(html).toContain('<script type="application/json" id="skillhive-state">');
      const requested: string[] = [];
      page.on('request', (req) => {
        const url = new URL(req.url());
        if (url.pathname.startsWith('/api/')) requested.push(url.pathname + url.search);
      });
      await page.goto(path);
      await expectReady(page);
      expect(requested.filter((r) => data.includes(r))).toEqual([]);
    });
  }

  test("a class's page carries that class's public data, and asks for none of it", async ({ page, request }) => {
    const item = stableClass();
    const path = `/classes/${item.id}`;
    const html = await (await request.get(path)).text();
    expect(html).not.toContain('<link rel="preload" as="fetch"');
    expect(html).toContain(`>${item.title}</h1>`);
    const requested: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/')) requested.push(url.pathname + url.search);
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
    await expectReady(page);
    expect(requested.filter((r) => r === `/api/classes/${item.id}/public` || r === '/api/auth/get-session')).toEqual(
      [],
    );
  });
});

// Decision 030: a signed-in visitor's page is rendered for them, with their account menu in the
// first HTML, and the browser takes it over as it is.
test.describe('signed in, on a public page', () => {
  test.use({ storageState: ROLE_STATE.student });
  for (const pattern of ['/', '/allClassAllowed', '/classes/:id']) {
    test(`${pattern} arrives with the account menu and hydrates without a warning`, async ({ page }) => {
      const path = pattern.replace(':id', stableClass().id);
      const { name } = roleAccounts().student;
      const html = await (await page.request.get(path)).text();
      expect(html).toContain(`aria-label="Account menu for ${name}"`);
      expect(html).not.toContain('>Sign In</a>');
      const messages: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') messages.push(message.text());
      });
      page.on('pageerror', (error) => messages.push(error.message));
      await page.goto(path);
      await expectReady(page);
      await expect(page.getByRole('button', { name: `Account menu for ${name}` })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
      expect(messages).toEqual([]);
    });
  }
});
