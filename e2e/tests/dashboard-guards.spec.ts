import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/arrange.ts';
import { accountButton, fillLogin } from '../fixtures/app.ts';
import { ROLE_STATE, roleAccounts, type Role } from '../fixtures/roles.ts';

type Access = 'login' | 'teacher' | 'admin';

/**
 * Every dashboard child route of spec §2 (plus my-class/:id and the audit log) and who may see it,
 * grouped by who may see it; `:id` is the role teacher's accepted class.
 */
const ROUTES: Record<Access, string[]> = {
  login: [
    '/dashboard/studentHome',
    '/dashboard/classDetails/:id',
    '/dashboard/payment',
    '/dashboard/myEnrollClass',
    '/dashboard/profile',
    '/dashboard/messages',
  ],
  teacher: [
    '/dashboard/teacherHome',
    '/dashboard/addClasses',
    '/dashboard/myClass',
    '/dashboard/updateItem/:id',
    '/dashboard/my-class/:id',
    '/dashboard/my-class/:id/prepare',
  ],
  admin: [
    '/dashboard/adminHome',
    '/dashboard/users',
    '/dashboard/teacherRequest',
    '/dashboard/allClasses',
    '/dashboard/seeProgressDetails/:id',
    '/dashboard/refunds',
    '/dashboard/audit',
  ],
};

const GROUPS: Record<Access, string> = { login: 'signed-in', teacher: 'teacher', admin: 'admin' };

/** A route pattern as visited: `:id` is the role teacher's accepted class. */
const concrete = (pattern: string) => pattern.replace(':id', roleAccounts().teacher.acceptedClass.id);

/** Waits until the guard has decided (the URL settles and a page heading is drawn): where it landed. */
async function landing(page: Page, path: string): Promise<string> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('top-progress')).toHaveCount(0, { timeout: 15_000 });
  return new URL(page.url()).pathname;
}

/** Visits each route in turn, one step each, and checks where the guard sent the visitor. */
async function expectLandings(page: Page, routes: string[], expected: (path: string) => string) {
  for (const pattern of routes) {
    await test.step(pattern, async () => {
      const path = concrete(pattern);
      expect(await landing(page, path), path).toBe(expected(path));
    });
  }
}

test.describe('dashboard guards (spec §2, §6)', () => {
  test.describe('an anonymous visitor', () => {
    test('is sent to /login from /dashboard', async ({ page }) => {
      expect(await landing(page, '/dashboard')).toBe('/login');
    });

    for (const access of Object.keys(ROUTES) as Access[]) {
      test(`is sent to /login from every ${GROUPS[access]} route`, async ({ page }) => {
        await expectLandings(page, ROUTES[access], () => '/login');
      });
    }

    // The sign-in goes through the form: the guard's remembered location is what is tested.
    test('comes back to the route after signing in', async ({ page, arrange }) => {
      const student = await arrange.student();
      await page.goto('/dashboard/myEnrollClass');
      await expect(page).toHaveURL('/login');
      await fillLogin(page, student.email, student.password);
      await expect(accountButton(page)).toBeVisible();
      await expect(page).toHaveURL('/dashboard/myEnrollClass');
    });
  });

  // The role accounts of the run (fixtures/roles.ts). The admin is not a teacher: teacher routes
  // send them home too.
  const cases: { role: Role; allowed: Access[]; home: string }[] = [
    { role: 'student', allowed: ['login'], home: '/dashboard/studentHome' },
    { role: 'teacher', allowed: ['login', 'teacher'], home: '/dashboard/teacherHome' },
    { role: 'admin', allowed: ['login', 'admin'], home: '/dashboard/adminHome' },
  ];

  for (const { role, allowed, home } of cases) {
    test.describe(`${role === 'admin' ? 'an' : 'a'} ${role}`, () => {
      test.use({ storageState: ROLE_STATE[role] });

      test(`lands on ${home} from /dashboard`, async ({ page }) => {
        expect(await landing(page, '/dashboard')).toBe(home);
      });

      for (const access of Object.keys(ROUTES) as Access[]) {
        const verdict = allowed.includes(access) ? 'opens' : 'is sent home from';
        test(`${verdict} every ${GROUPS[access]} route`, async ({ page }) => {
          await expectLandings(page, ROUTES[access], (path) => (allowed.includes(access) ? path : '/'));
        });
      }
    });
  }
});
