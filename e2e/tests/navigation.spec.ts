import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/arrange.ts';

/*
 * React Router's data router (decision 024, apps/web/src/app/router.tsx) as a person moves around: where the
 * window scrolls, what shows while a page's code is on its way, and that a page that failed to
 * load does not stick when they go elsewhere.
 */

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
const cards = (page: Page) => page.getByTestId('class-grid').getByRole('article');

test.describe('navigation', () => {
  test('a new page starts at the top; Back returns to the place; a filter keeps the scroll', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto('/allClassAllowed');
    await expect(cards(page).first()).toBeVisible();

    // Page 2 from the pagination at the bottom: the new page starts at its top.
    const pageTwo = page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2' });
    await pageTwo.scrollIntoViewIfNeeded();
    const down = await scrollY(page);
    expect(down).toBeGreaterThan(300);
    await pageTwo.click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect.poll(() => scrollY(page)).toBe(0);

    // Back: page 1, where the person left it.
    await page.goBack();
    await expect(page).toHaveURL('/allClassAllowed');
    await expect.poll(() => scrollY(page)).toBe(down);

    // A filter changes the URL but not the place on the page (`preventScrollReset`).
    const sort = page.getByLabel('Sort by');
    const box = await sort.boundingBox();
    await page.evaluate((by) => window.scrollBy(0, by), Math.round(box!.y) - 20);
    const atFilters = await scrollY(page);
    expect(atFilters).toBeGreaterThan(0);
    await sort.selectOption('price-asc');
    await expect(page).toHaveURL(/[?&]sort=price-asc/);
    await expect(cards(page).first()).toBeVisible();
    expect(await scrollY(page)).toBe(atFilters);
  });

  test('while a page’s code downloads, the current page stays with the progress bar; then focus moves to the new heading', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/teach-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Teach On the platform' })
      .first()
      .click();
    await expect(page.getByTestId('top-progress')).toBeVisible();
    // The home page is still there, whole, while the URL already names /teach.
    await expect(page.getByRole('link', { name: 'See all reviews' })).toBeVisible();

    release();
    const heading = page.getByRole('heading', { level: 1 });
    await expect(page).toHaveURL('/teach');
    await expect(page.getByTestId('top-progress')).toHaveCount(0);
    await expect(heading).toBeFocused();
  });

  test('a page whose code failed shows the error page; the next link works, and the page loads once its code is back', async ({
    page,
  }) => {
    const main = page.getByRole('navigation', { name: 'Main' });
    const reviewsChunk = /\/assets\/reviews-[^/]+\.js$/;
    await page.route(reviewsChunk, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto('/');
    await page.getByRole('link', { name: 'See all reviews' }).click();
    await expect(page.getByRole('heading', { name: 'SkillHive was updated' })).toBeVisible();
    // The navbar above the error is the app's, and it still navigates.
    await main.getByRole('link', { name: 'All Classes' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'All classes' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'SkillHive was updated' })).toHaveCount(0);

    // The failed download is not remembered: once the chunk is served, the page opens.
    await page.unroute(reviewsChunk);
    await main.getByRole('link', { name: 'Home' }).first().click();
    await page.getByRole('link', { name: 'See all reviews' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'What our learners say' })).toBeVisible();
  });
});
