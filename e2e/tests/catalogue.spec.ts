import { expect, test, type Page } from '@playwright/test';

const cards = (page: Page) => page.getByTestId('class-grid').getByRole('article');

test.describe('/allClassAllowed', () => {
  test('lists accepted classes with an Enroll Now link each', async ({ page }) => {
    await page.goto('/allClassAllowed');
    await expect(page.getByRole('heading', { level: 1, name: 'All classes' })).toBeVisible();
    await expect(cards(page).first()).toBeVisible();
    const count = await cards(page).count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(12);
    const first = cards(page).first();
    await expect(first.getByTestId('class-price')).toHaveText(/^Price: \$\d[\d,]*\.\d\d$/);
    await expect(first.getByText(/students? enrolled/)).toBeVisible();
    const enroll = first.getByRole('link', { name: 'Enroll Now' });
    await expect(enroll).toHaveAttribute('href', /^\/dashboard\/classDetails\/[^/]+$/);
    await expect(page.getByRole('status')).toHaveText(/^Showing 1–\d+ of \d+ classes$/);
  });

  test('keeps search, category, sort and page in the URL', async ({ page }) => {
    await page.goto('/allClassAllowed');
    await expect(cards(page).first()).toBeVisible();

    // Debounced search lands in ?q= and filters the grid.
    await page.getByLabel('Search classes').fill('python');
    await expect(page).toHaveURL(/[?&]q=python/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText('Python for data analysis');

    await page.getByLabel('Search classes').fill('');
    await expect(page).not.toHaveURL(/q=/);

    await page.getByLabel('Category').selectOption('video-editing');
    await expect(page).toHaveURL(/[?&]category=video-editing/);
    await expect(cards(page).first()).toBeVisible();
    for (const text of await cards(page).allTextContents()) expect(text).toContain('Video editing');

    await page.getByLabel('Sort by').selectOption('price-asc');
    await expect(page).toHaveURL(/[?&]sort=price-asc/);
    const prices = (await cards(page).getByTestId('class-price').allTextContents()).map((p) =>
      Number(p.replace(/[^\d.]/g, '')),
    );
    expect(prices.length).toBeGreaterThan(1);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    // The state survives a reload.
    await page.reload();
    await expect(page.getByLabel('Category')).toHaveValue('video-editing');
    await expect(page.getByLabel('Sort by')).toHaveValue('price-asc');
  });

  test('paginates through the URL, and Back restores the page', async ({ page }) => {
    await page.goto('/allClassAllowed');
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await expect(pagination).toBeVisible();
    const firstTitle = await cards(page).first().getByRole('heading').textContent();

    await pagination.getByRole('link', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(pagination.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('status')).toHaveText(/^Showing 13–/);
    await expect(cards(page).first().getByRole('heading')).not.toHaveText(firstTitle ?? '');

    await page.goBack();
    await expect(page).toHaveURL('/allClassAllowed');
    await expect(cards(page).first().getByRole('heading')).toHaveText(firstTitle ?? '');

    await page.goto('/allClassAllowed?page=2&sort=popular');
    await expect(pagination.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByLabel('Sort by')).toHaveValue('popular');
  });

  test('says so when nothing matches', async ({ page }) => {
    await page.goto('/allClassAllowed?q=zzzz-no-such-class');
    await expect(page.getByRole('heading', { name: 'No classes match your search' })).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL('/allClassAllowed');
    await expect(cards(page).first()).toBeVisible();
  });
});
