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
    await expect(enroll).toHaveAttribute('href', /^\/classes\/[^/]+$/);
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
    // The URL changes with the selection; the grid follows when its page arrives (poll, not one read).
    await expect
      .poll(async () => {
        const texts = await cards(page).allTextContents();
        return texts.length > 0 && texts.every((text) => text.includes('Video editing'));
      })
      .toBe(true);

    await page.getByLabel('Sort by').selectOption('price-asc');
    await expect(page).toHaveURL(/[?&]sort=price-asc/);
    const prices = async () =>
      (await cards(page).getByTestId('class-price').allTextContents()).map((p) => Number(p.replace(/[^\d.]/g, '')));
    await expect
      .poll(async () => {
        const shown = await prices();
        return shown.length > 1 && shown.every((price, i) => i === 0 || (shown[i - 1] ?? 0) <= price);
      })
      .toBe(true);

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

  // Issue 20 §4: prefixes and misspellings find the class; suggestions follow the keyboard.
  for (const [what, q, title] of [
    ['a prefix', 'typo', 'Typography essentials'],
    ['a longer prefix', 'statis', 'Statistics without tears'],
    ['a misspelling', 'typograpy', 'Typography essentials'],
    ['a transposition', 'pyhton', 'Python for data analysis'],
  ] as const) {
    test(`finds a class by ${what} ("${q}"), best match first`, async ({ page }) => {
      await page.goto('/allClassAllowed');
      await page.getByLabel('Search classes').fill(q);
      await expect(page).toHaveURL(new RegExp(`[?&]q=${q}`));
      await expect(cards(page).first().getByRole('heading')).toHaveText(title);
      await expect(page.getByLabel('Sort by')).toHaveValue('relevance');
    });
  }

  test('suggests classes as one types, and the keyboard opens one', async ({ page }) => {
    await page.goto('/allClassAllowed');
    const box = page.getByRole('combobox', { name: 'Search classes' });
    await box.fill('typograpy');
    const list = page.getByRole('listbox', { name: 'Suggested classes' });
    await expect(list.getByRole('option').first()).toContainText('Typography essentials');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await box.press('ArrowDown');
    const first = list.getByRole('option').first();
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
    await box.press('Escape');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await box.press('ArrowDown');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/classes\/[^/]+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Typography essentials' })).toBeVisible();
  });

  test('filters by price and rating through the URL', async ({ page }) => {
    await page.goto('/allClassAllowed');
    await expect(cards(page).first()).toBeVisible();
    await page.getByLabel('Lowest price').fill('30');
    await page.getByLabel('Highest price').fill('60');
    await page.getByLabel('Highest price').press('Enter');
    await expect(page).toHaveURL(/minPrice=30/);
    await expect(page).toHaveURL(/maxPrice=60/);
    // The grid keeps the previous page on screen until the new one arrives: poll until it is in range.
    await expect
      .poll(async () => {
        const prices = (await cards(page).getByTestId('class-price').allTextContents()).map((p) =>
          Number(p.replace(/[^\d.]/g, '')),
        );
        return prices.length > 0 && prices.every((price) => price >= 30 && price <= 60);
      })
      .toBe(true);
    await page.getByLabel('Rating').selectOption('4');
    await expect(page).toHaveURL(/minRating=4/);
    await page.reload();
    await expect(page.getByLabel('Lowest price')).toHaveValue('30');
    await expect(page.getByLabel('Rating')).toHaveValue('4');
  });
});
