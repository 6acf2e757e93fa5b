import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures/arrange.ts';
import { expectReady, watchImageRequests } from '../fixtures/dashboard.ts';

const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'screenshots');

test.describe('responsive home page', () => {
  test.use({ reducedMotion: 'reduce' });

  for (const width of [360, 1280]) {
    test(`renders without horizontal scrolling at ${width}px and is captured`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: width < 600 ? 780 : 900 });
      const images = watchImageRequests(page);
      await page.goto('/');
      await expectReady(page);
      await expect(page.getByRole('region', { name: 'Featured topics' })).toBeVisible();
      // Load every lazy image before the full-page capture.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 30));
        }
        window.scrollTo(0, 0);
      });
      await images.settled();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      const heroHeight = await page
        .getByRole('region', { name: 'Featured topics' })
        .locator('[aria-roledescription="slide"]')
        .first()
        .evaluate((el) => el.getBoundingClientRect().height);
      if (width >= 1024) expect(heroHeight).toBe(550);
      else expect(heroHeight).toBeLessThan(550);

      if (width < 1024) {
        await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
        await page.getByRole('button', { name: 'Menu' }).click();
        await expect(page.getByRole('link', { name: 'Teach On the platform' })).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(page.getByRole('button', { name: 'Menu' })).toBeFocused();
      } else {
        await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
      }

      mkdirSync(ARTIFACTS, { recursive: true });
      const file = path.join(ARTIFACTS, `home-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      await testInfo.attach(`home-${width}`, { path: file, contentType: 'image/png' });
    });
  }
});
