import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { logIn, DEMO } from '../fixtures/app.ts';
import { PUBLIC_PAGES as MANIFEST_PAGES } from '../../apps/web/src/app/routes.manifest.ts';
import { firstClass } from '../fixtures/class-page.ts';

/** Every public page of the route manifest, the other states of the link pages, and a 404. */
const PUBLIC_PAGES = [
  ...MANIFEST_PAGES.map((page) => page.path),
  '/reset-password?token=abc',
  '/reset-password?error=INVALID_TOKEN',
  '/email-verified?error=TOKEN_EXPIRED',
  '/classes/00000000-0000-4000-8000-000000000000',
  '/no-such-page',
];

async function expectNoViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary).toEqual([]);
}

test.describe('accessibility (axe)', () => {
  test.use({ reducedMotion: 'reduce' });

  for (const pattern of PUBLIC_PAGES) {
    test(`${pattern} has no axe violations`, async ({ page, request }) => {
      // /classes/:id as the page of a real class (the pattern itself shows its not-found state).
      const path = pattern.includes(':id') ? pattern.replace(':id', (await firstClass(request))._id) : pattern;
      await page.goto(path);
      await expect(page.locator('h1')).toHaveCount(1);
      await page.waitForLoadState('networkidle');
      await expectNoViolations(page);
    });
  }

  test('/teach (signed in) and /allClassAllowed at 360px have no axe violations', async ({ page }) => {
    await logIn(page, DEMO.student);
    await page.goto('/teach');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectNoViolations(page);

    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/allClassAllowed');
    await page.waitForLoadState('networkidle');
    await expectNoViolations(page);
  });

  test('the account menu and the form errors have no axe violations', async ({ page }) => {
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expectNoViolations(page);

    await logIn(page, DEMO.student);
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expectNoViolations(page);
  });
});

// Issue 20 §6: the dark theme (prefers-color-scheme: dark) is axe-clean on the same pages.
test.describe('accessibility (axe) in the dark theme', () => {
  test.use({ reducedMotion: 'reduce', colorScheme: 'dark' });

  for (const path of PUBLIC_PAGES) {
    test(`${path} has no axe violations in the dark theme`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('h1')).toHaveCount(1);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
      await expectNoViolations(page);
    });
  }
});
