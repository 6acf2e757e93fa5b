import { expect, test } from '@playwright/test';
import { PUBLIC_PAGES } from '../../apps/web/src/app/routes.manifest.ts';
import { concretePage, firstClass } from '../fixtures/class-page.ts';

/** Every public route, from the web app's route manifest (the build's first-load report reads it too). */
const PUBLIC_ROUTES = PUBLIC_PAGES.map((page) => page.path);

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
    test(`${manifestPage.path} is titled as the manifest says`, async ({ page, request }) => {
      // A page of one class (/classes/:id) is titled with that class's title.
      const { path, title } = await concretePage(request, manifestPage);
      await page.goto(path);
      await expect(page).toHaveTitle(title);
    });
  }

  test('public pages load no dashboard code', async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(new URL(response.url()).pathname);
    });
    for (const path of PUBLIC_ROUTES) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    expect(scripts.filter((s) => /dashboard|recharts/i.test(s))).toEqual([]);
  });

  // DESIGN §6 (decision 005): every public route's first load stays within 150 KB of gzip.
  for (const path of PUBLIC_ROUTES) {
    test(`${path} loads at most 150 KB of JavaScript (gzip)`, async ({ page }) => {
      // The budget is stated for gzip; ask for gzip rather than Brotli.
      await page.setExtraHTTPHeaders({ 'Accept-Encoding': 'gzip' });
      const sizes: Promise<number>[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'script') return;
        sizes.push(
          response
            .request()
            .sizes()
            .then((s) => s.responseBodySize),
        );
      });
      await page.goto(path, { waitUntil: 'networkidle' });
      const bytes = (await Promise.all(sizes)).reduce((sum, n) => sum + n, 0);
      expect(sizes.length).toBeGreaterThan(0);
      expect(bytes / 1024).toBeLessThanOrEqual(150);
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
      const built = (await (await request.get('/route-preloads.json')).json()) as Record<
        string,
        { deferred: string[] }
      >;
      const deferred = built[path]?.deferred ?? [];
      expect(deferred.filter((script) => named.includes(script))).toEqual([]);
      const loaded: string[] = [];
      page.on('request', (req) => {
        if (req.resourceType() === 'script') loaded.push(new URL(req.url()).pathname);
      });
      await page.goto(path, { waitUntil: 'networkidle' });
      expect(loaded.length).toBeGreaterThan(1);
      expect(loaded.filter((script) => !named.includes(script) && !deferred.includes(script))).toEqual([]);
    });
  }

  // Decision 008: a page's first render waits for its data, so its HTML preloads that data — and
  // the request the page then makes must be the one the preload answers, not a second download.
  const firstRenderData: Record<string, string[]> = {
    '/': ['/api/auth/get-session', '/api/reviews?page=1&limit=10'],
    '/allClassAllowed': ['/api/auth/get-session', '/api/classes?sort=newest&page=1&limit=12'],
    '/allClassAllowed?page=2': ['/api/auth/get-session'],
    '/login': ['/api/auth/get-session'],
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
      await page.goto(path, { waitUntil: 'networkidle' });
      for (const url of preloaded)
        expect(
          requested.filter((r) => r === url),
          url,
        ).toHaveLength(1);
    });
  }

  test("a class's page preloads that class's public data, and uses the preload", async ({ page, request }) => {
    const item = await firstClass(request);
    const path = `/classes/${item._id}`;
    const html = await (await request.get(path)).text();
    const preloaded = [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map(
      (m) => m[1],
    );
    expect(preloaded.sort()).toEqual(['/api/auth/get-session', `/api/classes/${item._id}/public`].sort());
    const requested: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/')) requested.push(url.pathname + url.search);
    });
    await page.goto(path, { waitUntil: 'networkidle' });
    expect(requested.filter((r) => r === `/api/classes/${item._id}/public`)).toHaveLength(1);
    await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
  });
});
