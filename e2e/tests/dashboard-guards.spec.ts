import { expect, test, type Page } from '@playwright/test';
import { DEMO, fillLogin, logIn, accountButton } from '../fixtures/app.ts';
import { acceptedClasses } from '../fixtures/dashboard.ts';

type Access = 'login' | 'teacher' | 'admin';

/** Every dashboard child route of spec §2 (plus my-class/:id and the audit log) and who may see it. */
function dashboardRoutes(classId: string): { path: string; access: Access }[] {
  return [
    { path: '/dashboard/studentHome', access: 'login' },
    { path: `/dashboard/classDetails/${classId}`, access: 'login' },
    { path: '/dashboard/payment', access: 'login' },
    { path: '/dashboard/myEnrollClass', access: 'login' },
    { path: '/dashboard/profile', access: 'login' },
    { path: '/dashboard/teacherHome', access: 'teacher' },
    { path: '/dashboard/addClasses', access: 'teacher' },
    { path: '/dashboard/myClass', access: 'teacher' },
    { path: `/dashboard/updateItem/${classId}`, access: 'teacher' },
    { path: `/dashboard/my-class/${classId}`, access: 'teacher' },
    { path: '/dashboard/adminHome', access: 'admin' },
    { path: '/dashboard/users', access: 'admin' },
    { path: '/dashboard/teacherRequest', access: 'admin' },
    { path: '/dashboard/allClasses', access: 'admin' },
    { path: `/dashboard/seeProgressDetails/${classId}`, access: 'admin' },
    { path: '/dashboard/refunds', access: 'admin' },
    { path: '/dashboard/audit', access: 'admin' },
  ];
}

async function teacherClassId(page: Page): Promise<string> {
  const [own] = await acceptedClasses(page, DEMO.teacher);
  expect(own, 'the seed gives teacher1 an accepted class').toBeTruthy();
  return own!._id;
}

/** Waits until the guard has decided: the URL settles and a page heading is drawn. */
async function landing(page: Page, path: string): Promise<string> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('top-progress')).toHaveCount(0, { timeout: 15_000 });
  return new URL(page.url()).pathname;
}

test.describe('dashboard guards (spec §2, §6)', () => {
  test('an anonymous visitor is sent to /login from every dashboard route, and comes back after signing in', async ({
    page,
  }) => {
    const classId = await teacherClassId(page);
    for (const { path } of dashboardRoutes(classId)) {
      expect(await landing(page, path), path).toBe('/login');
    }
    expect(await landing(page, '/dashboard')).toBe('/login');

    await page.goto('/dashboard/myEnrollClass');
    await expect(page).toHaveURL('/login');
    await fillLogin(page, DEMO.student, 'Demo!Pass1');
    await expect(accountButton(page)).toBeVisible();
    await expect(page).toHaveURL('/dashboard/myEnrollClass');
  });

  const cases: { role: 'student' | 'teacher' | 'admin'; email: string; allowed: Access[]; home: string }[] = [
    { role: 'student', email: DEMO.student, allowed: ['login'], home: '/dashboard/studentHome' },
    { role: 'teacher', email: DEMO.teacher, allowed: ['login', 'teacher'], home: '/dashboard/teacherHome' },
    // The seeded admin is not a teacher: teacher routes send them home too.
    { role: 'admin', email: DEMO.admin, allowed: ['login', 'admin'], home: '/dashboard/adminHome' },
  ];

  for (const { role, email, allowed, home } of cases) {
    test(`a ${role} lands where spec §2 says on every dashboard route`, async ({ page }) => {
      test.setTimeout(120_000);
      await logIn(page, email);
      const classId = await teacherClassId(page);
      expect(await landing(page, '/dashboard')).toBe(home);
      for (const { path, access } of dashboardRoutes(classId)) {
        const expected = allowed.includes(access) ? path : '/';
        expect(await landing(page, path), `${role} → ${path}`).toBe(expected);
      }
    });
  }
});
