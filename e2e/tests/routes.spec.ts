import { expect, test } from '@playwright/test';

test.describe('routing', () => {
  test('an unknown route shows a not-found page with a way home', async ({ page }) => {
    await page.goto('/this/does/not/exist');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL('/');
  });

  test('public pages load no dashboard code', async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(new URL(response.url()).pathname);
    });
    for (const path of ['/', '/allClassAllowed', '/teach', '/login', '/signup']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    expect(scripts.filter((s) => /dashboard|recharts/i.test(s))).toEqual([]);
  });

  test('the landing page loads at most 150 KB of JavaScript (gzip)', async ({ page }) => {
    // The budget is stated for gzip; ask for gzip rather than Brotli.
    await page.setExtraHTTPHeaders({ 'Accept-Encoding': 'gzip' });
    let bytes = 0;
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      const sizes = await response.request().sizes();
      bytes += sizes.responseBodySize;
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    expect(bytes / 1024).toBeLessThanOrEqual(150);
  });
});
