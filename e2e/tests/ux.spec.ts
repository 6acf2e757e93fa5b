import { expect, test, type Page } from '@playwright/test';
import { accountButton, DEMO, DEMO_PASSWORD, logIn, newUser } from '../fixtures/app.ts';
import { decideTeacherRequest, adminApi } from '../fixtures/admin-api.ts';
import {
  apiSession,
  createClassVia,
  dashboardMenu,
  expectLoaded,
  expectNoAxeViolations,
} from '../fixtures/dashboard.ts';
import { verifyEmailViaMailbox } from '../fixtures/mailbox.ts';

/*
 * Issue 20 §1–§3 and §6 as people meet them: content that breaks layouts, phones, redirects that
 * lose the way, role changes in an open tab, a slow or absent API, and both themes.
 */

/** A 120-character title with no place to break (the longest the form allows). */
function unbreakableTitle(stamp: string): string {
  const word = `Supercalifragilistic${stamp}`;
  return word.repeat(Math.ceil(120 / word.length)).slice(0, 120);
}

/** The page is exactly as wide as the window: nothing sticks out sideways. */
async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${page.url()} is wider than the window`).toBeLessThanOrEqual(0);
}

/** The element lies fully inside the window horizontally (not cut off, not in a side scroller). */
async function expectInsideWindow(page: Page, locator: ReturnType<Page['locator']>) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, 'has a box').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

/** Open a screen and wait for its data. */
async function openScreen(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expectLoaded(page);
  await page.waitForLoadState('networkidle');
}

test.describe('layouts that survive any content', () => {
  test.use({ reducedMotion: 'reduce' });

  test('a 120-character unbroken title and a 1000-character description fit every screen at 360 and 1280 px', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const stamp = Date.now().toString(36);
    const title = unbreakableTitle(stamp);
    const pendingTitle = unbreakableTitle(`${stamp}p`);
    const description = `${'Longwordwithoutanybreakingopportunity'.repeat(20)} ${'and more words '.repeat(40)}`.slice(
      0,
      1000,
    );
    const teacher = await apiSession(baseURL!, DEMO.teacher, DEMO_PASSWORD);
    const classId = await createClassVia(teacher, title, 25, description);
    const pendingId = await createClassVia(teacher, pendingTitle, 30, description);
    await teacher.dispose();
    const admin = await apiSession(baseURL!, DEMO.admin, DEMO_PASSWORD);
    expect((await admin.patch(`/api/classes/class-requests/${classId}/approve`)).ok()).toBe(true);
    await admin.dispose();

    const screens = {
      visitor: ['/allClassAllowed', '/teach', '/reviews'],
      student: [`/dashboard/classDetails/${classId}`, '/dashboard/studentHome'],
      teacher: [
        '/dashboard/myClass',
        `/dashboard/my-class/${classId}`,
        `/dashboard/updateItem/${classId}`,
        '/dashboard/teacherHome',
      ],
      admin: [
        '/dashboard/allClasses',
        '/dashboard/allClasses?status=all',
        `/dashboard/seeProgressDetails/${classId}`,
        '/dashboard/teacherRequest',
        '/dashboard/users',
      ],
    } as const;
    const logins = { student: DEMO.student, teacher: DEMO.teacher, admin: DEMO.admin } as const;

    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: width < 600 ? 780 : 900 });
      for (const [who, paths] of Object.entries(screens)) {
        await page.context().clearCookies();
        if (who !== 'visitor') await logIn(page, logins[who as keyof typeof logins]);
        for (const path of paths) {
          await test.step(`${width}px ${who} ${path}`, async () => {
            await openScreen(page, path);
            await expectNoOverflow(page);
          });
        }
      }
      // The admin's actions on the pending class: on screen and usable, with no sideways scroller.
      await test.step(`${width}px admin approves the long-titled class`, async () => {
        await openScreen(page, '/dashboard/allClasses');
        await expect(page.getByLabel('Show')).toHaveValue('pending');
        const approve = page.getByRole('button', { name: `Approve ${pendingTitle}` });
        const reject = page.getByRole('button', { name: `Reject ${pendingTitle}` });
        if (width === 360) {
          await expectInsideWindow(page, approve);
          await expectInsideWindow(page, reject);
          await approve.click();
          await expect(page.getByText(`"${pendingTitle}" is accepted.`)).toBeVisible();
          // The toast wraps the long title and stays below the navbar's controls.
          const toast = page.locator('[data-sonner-toast]').first();
          await expectInsideWindow(page, toast);
          const toastTop = (await toast.boundingBox())!.y;
          const navBottom = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
          expect(toastTop).toBeGreaterThanOrEqual(navBottom.y + navBottom.height);
          await expectNoOverflow(page);
        } else {
          await expect(approve).toBeVisible();
          await expect(reject).toBeVisible();
        }
      });
    }
    void pendingId;
  });

  test('a broken class image shows the one fallback picture', async ({ page }) => {
    await page.route(/\.webp(\?.*)?$/, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto('/allClassAllowed');
    const images = page.locator('article figure img');
    await expect(images.first()).toBeVisible();
    await expect(images.first()).toHaveAttribute('src', '/images/class-placeholder.svg');
    await expect(images.first()).toHaveAttribute('data-fallback', 'class');
  });
});

test.describe('no lost steps', () => {
  test('sign-up from the login page returns to the class, and the redirect said why', async ({ page, baseURL }) => {
    const teacher = await apiSession(baseURL!, DEMO.teacher, DEMO_PASSWORD);
    const classId = await createClassVia(teacher, `Return path ${Date.now().toString(36)}`);
    await teacher.dispose();
    const admin = await apiSession(baseURL!, DEMO.admin, DEMO_PASSWORD);
    expect((await admin.patch(`/api/classes/class-requests/${classId}/approve`)).ok()).toBe(true);
    await admin.dispose();

    await page.goto(`/dashboard/classDetails/${classId}`);
    await expect(page).toHaveURL('/login');
    await expect(page.getByTestId('redirect-reason')).toHaveText('Sign in to see your dashboard.');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL('/signup');
    const user = newUser('returning');
    await page.getByLabel('Name').fill(user.name);
    await page.getByLabel('Photo URL').fill(user.image);
    await page.getByLabel('Phone').fill(user.phone);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(`/dashboard/classDetails/${classId}`);
    await expect(accountButton(page)).toBeVisible();

    // The verification link lands on /email-verified, which offers the way back to that class.
    await verifyEmailViaMailbox(baseURL!, user.email);
    await page.goto('/email-verified');
    await page.getByRole('link', { name: 'Continue where you left off' }).click();
    await expect(page).toHaveURL(`/dashboard/classDetails/${classId}`);
    // Focus moved to the new page's heading.
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  });

  test('an approved teacher sees the teacher menu when they come back to the tab, without reloading', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const user = newUser('promoted');
    await page.goto('/signup');
    await page.getByLabel('Name').fill(user.name);
    await page.getByLabel('Photo URL').fill(user.image);
    await page.getByLabel('Phone').fill(user.phone);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(accountButton(page)).toBeVisible();
    await verifyEmailViaMailbox(baseURL!, user.email);
    await page.goto('/teach');
    await page.getByLabel('Title').fill('Pottery at home');
    await page.getByLabel('Experience').selectOption('experienced');
    await page.getByLabel('Category').selectOption('graphic-design');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(page.getByTestId('teacher-request-status')).toContainText('Pending');

    await page.goto('/dashboard/studentHome');
    await expect(dashboardMenu(page).getByRole('link', { name: 'Student Home' })).toBeVisible();
    await expect(dashboardMenu(page).getByRole('link', { name: 'Teacher Home' })).toHaveCount(0);

    const admin = await adminApi(baseURL!);
    await decideTeacherRequest(admin, user.email, 'approve');
    await admin.dispose();

    // The person switches back to this window: no reload, the menus catch up.
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect(dashboardMenu(page).getByRole('link', { name: 'Teacher Home' })).toBeVisible();
    // Both of their sections: teaching and learning.
    await expect(dashboardMenu(page).getByRole('heading', { name: 'Teaching' })).toBeVisible();
    await expect(dashboardMenu(page).getByRole('heading', { name: 'Learning' })).toBeVisible();
    await expect(dashboardMenu(page).getByRole('link', { name: 'Student Home' })).toBeVisible();
    expect(navigations).toEqual([]);
  });

  test('an unknown class id offers "Browse classes", not "Try again"', async ({ page }) => {
    await logIn(page, DEMO.student);
    await page.goto('/dashboard/classDetails/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('link', { name: 'Browse classes' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  });
});

test.describe('first paint never waits on the API', () => {
  test('with every API answer delayed by 3 s the shell paints within 1 s', async ({ page }) => {
    // When the navbar and the page's heading first exist, from the start of the navigation.
    await page.addInitScript(() => {
      const seen: Record<string, number> = {};
      (window as unknown as { __painted: Record<string, number> }).__painted = seen;
      new MutationObserver(() => {
        if (!seen['nav'] && document.querySelector('nav[aria-label="Main"]')) seen['nav'] = performance.now();
        if (!seen['hero'] && document.querySelector('h1')) seen['hero'] = performance.now();
      }).observe(document, { childList: true, subtree: true });
    });
    const paintedAt = () => page.evaluate(() => (window as unknown as { __painted: Record<string, number> }).__painted);

    // The same page with a prompt API, for comparison on this machine (its load varies).
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    const prompt = await paintedAt();

    await page.route('**/api/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await route.continue().catch(() => undefined);
    });
    await page.goto('/', { waitUntil: 'commit' });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 2_000 });
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 2_000 });
    const delayed = await paintedAt();
    test.info().annotations.push({
      type: 'first paint (ms)',
      description: `prompt API: navbar ${Math.round(prompt['nav']!)}, heading ${Math.round(prompt['hero']!)}; API delayed 3 s: navbar ${Math.round(delayed['nav']!)}, heading ${Math.round(delayed['hero']!)}`,
    });
    // Within 1 s — or, on a machine so loaded that even the prompt page takes longer, at most the
    // first render's bounded wait (decision 020) later than it; never waiting for the API.
    const budget = Math.max(1_000, prompt['nav']! + 500);
    expect(delayed['nav']).toBeLessThan(budget);
    expect(delayed['hero']).toBeLessThan(budget);
    // The session is still on its way: the navbar holds a placeholder, not a Sign In that may be wrong.
    await expect(page.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible({ timeout: 10_000 });
  });

  test('offline, an unvisited screen says so; a missing chunk with the server up says "updated"', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await context.setOffline(true);
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Teach On the platform' })
      .first()
      .click();
    await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'SkillHive was updated' })).toHaveCount(0);
    await context.setOffline(false);
    await expect(page.getByTestId('offline-banner')).toHaveCount(0);

    // Online, the page's chunk is gone (a deploy replaced it), and the new index is there.
    await page.route(/\/assets\/reviews-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto('/');
    await page.getByRole('link', { name: 'See all reviews' }).click();
    await expect(page.getByRole('heading', { name: 'SkillHive was updated' })).toBeVisible();
  });

  test('logging out offline keeps the session as it is, and says why', async ({ page, context }) => {
    await logIn(page, DEMO.student);
    await context.setOffline(true);
    await accountButton(page).click();
    await page.getByRole('button', { name: 'Log Out' }).click();
    await expect(page.getByText('You are offline, so you are still signed in.', { exact: false })).toBeVisible();
    await expect(accountButton(page)).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('access-token'))).not.toBeNull();
    await context.setOffline(false);
  });
});

test.describe('dark mode', () => {
  test('follows the system, toggles, persists, and is axe-clean', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Dark theme' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const scheme = () => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
    expect(await scheme()).toBe('dark');
    await page.waitForLoadState('networkidle');
    await expectNoAxeViolations(page);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    expect(await scheme()).toBe('light');
    // The choice outlives a reload, over the system's preference.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'false');
    expect(await scheme()).toBe('light');
  });
});
