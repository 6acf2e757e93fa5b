import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures/arrange.ts';
import { roleAccounts } from '../fixtures/roles.ts';

/*
 * Decision 049: a page rendered on the server downloads and runs the app's code only after its
 * first contentful paint, all of the page's chunks at once; until the code has run, what a person
 * does still works — links are links, a search is a plain form, and a form with a password cannot
 * be sent.
 */

const PAGES = ['/', '/allClassAllowed', '/classes/:id'];
const pathOf = (pattern: string) => pattern.replace(':id', roleAccounts().teacher.acceptedClass.id);

/** The page's code as its HTML names it, inside the template the loader starts after the paint. */
async function codeOf(request: APIRequestContext, path: string): Promise<{ entry: string; chunks: string[] }> {
  const html = await (await request.get(path)).text();
  const template = /<template id="skillhive-code">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? '';
  const entry = /<script type="module" crossorigin src="([^"]+)">/.exec(template)?.[1];
  expect(entry, `${path} names its entry in its code template`).toBeDefined();
  const chunks = [...template.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]!);
  return { entry: entry!, chunks };
}

/** Holds the page's entry script until `release()`: the page stays the server's, as on a slow phone. */
async function holdCode(page: Page, entry: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === entry,
    async (route) => {
      await held;
      await route.continue();
    },
  );
  return release;
}

test.describe('code after the first paint', () => {
  for (const pattern of PAGES) {
    test(`${pattern} requests no script before its first contentful paint, then its chunks together`, async ({
      page,
      request,
    }) => {
      const path = pathOf(pattern);
      const { entry, chunks } = await codeOf(request, path);
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      const timing = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        scripts: performance
          .getEntriesByType('resource')
          .map((entry) => entry as PerformanceResourceTiming)
          .filter((entry) => /^\/assets\/.+\.js$/.test(new URL(entry.name).pathname))
          .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime, end: entry.responseEnd })),
      }));
      expect(timing.paint).not.toBeNull();
      const loaded = new Map(timing.scripts.map((script) => [script.path, script]));
      expect([...loaded.keys()]).toEqual(expect.arrayContaining([entry, ...chunks]));
      // Nothing of the code was even asked for before the page was painted.
      expect(timing.scripts.filter((script) => script.start < timing.paint!)).toEqual([]);
      // Not a waterfall: every chunk the HTML names was asked for before the entry had arrived,
      // rather than found by running it.
      const entryEnd = loaded.get(entry)!.end;
      expect(chunks.filter((chunk) => loaded.get(chunk)!.start > entryEnd)).toEqual([]);
    });
  }
});

test.describe('before the code has run', () => {
  test('Sign In is a link to the sign-in page, whose form cannot be sent until its code runs', async ({
    page,
    request,
  }) => {
    const { entry } = await codeOf(request, '/');
    const release = await holdCode(page, entry);
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL('/login');
    const form = page.getByRole('form', { name: 'Sign in' });
    await expect(form.getByLabel('Email')).toBeDisabled();
    await expect(form.getByLabel('Password')).toBeDisabled();
    await expect(form.getByRole('button', { name: 'Sign In', exact: true })).toBeDisabled();
    release();
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expect(form.getByLabel('Password')).toBeEnabled();
  });

  test('a search sent before the code runs is a plain request for the results', async ({ page, request }) => {
    const { entry } = await codeOf(request, '/allClassAllowed');
    await holdCode(page, entry);
    await page.goto('/allClassAllowed', { waitUntil: 'commit' });
    const box = page.getByRole('combobox', { name: 'Search classes' });
    await box.fill('typography');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/allClassAllowed\?(.*&)?q=typography\b/);
    await expect(
      page.getByTestId('class-grid').getByRole('heading', { level: 2, name: 'Typography essentials' }),
    ).toBeVisible();
  });

  test('text typed before the code runs is searched, with suggestions, once it has run', async ({ page, request }) => {
    const { entry } = await codeOf(request, '/allClassAllowed');
    const release = await holdCode(page, entry);
    await page.goto('/allClassAllowed', { waitUntil: 'commit' });
    const box = page.getByRole('combobox', { name: 'Search classes' });
    await box.fill('typograpy');
    release();
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expect(box).toHaveValue('typograpy');
    await expect(page).toHaveURL(/q=typograpy/);
    await expect(page.getByRole('listbox', { name: 'Suggested classes' }).getByRole('option').first()).toContainText(
      'Typography essentials',
    );
  });
});
