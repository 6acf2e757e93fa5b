import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/arrange.ts';
import {
  dashboardMenu,
  expectNoAxeViolations,
  expectNoAxeViolationsInBothThemes,
  expectNoHorizontalOverflow,
  expectReady,
} from '../fixtures/dashboard.ts';
import { ROLE_STATE, roleAccounts, type Role } from '../fixtures/roles.ts';

/*
 * DESIGN §6: zero axe violations on every page, light and dark, 360 to 1920 px. Every dashboard
 * screen of each role, one test per screen, as the role account of the run (fixtures/roles.ts)
 * sees it; `:id` is that teacher's accepted class (which the student role paid for). The role
 * accounts are shared by every worker: these tests only look (a dialog opened here is cancelled).
 */
const SCREENS: Record<Role, string[]> = {
  student: ['studentHome', 'classDetails/:id', 'payment', 'myEnrollClass', 'paymentHistory', 'profile', 'contact'],
  teacher: [
    'teacherHome',
    'addClasses',
    'myClass',
    'updateItem/:id',
    'my-class/:id',
    'my-class/:id/prepare',
    'earnings',
    'profile',
  ],
  admin: [
    'adminHome',
    'users',
    'teacherRequest',
    'allClasses',
    'seeProgressDetails/:id',
    'refunds',
    'payouts',
    'audit',
    'mailbox',
    'profile',
  ],
};

const ROLES = ['student', 'teacher', 'admin'] as const;

/** Opens /dashboard/<screen> (its `:id` filled in) and waits until the page is drawn and loaded. */
async function openScreen(page: Page, screen: string) {
  const path = `/dashboard/${screen.replace(':id', roleAccounts().teacher.acceptedClass.id)}`;
  await page.goto(path);
  await expect(page).toHaveURL(path);
  await expectReady(page);
}

// Two axe runs over a whole page (light, then dark) take most of a test: up to 35 s of the default
// 45 on a loaded two-core machine, so these tests get 60.
test.describe.configure({ timeout: 60_000 });
test.use({ reducedMotion: 'reduce' });

for (const role of ROLES) {
  test.describe(`the ${role}'s dashboard`, () => {
    test.use({ storageState: ROLE_STATE[role] });

    for (const screen of SCREENS[role]) {
      test(`${screen} has no axe violations, light and dark`, async ({ page }) => {
        await openScreen(page, screen);
        await expectNoAxeViolationsInBothThemes(page);
      });
    }
  });

  test.describe(`the ${role}'s dashboard at 360 px`, () => {
    test.use({ storageState: ROLE_STATE[role], viewport: { width: 360, height: 740 } });

    // The audit log included: its entries name people and titles, never long ids that would widen it.
    for (const screen of SCREENS[role]) {
      test(`${screen} does not scroll sideways and has no axe violations`, async ({ page }) => {
        await openScreen(page, screen);
        await expectNoHorizontalOverflow(page);
        await expectNoAxeViolations(page);
      });
    }

    // The side menu is a drawer behind a button; it opens, is accessible, navigates and closes.
    test('the menu drawer opens, is accessible, closes on Escape and navigates', async ({ page }) => {
      await openScreen(page, 'profile');
      const toggle = page.getByRole('button', { name: 'Dashboard menu' });
      await expect(dashboardMenu(page)).toBeHidden();
      await toggle.click();
      const drawer = page.getByRole('dialog', { name: 'Dashboard menu' });
      await expect(drawer).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
      await expect(toggle).toBeFocused();
      await toggle.click();
      await drawer.getByRole('link').first().click();
      await expect(page).toHaveURL(`/dashboard/${SCREENS[role][0]}`);
      await expect(drawer).toBeHidden();
    });
  });
}

test.describe('dialogs and error states', () => {
  // The shared teacher role: the dialogs are opened and cancelled, nothing is submitted or deleted.
  test.use({ storageState: ROLE_STATE.teacher });

  test('the add-class form with its errors has no axe violations', async ({ page }) => {
    await openScreen(page, 'addClasses');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
  });

  test('the delete confirmation has no axe violations, and Cancel closes it', async ({ page }) => {
    await openScreen(page, 'myClass');
    await page.getByRole('button', { name: 'Delete' }).first().click();
    const dialog = page.getByRole('dialog', { name: /^Delete ".+"\?$/ });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test('the error of a class that does not exist has no axe violations', async ({ page }) => {
    await page.goto('/dashboard/my-class/00000000-0000-0000-0000-000000000000');
    await expect(page.getByText(/^Error fetching profile: /)).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page);
  });
});
