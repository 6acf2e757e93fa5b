import type { APIRequestContext, Page } from '@playwright/test';
import {
  arrangeFor,
  expect,
  newUser,
  test as arrangeTest,
  uniqueStamp,
  type ArrangedClass,
  type Person,
} from '../fixtures/arrange.ts';
import { accountButton, logIn } from '../fixtures/app.ts';
import { dashboardMenu, expectNoAxeViolations, expectReady } from '../fixtures/dashboard.ts';
import { ROLE_STATE } from '../fixtures/roles.ts';
import { verifyEmailViaMailbox } from '../fixtures/mailbox.ts';

/*
 * The product as people meet it: content that breaks layouts, phones, redirects that lose the
 * way, role changes in an open tab, a slow or absent API, and both themes.
 */

/** A 120-character title with no place to break (the longest the form allows). */
function unbreakableTitle(stamp: string): string {
  const word = `Supercalifragilistic${stamp}`;
  return word.repeat(Math.ceil(120 / word.length)).slice(0, 120);
}

const LONG_DESCRIPTION = `${'Longwordwithoutanybreakingopportunity'.repeat(20)} ${'and more words '.repeat(40)}`.slice(
  0,
  1000,
);

/** What the layout tests of one worker show: arranged once, only ever read. */
interface LongContent {
  /** Finds both classes in a search (the catalogue's prefix search of their one long word). */
  search: string;
  /** Accepted, and paid for by `student`. */
  accepted: ArrangedClass;
  pending: ArrangedClass;
  teacher: Person;
  student: Person;
}

/**
 * `test` with a worker's long-titled classes: a teacher's accepted class (a 120-character unbroken
 * title, a 1000-character description) that a student paid for, and a pending one. Each worker
 * arranges its own, and no test changes them, so the screens' tests share them in any order.
 */
const test = arrangeTest.extend<object, { longContent: LongContent }>({
  longContent: [
    // Playwright reads a fixture's dependencies from this pattern: none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const sessions: APIRequestContext[] = [];
      const arrange = arrangeFor(workerInfo.project.use.baseURL!, (api) => sessions.push(api));
      const stamp = uniqueStamp();
      const [teacher, student] = await Promise.all([arrange.teacher('long-teacher'), arrange.student('long-student')]);
      const accepted = await arrange.acceptedClass(teacher, {
        title: unbreakableTitle(stamp),
        price: 25,
        description: LONG_DESCRIPTION,
      });
      const pending = await arrange.pendingClass(teacher, {
        title: unbreakableTitle(`${stamp}p`),
        price: 30,
        description: LONG_DESCRIPTION,
      });
      await arrange.paidEnrollment(student, [accepted.id]);
      await use({ search: `Supercalifragilistic${stamp}`, accepted, pending, teacher, student });
      await Promise.all(sessions.map((api) => api.dispose()));
    },
    { scope: 'worker' },
  ],
});

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

type Who = 'visitor' | 'student' | 'teacher' | 'admin';

interface Screen {
  who: Who;
  /** The path as the test's title shows it. */
  name: string;
  path: (content: LongContent) => string;
  /** The long title this screen draws once its data has arrived: as text, or in its Title field. */
  shows?: (content: LongContent) => string;
  inTitleField?: true;
}

const SCREENS: Screen[] = [
  {
    who: 'visitor',
    name: '/allClassAllowed?q=…',
    path: (c) => `/allClassAllowed?q=${c.search}`,
    shows: (c) => c.accepted.title,
  },
  { who: 'visitor', name: '/teach', path: () => '/teach' },
  { who: 'visitor', name: '/reviews', path: () => '/reviews' },
  {
    who: 'student',
    name: '/dashboard/classDetails/:id',
    path: (c) => `/dashboard/classDetails/${c.accepted.id}`,
    shows: (c) => c.accepted.title,
  },
  {
    who: 'student',
    name: '/dashboard/studentHome',
    path: () => '/dashboard/studentHome',
    shows: (c) => c.accepted.title,
  },
  {
    who: 'student',
    name: '/dashboard/myEnrollClass',
    path: () => '/dashboard/myEnrollClass',
    shows: (c) => c.accepted.title,
  },
  { who: 'teacher', name: '/dashboard/myClass', path: () => '/dashboard/myClass', shows: (c) => c.pending.title },
  {
    who: 'teacher',
    name: '/dashboard/my-class/:id',
    path: (c) => `/dashboard/my-class/${c.accepted.id}`,
    shows: (c) => c.accepted.title,
  },
  {
    who: 'teacher',
    name: '/dashboard/updateItem/:id',
    path: (c) => `/dashboard/updateItem/${c.accepted.id}`,
    shows: (c) => c.accepted.title,
    inTitleField: true,
  },
  {
    who: 'teacher',
    name: '/dashboard/teacherHome',
    path: () => '/dashboard/teacherHome',
    shows: (c) => c.accepted.title,
  },
  {
    who: 'admin',
    name: '/dashboard/allClasses?q=…',
    path: (c) => `/dashboard/allClasses?q=${c.search}`,
    shows: (c) => c.pending.title,
  },
  {
    who: 'admin',
    name: '/dashboard/allClasses?status=all&q=…',
    path: (c) => `/dashboard/allClasses?status=all&q=${c.search}`,
    shows: (c) => c.accepted.title,
  },
  {
    who: 'admin',
    name: '/dashboard/seeProgressDetails/:id',
    path: (c) => `/dashboard/seeProgressDetails/${c.accepted.id}`,
    shows: (c) => c.accepted.title,
  },
  { who: 'admin', name: '/dashboard/teacherRequest', path: () => '/dashboard/teacherRequest' },
  { who: 'admin', name: '/dashboard/users', path: () => '/dashboard/users' },
];

test.describe('layouts that survive any content', () => {
  test.use({ reducedMotion: 'reduce' });

  for (const width of [1280, 360]) {
    test.describe(`${width} px: a 120-character unbroken title and a 1000-character description fit`, () => {
      test.use({ viewport: { width, height: width < 600 ? 780 : 900 } });

      for (const who of ['visitor', 'student', 'teacher', 'admin'] as const) {
        test.describe(who, () => {
          // Looking is all these tests do: the admin's screens use the role admin's state; the
          // student and teacher are the worker's own, who hold the long-titled classes.
          if (who === 'admin') test.use({ storageState: ROLE_STATE.admin });

          for (const screen of SCREENS.filter((entry) => entry.who === who)) {
            test(screen.name, async ({ page, arrange, longContent }) => {
              if (who === 'student') await arrange.signIn(page, longContent.student);
              if (who === 'teacher') await arrange.signIn(page, longContent.teacher);
              await page.goto(screen.path(longContent));
              await expectReady(page);
              const title = screen.shows?.(longContent);
              if (title && screen.inTitleField) await expect(page.getByLabel('Title')).toHaveValue(title);
              else if (title) await expect(page.getByText(title).filter({ visible: true }).first()).toBeVisible();
              await expectNoOverflow(page);
              if (who === 'admin' && screen.name === '/dashboard/allClasses?q=…') {
                // The admin's actions on the pending class: on screen; at 360 px inside the window,
                // not in a sideways scroller (from 640 px the table scrolls inside its frame).
                for (const action of ['Approve', 'Reject']) {
                  const button = page.getByRole('button', { name: `${action} ${longContent.pending.title}` });
                  if (width === 360) await expectInsideWindow(page, button);
                  else await expect(button).toBeVisible();
                }
              }
            });
          }
        });
      }
    });
  }

  test('360 px: the admin approves a long-titled class; the toast wraps it below the navbar', async ({
    page,
    arrange,
  }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    const stamp = uniqueStamp();
    const [admin, teacher] = await Promise.all([arrange.admin('long-admin'), arrange.teacher('long-approved')]);
    const pending = await arrange.pendingClass(teacher, {
      title: unbreakableTitle(stamp),
      description: LONG_DESCRIPTION,
    });
    await arrange.signIn(page, admin);
    await page.goto(`/dashboard/allClasses?q=Supercalifragilistic${stamp}`);
    await expectReady(page);
    await expect(page.getByLabel('Show')).toHaveValue('pending');
    const approve = page.getByRole('button', { name: `Approve ${pending.title}` });
    const reject = page.getByRole('button', { name: `Reject ${pending.title}` });
    await expectInsideWindow(page, approve);
    await expectInsideWindow(page, reject);
    await approve.click();
    await expect(page.getByText(`"${pending.title}" is accepted.`)).toBeVisible();
    // The toast wraps the long title and stays below the navbar's controls.
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: pending.title });
    await expectInsideWindow(page, toast);
    const toastTop = (await toast.boundingBox())!.y;
    const navBottom = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
    expect(toastTop).toBeGreaterThanOrEqual(navBottom.y + navBottom.height);
    await expectNoOverflow(page);
  });

  test('a broken class image shows the one fallback picture', async ({ page, longContent }) => {
    await page.route(/\.webp(\?.*)?$/, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`/allClassAllowed?q=${longContent.search}`);
    const card = page.getByRole('article').filter({ hasText: longContent.accepted.title });
    const image = card.locator('figure img');
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('src', '/images/class-placeholder.svg');
    await expect(image).toHaveAttribute('data-fallback', 'class');
  });
});

test.describe('no lost steps', () => {
  test('sign-up from the login page returns to the class, and the redirect said why', async ({
    page,
    baseURL,
    longContent,
  }) => {
    const classId = longContent.accepted.id;
    await page.goto(`/dashboard/classDetails/${classId}`);
    await expect(page).toHaveURL('/login');
    await expect(page.getByTestId('redirect-reason')).toHaveText('Sign in to see your dashboard.');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL('/signup');
    // The sign-up form is the way back under test here (its rules are auth.spec.ts's).
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
    arrange,
  }) => {
    const [user, admin] = await Promise.all([arrange.user('promoted'), arrange.admin('promoting')]);
    const requestId = await arrange.applyToTeach(user, { title: 'Pottery at home', category: 'graphic-design' });
    await arrange.signIn(page, user);

    await page.goto('/dashboard/studentHome');
    await expectReady(page);
    await expect(dashboardMenu(page).getByRole('link', { name: 'Student Home' })).toBeVisible();
    await expect(dashboardMenu(page).getByRole('link', { name: 'Teacher Home' })).toHaveCount(0);

    const approved = await admin.api.patch(`/api/teachers/teacher-requests/${requestId}/approve`);
    expect(approved.ok(), await approved.text()).toBe(true);

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

  test.describe('signed in', () => {
    test.use({ storageState: ROLE_STATE.student });

    test('an unknown class id offers "Browse classes", not "Try again"', async ({ page }) => {
      await page.goto('/dashboard/classDetails/00000000-0000-4000-8000-000000000000');
      await expect(page.getByRole('link', { name: 'Browse classes' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    });
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

    // The same page with a prompt API, for comparison on this machine (its load varies): once to
    // fill the cache, then measured right before the delayed one.
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
    // One pair of loads is one sample of a loaded machine's timing: the claim holds when one of a
    // few pairs shows it. A shell that waited for the API would paint after 3 s in every one.
    const samples: string[] = [];
    await expect(async () => {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
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
      samples.push(
        `prompt API: navbar ${Math.round(prompt['nav']!)}, heading ${Math.round(prompt['hero']!)}; API delayed 3 s: navbar ${Math.round(delayed['nav']!)}, heading ${Math.round(delayed['hero']!)}`,
      );
      // Within 1 s — or, on a machine so loaded that even the prompt page takes longer, at most the
      // first render's bounded wait (decision 020) later than it; never waiting for the API.
      const budget = Math.max(1_000, prompt['nav']! + 500);
      expect(delayed['nav']).toBeLessThan(budget);
      expect(delayed['hero']).toBeLessThan(budget);
    }).toPass({ intervals: [0], timeout: 25_000 });
    test.info().annotations.push({ type: 'first paint (ms)', description: samples.join(' | ') });
    // The server read the session with the page (decision 030): the navbar is already right, while
    // the browser's own API answers are still on their way.
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible({ timeout: 1_000 });
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

  test('logging out offline keeps the session as it is, and says why', async ({ page, context, arrange }) => {
    const student = await arrange.student('offline');
    // Signed in through the form, which downloads the auth client and the toasts on the way: on a
    // page freshly loaded with a session cookie neither is downloaded yet, and logging out offline
    // there blanks the whole app (the toast's chunk fails to load and nothing catches it).
    await logIn(page, student.email, student.password);
    await expectReady(page);
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
    await expectReady(page);
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
