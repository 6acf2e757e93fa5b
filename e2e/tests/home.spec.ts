import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/arrange.ts';
import { watchImageRequests } from '../fixtures/dashboard.ts';

const hero = (page: Page) => page.getByRole('region', { name: 'Featured topics' });
const activeSlide = (page: Page) => hero(page).locator('[aria-roledescription="slide"][data-active="true"]');

test.describe('home page', () => {
  test('loads with its sections in order and the reviews last', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle(/SkillHive/);
    await expect(page.getByRole('region', { name: 'Featured topics' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Become an instructor!' })).toBeVisible();
    await expect(
      page.getByText('Instructors from around the world teach millions of learners on SkillHive.'),
    ).toBeVisible();
    const cta = page.getByRole('link', { name: 'Start teaching today' });
    await expect(cta).toHaveAttribute('href', '/teach');
    await expect(page.getByRole('heading', { name: 'Trusted by the industry leaders' })).toBeVisible();

    const reviews = page.getByRole('heading', { name: 'What our learners say' });
    await reviews.scrollIntoViewIfNeeded();
    await expect(page.getByTestId('review-count')).toHaveText(/^\d+ reviews?$/);
    await expect(page.getByRole('img', { name: /^Rated \d(\.\d)? out of 5$/ }).first()).toBeVisible();

    // The reviews are the last section of the page content.
    await expect(page.locator('main section[aria-labelledby]').last()).toHaveAttribute(
      'aria-labelledby',
      'reviews-title',
    );

    await cta.click();
    await expect(page).toHaveURL('/teach');
  });

  test('the partner logos stay visible in the dark theme (inverted), and keep their ink in the light one', async ({
    page,
  }) => {
    const logo = page.getByRole('img', { name: 'Northbeam' });
    const filterOf = () => logo.evaluate((img) => getComputedStyle(img).filter);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await logo.scrollIntoViewIfNeeded();
    await expect.poll(filterOf).toContain('invert(1)');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(filterOf).not.toContain('invert');
  });

  test('ships no requests to other origins and runs under the CSP without errors', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'data:') foreign.push(request.url());
    });
    const images = watchImageRequests(page);
    await page.goto('/');
    await expect(hero(page)).toBeVisible();
    await page.mouse.wheel(0, 5000);
    // Down to the reviews: their carousel has started (its code loads late) and every image is in.
    await expect(page.getByRole('button', { name: 'Next review' })).toBeVisible();
    await images.settled();
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });

  test.describe('carousel (reduced motion: instant, no autoplay)', () => {
    test.use({ reducedMotion: 'reduce' });

    test('has six slides and wraps both ways with the arrow buttons', async ({ page }) => {
      await page.goto('/');
      await expect(hero(page).locator('[aria-roledescription="slide"]')).toHaveCount(6);
      await expect(activeSlide(page)).toHaveAttribute('aria-label', '1 of 6: Digital marketing');
      await expect(page.getByRole('button', { name: 'Play slideshow' })).toBeVisible();

      await page.getByRole('button', { name: 'Previous slide' }).click();
      await expect(activeSlide(page)).toHaveAttribute('aria-label', '6 of 6: Video editing');
      await page.getByRole('button', { name: 'Next slide' }).click();
      await expect(activeSlide(page)).toHaveAttribute('aria-label', '1 of 6: Digital marketing');
      await page.getByRole('button', { name: 'Next slide' }).click();
      await expect(activeSlide(page)).toHaveAttribute('aria-label', '2 of 6: SEO');
    });

    test('is operable with the arrow keys when focused', async ({ page }) => {
      await page.goto('/');
      const viewport = page.getByTestId('hero-viewport');
      await viewport.focus();
      await page.keyboard.press('ArrowLeft');
      await expect(activeSlide(page)).toHaveAttribute('aria-label', '6 of 6: Video editing');
      await page.keyboard.press('ArrowRight');
      await expect(activeSlide(page)).toHaveAttribute('aria-label', '1 of 6: Digital marketing');
      await page.keyboard.press('ArrowRight');
      await expect(activeSlide(page)).toHaveAttribute('aria-label', '2 of 6: SEO');
    });

    // Below the fold, the reviews carousel starts as it comes near the viewport (decision 008).
    test('the reviews carousel moves with its arrow buttons and the arrow keys', async ({ page }) => {
      await page.goto('/');
      const reviews = page.getByRole('region', { name: /^Learner reviews/ });
      await reviews.scrollIntoViewIfNeeded();
      const track = reviews.locator('ul');
      const offset = () => track.evaluate((element) => new DOMMatrix(getComputedStyle(element).transform).m41);
      const next = page.getByRole('button', { name: 'Next review' });
      await expect(next).toBeVisible();
      const first = await offset();
      await next.click();
      await expect.poll(offset).toBeLessThan(first);
      await page.getByRole('button', { name: 'Previous review' }).click();
      await expect.poll(offset).toBe(first);
      await reviews.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(offset).toBeLessThan(first);
    });
  });

  test('autoplays with a pause control when motion is allowed', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('/');
    const toggle = page.getByTestId('hero-play-toggle');
    await expect(toggle).toHaveAccessibleName('Pause slideshow');
    await toggle.click();
    await expect(toggle).toHaveAccessibleName('Play slideshow');
  });
});
