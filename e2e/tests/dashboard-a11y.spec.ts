import { expect, test, type Page } from '@playwright/test';
import { DEMO, logIn } from '../fixtures/app.ts';
import {
  acceptedClasses,
  dashboardMenu,
  expectLoaded,
  expectNoAxeViolations,
  expectNoHorizontalOverflow,
} from '../fixtures/dashboard.ts';

type Role = 'student' | 'teacher' | 'admin';

async function screensFor(page: Page, role: Role): Promise<string[]> {
  const [own] = await acceptedClasses(page, DEMO.teacher);
  const id = own!._id;
  if (role === 'student') {
    return ['studentHome', `classDetails/${id}`, 'payment', 'myEnrollClass', 'paymentHistory', 'profile', 'contact'];
  }
  if (role === 'teacher') {
    return ['teacherHome', 'addClasses', 'myClass', `updateItem/${id}`, `my-class/${id}`, 'profile'];
  }
  return [
    'adminHome',
    'users',
    'teacherRequest',
    'allClasses',
    `seeProgressDetails/${id}`,
    'refunds',
    'audit',
    'mailbox',
    'profile',
  ];
}

async function openScreen(page: Page, path: string) {
  await page.goto(`/dashboard/${path}`);
  await expect(page).toHaveURL(`/dashboard/${path}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectLoaded(page);
  await page.waitForLoadState('networkidle');
}

const EMAILS: Record<Role, string> = { student: DEMO.student, teacher: DEMO.teacher, admin: DEMO.admin };

test.describe('dashboard accessibility and small screens', () => {
  test.use({ reducedMotion: 'reduce' });

  for (const role of ['student', 'teacher', 'admin'] as const) {
    test(`every ${role} screen has no axe violations`, async ({ page }) => {
      test.setTimeout(120_000);
      await logIn(page, EMAILS[role]);
      for (const path of await screensFor(page, role)) {
        await test.step(path, async () => {
          await openScreen(page, path);
          await expectNoAxeViolations(page);
        });
      }
    });

    test(`every ${role} screen is usable at 360 px`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: 360, height: 740 });
      await logIn(page, EMAILS[role]);
      for (const path of await screensFor(page, role)) {
        await test.step(path, async () => {
          await openScreen(page, path);
          await expectNoHorizontalOverflow(page);
          await expectNoAxeViolations(page);
        });
      }
      // The side menu is a drawer behind a button; it opens, is accessible, navigates and closes.
      await openScreen(page, 'profile');
      await expect(dashboardMenu(page)).toBeHidden();
      await page.getByRole('button', { name: 'Dashboard menu' }).click();
      const drawer = page.getByRole('dialog', { name: 'Dashboard menu' });
      await expect(drawer).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
      await expect(page.getByRole('button', { name: 'Dashboard menu' })).toBeFocused();
      await page.getByRole('button', { name: 'Dashboard menu' }).click();
      const [first] = await screensFor(page, role);
      await drawer.getByRole('link').first().click();
      await expect(page).toHaveURL(`/dashboard/${first}`);
      await expect(drawer).toBeHidden();
    });
  }

  test('dialogs and error states have no axe violations', async ({ page }) => {
    await logIn(page, DEMO.teacher);
    await openScreen(page, 'addClasses');
    await page.getByRole('button', { name: 'Add Class' }).click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expectNoAxeViolations(page);

    await openScreen(page, 'myClass');
    await page.getByRole('button', { name: 'Delete' }).first().click();
    await expect(page.getByRole('dialog', { name: /^Delete ".+"\?$/ })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/dashboard/my-class/00000000-0000-0000-0000-000000000000');
    await expect(page.getByText(/^Error fetching profile: /)).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

// Issue 20 §6: every dashboard screen is axe-clean in the dark theme too.
test.describe('dashboard accessibility in the dark theme', () => {
  test.use({ reducedMotion: 'reduce', colorScheme: 'dark' });

  for (const role of ['student', 'teacher', 'admin'] as const) {
    test(`every ${role} screen has no axe violations in the dark theme`, async ({ page }) => {
      test.setTimeout(120_000);
      await logIn(page, EMAILS[role]);
      for (const path of await screensFor(page, role)) {
        await test.step(path, async () => {
          await openScreen(page, path);
          await expectNoAxeViolations(page);
        });
      }
    });
  }
});
