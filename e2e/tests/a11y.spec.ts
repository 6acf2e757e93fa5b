import { expect, test } from '../fixtures/arrange.ts';
import { accountButton } from '../fixtures/app.ts';
import { expectNoAxeViolationsInBothThemes, expectReady } from '../fixtures/dashboard.ts';
import { ROLE_STATE, roleAccounts } from '../fixtures/roles.ts';
import { PUBLIC_PAGES as MANIFEST_PAGES } from '../../apps/web/src/app/routes.manifest.ts';

/*
 * DESIGN §6: zero axe violations on every page, light and dark, 360 to 1920 px. Each page is
 * visited once and checked in both themes (the colour scheme is switched on the same visit).
 */

/** Every public page of the route manifest, the other states of the link pages, and a 404. */
const PUBLIC_PAGES = [
  ...MANIFEST_PAGES.map((page) => page.path),
  '/reset-password?token=abc',
  '/reset-password?error=INVALID_TOKEN',
  '/email-verified?error=TOKEN_EXPIRED',
  '/classes/00000000-0000-4000-8000-000000000000',
  '/no-such-page',
];

test.describe('accessibility (axe), light and dark', () => {
  // Two axe runs over a whole page (light, then dark) take most of a test: up to 40 s of the
  // default 45 on a loaded two-core machine, so these tests get 60.
  test.describe.configure({ timeout: 60_000 });
  test.use({ reducedMotion: 'reduce' });

  for (const pattern of PUBLIC_PAGES) {
    test(`${pattern} has no axe violations`, async ({ page }) => {
      // /classes/:id as the page of a real class: the role teacher's accepted class, which no test changes.
      const path = pattern.replace(':id', roleAccounts().teacher.acceptedClass.id);
      await page.goto(path);
      await expectReady(page);
      await expect(page.locator('h1')).toHaveCount(1);
      await expectNoAxeViolationsInBothThemes(page);
    });
  }

  test('the sign-up form with its errors has no axe violations', async ({ page }) => {
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
  });

  test.describe('signed in (the student role)', () => {
    test.use({ storageState: ROLE_STATE.student });

    test('/teach has no axe violations', async ({ page }) => {
      await page.goto('/teach');
      await expectReady(page);
      await expect(accountButton(page)).toBeVisible();
      await expectNoAxeViolationsInBothThemes(page);
    });

    test('/allClassAllowed at 360 px has no axe violations', async ({ page }) => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto('/allClassAllowed');
      await expectReady(page);
      await expect(page.getByTestId('class-grid').getByRole('article').first()).toBeVisible();
      await expectNoAxeViolationsInBothThemes(page);
    });

    test('the open account menu has no axe violations', async ({ page }) => {
      await page.goto('/');
      await expectReady(page);
      await accountButton(page).click();
      await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
      await expectNoAxeViolationsInBothThemes(page);
    });
  });
});
