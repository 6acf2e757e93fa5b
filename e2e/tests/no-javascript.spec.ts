import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/arrange.ts';

/*
 * Decision 030: the public pages are rendered on the server, so with JavaScript off in the
 * browser the catalogue, its pages, a class and the home page are readable and their links work
 * (plain documents, one request per link); a form says it needs JavaScript.
 */
test.use({ javaScriptEnabled: false });

const cards = (page: Page) => page.getByTestId('class-grid').getByRole('article');

test.describe('without JavaScript', () => {
  test('the catalogue lists its classes and its paging links lead to the next page', async ({ page }) => {
    await page.goto('/allClassAllowed');
    await expect(page.getByRole('heading', { level: 1, name: 'All classes' })).toBeVisible();
    await expect(cards(page)).toHaveCount(12);
    await expect(cards(page).first().getByTestId('class-price')).toHaveText(/^Price: \$\d[\d,]*\.\d\d$/);
    await expect(page.getByRole('status')).toHaveText(/^Showing 1–12 of \d+ classes$/);
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await pagination.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(/\/allClassAllowed\?(.*&)?page=2\b/);
    await expect(page.getByRole('status')).toHaveText(/^Showing 13–\d+ of \d+ classes$/);
    await expect(cards(page).first()).toBeVisible();
    await pagination.getByRole('link', { name: 'Previous' }).click();
    await expect(page.getByRole('status')).toHaveText(/^Showing 1–12 of \d+ classes$/);
  });

  test("a class card leads to the class's page: title, teacher, price, description", async ({ page }) => {
    await page.goto('/allClassAllowed');
    const first = cards(page).first();
    const title = (await first.getByRole('heading', { level: 2 }).textContent())!.trim();
    await first.getByRole('link', { name: 'Enroll Now' }).click();
    await expect(page).toHaveURL(/\/classes\/[^/]+$/);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page).toHaveTitle(`${title} — SkillHive`);
    await expect(page.getByTestId('class-price')).toHaveText(/^Price: \$\d[\d,]*\.\d\d$/);
    await expect(page.getByRole('heading', { level: 2, name: 'About this class' })).toBeVisible();
    await expect(page.getByText(/^Teacher: /)).toBeVisible();
  });

  test('the home page shows its content, and its links work', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Featured topics' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Classes' }).click();
    await expect(page).toHaveURL('/allClassAllowed');
    await expect(cards(page).first()).toBeVisible();
  });

  test('a form says it needs JavaScript, and cannot be sent without it', async ({ page }) => {
    await page.goto('/login');
    const form = page.getByRole('form', { name: 'Sign in' });
    await expect(form.getByRole('alert')).toHaveText(/This form needs JavaScript/);
    await expect(form.getByLabel('Email')).toBeDisabled();
    await expect(form.getByRole('button', { name: /sign in/i })).toBeDisabled();
  });
});
